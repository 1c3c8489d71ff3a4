// One server process, several handshakes: the SDK closes the transport of a connect that failed, but a
// stdio server that refused `initialize` (a 2026-07-28-only one does) is alive and answers
// `server/discover` on the same process. Each client gets a HandoverTransport over the one process:
// its close() lets go of the process unless the client won it (own()), and the next client takes it.
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** Process transports already started: the first client starts the process, the next takes it as it is. */
const started = new WeakSet<Transport>();

export class HandoverTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private owned = false;
  private letGo = false;

  /**
   * @param inner the process's transport (traced); started once, by whichever client comes first
   * @param rewrite changes a message before it is sent (the first initialize's modern claim)
   */
  constructor(
    private readonly inner: Transport,
    private rewrite?: (message: JSONRPCMessage) => JSONRPCMessage,
  ) {
    // Chained, as the SDK's Protocol chains: the trace set on the process's transport keeps seeing everything.
    const before = { message: inner.onmessage, error: inner.onerror, close: inner.onclose };
    inner.onmessage = (message, extra) => {
      before.message?.(message, extra);
      if (!this.letGo) this.onmessage?.(message, extra);
    };
    inner.onerror = error => {
      before.error?.(error);
      if (!this.letGo) this.onerror?.(error);
    };
    inner.onclose = () => {
      before.close?.();
      if (!this.letGo) this.onclose?.();
    };
  }

  async start(): Promise<void> {
    if (started.has(this.inner)) return;
    started.add(this.inner);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(this.rewrite ? this.rewrite(message) : message, options);
  }

  /** This client won the process: closing it from now on ends the process. The handshake is over: nothing is rewritten. */
  own(): void {
    this.owned = true;
    this.rewrite = undefined;
  }

  async close(): Promise<void> {
    if (this.owned) return this.inner.close();
    // A failed handshake: the client is told its transport closed, the process stays for the next one.
    if (this.letGo) return;
    this.letGo = true;
    this.onclose?.();
  }
}

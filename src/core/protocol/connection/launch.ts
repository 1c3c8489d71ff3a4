// One start of a server and everything it holds until it ends: the abort of the start under way, then
// the client, its traced transport, the hook on the client's close and what listens for list changes.
// Ended as one unit, as VS Code's McpServerConnection keeps one disposable store per launch: whatever
// ends it (a stop, a crash, a dead HTTP server), nothing of an ended launch acts again — a handshake
// finishing late is closed at once, a close or a list change it hears later is nobody's news, and its
// client is no longer the connection's.
import type { Client } from '@modelcontextprotocol/client';
import type { Started } from './start-context.js';
import { type ListenContext, listenForChanges } from './listen.js';

/** `stopped`: by us (a stop, a restart, disposal). `lost`: the server exited or stopped answering. */
export type LaunchEnd = 'stopped' | 'lost';

/** What a launch tells its connection, while it lasts. */
export interface LaunchHooks {
  /** The server's lists may have changed (it said so, or its stream of changes was down). */
  changed(): void;
  /** The client closed without us asking: the server exited or stopped answering. */
  lost(launch: Launch): void;
}

export class Launch {
  /** The start's client, or the start's failure; settled once by `adopt` or `fail`. */
  readonly ready: Promise<Client>;
  private settle!: { resolve(client: Client): void; reject(error: unknown): void };
  private readonly abort = new AbortController();
  private started?: Started;
  private why?: LaunchEnd;

  constructor(private readonly hooks: LaunchHooks) {
    this.ready = new Promise<Client>((resolve, reject) => (this.settle = { resolve, reject }));
    // A start nobody waits for (a crash's restart that is stopped meanwhile) fails quietly.
    this.ready.catch(() => undefined);
  }

  /** Aborts the handshake when the launch ends before it is done. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** The client while this launch holds it: none before the handshake is done, none once it ended. */
  get client(): Client | undefined {
    return this.why ? undefined : this.started?.client;
  }

  /** Why it ended; undefined while it starts or runs. */
  get ended(): LaunchEnd | undefined {
    return this.why;
  }

  /**
   * The handshake is done: the launch holds the client from now on and calls `lost` once if it closes
   * on its own. False when the launch ended meanwhile: the caller closes the client (closeLate).
   */
  adopt(started: Started): boolean {
    if (this.why) return false;
    this.started = started;
    // Protocol owns transport.onclose (it fails pending requests there); its own onclose hook is ours.
    started.client.onclose = () => {
      if (this.why) return;
      this.why = 'lost';
      this.hooks.lost(this);
    };
    this.settle.resolve(started.client);
    return true;
  }

  /** A list change the server announced (a notification, on any client of this start). */
  heard(): void {
    if (!this.why) this.hooks.changed();
  }

  /**
   * The 2026-07-28 stream of list changes, opened once the connect has returned (the request it was made
   * for goes out first) and followed while the launch holds the client.
   */
  follow(client: Client, ctx: Omit<ListenContext, 'current' | 'changed'>): void {
    setImmediate(() => {
      if (this.client !== client) return;
      listenForChanges(client, { ...ctx, current: () => this.client, changed: () => this.heard() });
    });
  }

  /** The start failed with `error` (the handshake closed what it had made). */
  fail(error: unknown): void {
    this.why ??= 'lost';
    this.settle.reject(error);
  }

  /**
   * Ends the launch: a start under way is aborted and waited for; a running client is closed, a
   * Streamable HTTP session ended first when we stop it (a lost server has none to end).
   */
  async end(why: LaunchEnd): Promise<void> {
    if (this.why) return;
    this.why = why;
    const started = this.started;
    if (!started) {
      // Only before the handshake is done: the SDK keeps its abort listener on the initialize request,
      // and firing the signal later would send notifications/cancelled for a request answered long ago.
      this.abort.abort();
      await this.ready.catch(() => undefined);
      return;
    }
    if (why === 'stopped') await started.traced.endSession();
    await started.client.close().catch(() => undefined);
  }
}

/** A handshake that finished after its launch ended: closed at once, its HTTP session ended first. */
export async function closeLate({ client, traced }: Started): Promise<void> {
  await traced.endSession();
  await client.close().catch(() => undefined);
}

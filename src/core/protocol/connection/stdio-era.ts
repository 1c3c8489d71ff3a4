// The protocol era of a stdio server, found on its one process (docs/protocol.md). The spec's probe,
// `server/discover` before anything else, costs either a second, throw-away process (the SDK's safe
// probe) or the servers that exit on any request before `initialize` (some SDKs' servers do). So:
// `initialize` first, carrying the 2026-07-28 claim in its `_meta` (a 2025 server reads `_meta` as
// metadata and answers; a dual-era server on the v2 SDK takes the request as a 2026 one and refuses
// `initialize`, as a 2026-only server does), and when `initialize` is refused with an answer,
// `server/discover` on the same process (and a plain `initialize` there if that finds no 2026 server).
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type Client,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
} from '@modelcontextprotocol/client';
import { HandoverTransport } from '../transport/handover-transport.js';
import type { StartContext, Started } from './start-context.js';
import type { TransportTrace } from '../transport/transports.js';

/** The revision the claim names: the one the SDK speaks besides the 2025 ones. */
export const MODERN_REVISION = '2026-07-28';

type NewClient = (ctx: StartContext, timeout: number) => Client;

/**
 * The stdio start without a remembered 2026 era: one process, whatever the server's revision. `claim`:
 * the first `initialize` carries the 2026-07-28 claim (a first start); without it (a remembered 2025
 * era) it is the plain 2025 one, and a refusal still sends `server/discover` on the same process.
 */
export async function startStdio(
  ctx: StartContext,
  trace: TransportTrace,
  newClient: NewClient,
  timeout: number,
  signal: AbortSignal,
  claim: boolean,
): Promise<Started> {
  const first = new HandoverTransport(trace.transport, claim ? withModernClaim : undefined);
  const client = newClient(ctx, timeout);
  ctx.prepare(client, trace);
  try {
    await client.connect(first, { timeout, signal, prior: { kind: 'legacy' } });
    first.own();
    return { client, traced: trace, kind: 'stdio' };
  } catch (err) {
    // Only an answer says the process is alive and listening: a timeout, a crash or a stop ends here.
    if (signal.aborted || !(err instanceof ProtocolError)) {
      await trace.transport.close().catch(() => undefined);
      throw err;
    }
    return askModern(ctx, trace, newClient, timeout, signal, err);
  }
}

/** `initialize` was refused: the SDK's version negotiation on the same process (it probes in place here). */
async function askModern(
  ctx: StartContext,
  trace: TransportTrace,
  newClient: NewClient,
  timeout: number,
  signal: AbortSignal,
  refusal: ProtocolError,
): Promise<Started> {
  const second = new HandoverTransport(trace.transport);
  const client = newClient(ctx, timeout);
  ctx.prepare(client, trace);
  try {
    await client.connect(second, { timeout, signal });
    second.own();
    return { client, traced: trace, kind: 'stdio' };
  } catch {
    await trace.transport.close().catch(() => undefined);
    // Neither era: what the server said to `initialize` is the failure to report.
    throw refusal;
  }
}

/** The first `initialize` with the 2026-07-28 claim in its `_meta` (the keys a 2026 request carries). */
function withModernClaim(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || message.method !== 'initialize' || !('id' in message)) return message;
  const params = message.params ?? {};
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return {
    ...message,
    params: {
      ...params,
      _meta: {
        ...meta,
        [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
        [CLIENT_INFO_META_KEY]: params.clientInfo,
        [CLIENT_CAPABILITIES_META_KEY]: params.capabilities,
      },
    },
  };
}

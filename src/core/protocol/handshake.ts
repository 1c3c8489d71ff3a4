// Starting one server: a transport of the configured kind, traced, and an SDK client that finished its
// handshake on it, the protocol era negotiated without a second process, with the fallbacks a real
// server may need (the 2025 handshake after a failed version probe over HTTP, legacy SSE after a
// refused Streamable HTTP). The era is remembered for the next start.
import * as l10n from '@vscode/l10n';
import { type Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Implementation, PriorDiscovery, Transport } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/config.js';
import { type LogSink, rateLimited } from '../log.js';
import type { Platform } from '../platform.js';
import type { StoredOAuthProvider } from './oauth.js';
import type { ServerInfo } from './connection-state.js';
import type { WireMeter } from './message-limit.js';
import { type EraMemory, eraKey } from './eras.js';
import { noToolValidation } from './no-json-schema.js';
import { startStdio } from './stdio-era.js';
import { describeCause } from '../errors.js';
import { createQuestionClient } from './questions.js';
import { TransportTrace, createHttpTransport, createStdioTransport, shouldFallBackToSse } from './transports.js';

/** The version probe's bound: a server silent for this long gets the 2025 initialize handshake. */
export const PROBE_TIMEOUT_MS = 5000;

export type TransportKind = ServerInfo['transport'];

/** A client that finished its handshake, with the traced transport under it and its kind as used. */
export interface Started {
  client: Client;
  traced: TransportTrace;
  kind: TransportKind;
}

/** What a start needs from its connection. */
export interface StartContext {
  def: ServerDefinition;
  log: LogSink;
  clientInfo?: Implementation;
  defaultCwd?: string;
  /** Where stdio servers start (see ConnectionOptions.platform). */
  platform: Platform;
  oauth?: StoredOAuthProvider;
  /** Values to hide in the trace besides the definition's own. */
  secrets: readonly string[];
  probeTimeoutMs?: number;
  /** Each server's era, remembered from its last start. */
  eras: EraMemory;
  /** Counts what the server sends and bounds each message. */
  meter: WireMeter;
  /** A stdio server's stderr, line by line. */
  onStderr(line: string): void;
  /** Sets up a fresh client before its connect: question handlers, warnings, list changes. */
  prepare(client: Client, traced: TransportTrace): void;
}

const MAX_PROTOCOL_WARNINGS_PER_SECOND = 50;

/** What the SDK reports about a server's messages (unknown progress tokens, stray responses, garbage): the server decides how often, so at most so many a second. */
export function protocolWarnings(server: string, log: LogSink): (line: string) => void {
  return rateLimited(
    MAX_PROTOCOL_WARNINGS_PER_SECOND,
    line => log.warn(line),
    () =>
      log.warn(
        l10n.t(
          '{0}: more than {1} protocol errors a second: the rest of this second is not shown',
          server,
          MAX_PROTOCOL_WARNINGS_PER_SECOND,
        ),
      ),
  );
}

/** The longest wait for the version probe's answer within a start bounded by `timeout`. */
export function probeTimeout(ctx: StartContext, timeout: number): number {
  return Math.min(timeout, ctx.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
}

/**
 * startClient with the era remembered from this definition's last start, remembered again for the
 * next: a modern server is then adopted with no round trip, an old one gets initialize at once.
 */
export async function startRemembering(ctx: StartContext, timeout: number, signal: AbortSignal): Promise<Started> {
  const key = eraKey(ctx.def);
  try {
    const started = await startClient(ctx, timeout, signal, ctx.eras.get(key));
    const { client, kind } = started;
    const discover = client.getDiscoverResult();
    if (kind !== 'sse')
      ctx.eras.set(
        key,
        client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' },
      );
    return started;
  } catch (err) {
    // A remembered era may be stale (the server was replaced): probe again next time.
    ctx.eras.delete(key);
    throw err;
  }
}

/**
 * Trace + handshake on the configured transport, the era negotiated without a second process (see
 * docs/protocol.md): over stdio `initialize` first and `server/discover` on the same process if the
 * server refuses it (stdio-era.ts); over HTTP the version probe, and the 2025 handshake whenever the
 * probe fails short of a refused sign-in; legacy SSE after a refused Streamable HTTP. `prior`: the era
 * remembered from the last start; a modern one is adopted with no round trip.
 */
export function startClient(
  ctx: StartContext,
  timeout: number,
  signal: AbortSignal,
  prior: PriorDiscovery | undefined,
): Promise<Started> {
  const t = ctx.def.transport;
  // A remembered era is taken as it is (a 2025 one gets a plain initialize); a first start finds it.
  if (t.type === 'stdio')
    return prior
      ? attempt(ctx, 'stdio', timeout, signal, prior)
      : startStdio(ctx, traced(ctx, 'stdio'), newClient, timeout, signal);
  // HTTP+SSE predates the 2026 revision: no probe.
  if (t.type === 'sse') return attempt(ctx, 'sse', timeout, signal, { kind: 'legacy' });
  return startHttp(ctx, timeout, signal, prior);
}

async function startHttp(
  ctx: StartContext,
  timeout: number,
  signal: AbortSignal,
  prior: PriorDiscovery | undefined,
): Promise<Started> {
  let failure: unknown;
  try {
    return await attempt(ctx, 'http', timeout, signal, prior);
  } catch (err) {
    failure = err;
  }
  // A server that does not know the probe may answer it with any status, garbage or a closed stream:
  // the 2025 handshake is the one every server answers, and only its failure is the server's.
  if (!signal.aborted && probeFailed(failure)) {
    ctx.log.info(probeFallback(ctx, timeout, failure));
    try {
      return await attempt(ctx, 'http', timeout, signal, { kind: 'legacy' });
    } catch (err) {
      failure = err;
    }
  }
  if (!shouldFallBackToSse(failure)) throw failure;
  ctx.log.info(
    l10n.t('{0}: Streamable HTTP refused ({1}); trying legacy SSE', ctx.def.name, String((failure as Error).message)),
  );
  return attempt(ctx, 'sse', timeout, signal, { kind: 'legacy' });
}

/** A fresh traced transport of the given kind and a client that finished its handshake on it. */
async function attempt(
  ctx: StartContext,
  kind: TransportKind,
  timeout: number,
  signal: AbortSignal,
  prior: PriorDiscovery | undefined,
): Promise<Started> {
  const trace = traced(ctx, kind);
  const client = newClient(ctx, timeout);
  ctx.prepare(client, trace);
  try {
    await client.connect(trace.transport, { timeout, signal, ...(prior ? { prior } : {}) });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  return { client, traced: trace, kind };
}

function traced(ctx: StartContext, kind: TransportKind): TransportTrace {
  return new TransportTrace(createTransport(ctx, kind), ctx.log, [...ctx.secrets, ...(ctx.def.secrets ?? [])]);
}

function createTransport(ctx: StartContext, kind: TransportKind): Transport {
  const t = ctx.def.transport;
  if (t.type === 'stdio')
    return createStdioTransport(
      t,
      ctx.log,
      ctx.platform,
      ctx.def.defaultCwd ?? ctx.defaultCwd,
      line => ctx.onStderr(line),
      ctx.meter,
    );
  return createHttpTransport(t, kind === 'sse' ? 'sse' : 'http', ctx.oauth, ctx.meter);
}

/** Questions (elicitation) only: we never answer sampling or roots, and the SDK replies to such requests with an error. */
export function newClient(ctx: StartContext, timeout: number): Client {
  return createQuestionClient(ctx.clientInfo ?? { name: 'mcp-prompts', version: '0.1.0' }, {
    capabilities: { elicitation: { form: {}, url: {} } },
    jsonSchemaValidator: noToolValidation,
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeout(ctx, timeout) } },
  });
}

/** The SDK's typed timeout of the `server/discover` probe. */
function isProbeTimeout(err: unknown): boolean {
  return (
    err instanceof SdkError &&
    err.code === SdkErrorCode.RequestTimeout &&
    /^Version negotiation probe timed out/.test(err.message)
  );
}

/**
 * The probe failed short of an answer: a 5xx, a closed connection, garbage (the SDK says
 * EraNegotiationFailed) or silence. A refused sign-in (401, 403) is no such failure; the SDK itself
 * falls back on a JSON-RPC error or another 4xx.
 */
function probeFailed(err: unknown): boolean {
  return err instanceof SdkError && (err.code === SdkErrorCode.EraNegotiationFailed || isProbeTimeout(err));
}

function probeFallback(ctx: StartContext, timeout: number, err: unknown): string {
  return isProbeTimeout(err)
    ? l10n.t(
        '{0} did not answer the protocol version probe within {1} s; using the 2025 handshake',
        ctx.def.name,
        probeTimeout(ctx, timeout) / 1000,
      )
    : l10n.t(
        '{0} refused the protocol version probe ({1}); using the 2025 handshake',
        ctx.def.name,
        describeCause(err),
      );
}

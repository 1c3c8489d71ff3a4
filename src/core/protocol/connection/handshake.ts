// Starting one server: a transport of the configured kind, traced, and an SDK client that finished its
// handshake on it, the protocol era decided by what the server answers, without a second process: a
// late answer to the version probe is still the answer (the probe gets the start's whole time), the 2025
// handshake follows a probe that failed short of an answer, a 2025 handshake refused with the 2026
// versions the server speaks is followed by the probe, and legacy SSE follows a refused Streamable HTTP.
// The era is remembered for the next start.
import * as l10n from '@vscode/l10n';
import {
  type Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import type { PriorDiscovery, Transport } from '@modelcontextprotocol/client';
import { type LogSink, rateLimited } from '../../log.js';
import { eraKey } from '../transport/eras.js';
import { noToolValidation } from '../transport/no-json-schema.js';
import { MODERN_REVISION, startStdio } from './stdio-era.js';
import { describeCause } from '../../errors.js';
import { createQuestionClient } from '../questions/questions.js';
import {
  TransportTrace,
  createHttpTransport,
  createStdioTransport,
  shouldFallBackToSse,
} from '../transport/transports.js';
import type { StartContext, Started, TransportKind } from './start-context.js';

/** A start silent for this long says so in the log, once, and goes on waiting up to its timeout. */
const SLOW_START_NOTICE_MS = 5000;

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

/**
 * startClient with the era remembered from this definition's last start, remembered again for the
 * next: a modern server is then adopted with no round trip, an old one gets initialize at once.
 */
export async function startRemembering(ctx: StartContext, timeout: number, signal: AbortSignal): Promise<Started> {
  const key = eraKey(ctx.def);
  // A cold server or a loaded machine may take long to answer: the start waits, and says so.
  const notice = setTimeout(() => {
    if (!signal.aborted)
      ctx.log.info(
        l10n.t(
          '{0} has not answered for {1} s; waiting up to {2} s for its answer',
          ctx.def.name,
          SLOW_START_NOTICE_MS / 1000,
          timeout / 1000,
        ),
      );
  }, SLOW_START_NOTICE_MS);
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
  } finally {
    clearTimeout(notice);
  }
}

/**
 * Trace + handshake on the configured transport, the era negotiated without a second process (see
 * docs/protocol.md): over stdio `initialize` first and `server/discover` on the same process if the
 * server refuses it (stdio-era.ts); over HTTP the version probe, the 2025 handshake when the probe
 * fails short of an answer, and the probe again when that handshake is refused with the 2026 versions
 * the server speaks; legacy SSE after a refused Streamable HTTP. `prior`: the era remembered from the
 * last start; a modern one is adopted with no round trip.
 */
export function startClient(
  ctx: StartContext,
  timeout: number,
  signal: AbortSignal,
  prior: PriorDiscovery | undefined,
): Promise<Started> {
  const t = ctx.def.transport;
  // A remembered 2026 era is taken as it is; a 2025 one gets its plain initialize, a first start one
  // with the 2026 claim; either way on the one process, which follows a server that refuses it.
  if (t.type === 'stdio')
    return prior?.kind === 'modern'
      ? attempt(ctx, 'stdio', timeout, signal, prior)
      : startStdio(ctx, traced(ctx, 'stdio'), newClient, timeout, signal, prior === undefined);
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
  let legacyTried = prior?.kind === 'legacy';
  if (!signal.aborted && probeFailed(failure)) {
    ctx.log.info(probeFallback(ctx, failure));
    legacyTried = true;
    try {
      return await attempt(ctx, 'http', timeout, signal, { kind: 'legacy' });
    } catch (err) {
      failure = err;
    }
  }
  // The 2025 handshake refused with the 2026 versions the server speaks (a remembered era gone stale, a
  // probe lost on the way): the probe again, once.
  if (!signal.aborted && legacyTried && refusedFor2026(failure)) {
    ctx.log.info(l10n.t('{0} speaks only the 2026 revision; asking it with server/discover', ctx.def.name));
    try {
      return await attempt(ctx, 'http', timeout, signal, undefined);
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
    // A late answer to the probe is still the answer: it gets the time any request of the start gets.
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: timeout } },
  });
}

/**
 * The probe failed short of an answer: a 5xx, a closed connection, garbage (the SDK says
 * EraNegotiationFailed). Silence is no such failure: it ends the start as any request's timeout does; a
 * refused sign-in (401, 403) neither. The SDK itself falls back on a JSON-RPC error or another 4xx.
 */
function probeFailed(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed;
}

function probeFallback(ctx: StartContext, err: unknown): string {
  return l10n.t(
    '{0} refused the protocol version probe ({1}); using the 2025 handshake',
    ctx.def.name,
    describeCause(err),
  );
}

/**
 * The server refused a request with "unsupported protocol version" (-32022) and named, among the
 * versions it supports, a 2026 one this client speaks: as a JSON-RPC error, or in the body of an HTTP 4xx.
 */
function refusedFor2026(err: unknown): boolean {
  let error: { code?: unknown; data?: unknown } | undefined;
  if (err instanceof ProtocolError) error = err;
  else if (err instanceof SdkHttpError && typeof err.data?.text === 'string') {
    try {
      error = (JSON.parse(err.data.text) as { error?: { code?: unknown; data?: unknown } }).error;
    } catch {
      return false;
    }
  }
  if (error?.code !== ProtocolErrorCode.UnsupportedProtocolVersion) return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(MODERN_REVISION);
}

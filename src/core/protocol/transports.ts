// Transport construction, one function per kind, plus a trace of the raw JSON-RPC traffic.
import fs from 'node:fs';
import * as l10n from '@vscode/l10n';
import path from 'node:path';
import { StreamableHTTPClientTransport, SSEClientTransport, SdkHttpError } from '@modelcontextprotocol/client';
import type { Transport, OAuthClientProvider } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ChildProcess } from 'node:child_process';
import type { HttpTransportConfig, StdioTransportConfig } from '../config/config.js';
import { parseEnvFile } from '../config/config.js';
import { stringifyJson } from '../json.js';
import { LineReadBuffer } from './line-buffer.js';
import { MAX_MESSAGE_BYTES, WireMeter, limitedFetch } from './message-limit.js';
import { LogSink, MAX_SERVER_LINE, hideValues, rateLimited, redact } from '../log.js';

/**
 * Logs every message in and out of a transport at trace level. It instruments the transport itself,
 * so that a process handed from one handshake to the next (stdio-era.ts) is traced once, whichever
 * client speaks on it. The Client chains the `onmessage` set here.
 */
export class TransportTrace {
  /** A server decides how many messages arrive: a notification flood must not flood the trace. */
  private readonly traceIncoming = rateLimited(
    MAX_TRACED_MESSAGES_PER_SECOND,
    line => this.log.trace(line),
    () =>
      this.log.trace(
        l10n.t(
          '<- (more than {0} messages a second: the rest of this second is not traced)',
          MAX_TRACED_MESSAGES_PER_SECOND,
        ),
      ),
  );

  /** Answers the user gave to a server's password-like questions: never traced, whatever their length. */
  private readonly answers: string[] = [];

  constructor(
    readonly transport: Transport,
    private readonly log: LogSink,
    private readonly secrets: readonly string[] = [],
  ) {
    transport.onmessage = m => {
      if (this.tracing()) this.traceIncoming(`<- ${hideValues(redact(stringifyJson(m), this.secrets), this.answers)}`);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (this.tracing())
        this.log.trace(`-> ${hideValues(redact(stringifyJson(message), this.secrets), this.answers)}`);
      return send(message, options);
    };
  }
  /** Hides `value` in every later trace line, in and out (a password-like answer to a server's question). */
  hide(value: string): void {
    if (value && !this.answers.includes(value)) this.answers.push(value);
  }
  private tracing(): boolean {
    return this.log.traceEnabled?.() ?? true;
  }
  /**
   * Ends a Streamable HTTP session (`DELETE` with its `Mcp-Session-Id`), as the spec asks of clients that
   * leave, so a stateful server can free it. Bounded in time; a refusal is no error of ours.
   */
  async endSession(): Promise<void> {
    const t = this.transport;
    if (!(t instanceof StreamableHTTPClientTransport && t.sessionId)) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      t.terminateSession().catch(() => undefined),
      new Promise(resolve => {
        timer = setTimeout(resolve, END_SESSION_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** `meter` counts what the server sends and bounds each message (a line: larger ones close the connection). */
export function createStdioTransport(
  config: StdioTransportConfig,
  log: LogSink,
  defaultCwd?: string,
  onStderr?: (line: string) => void,
  meter?: WireMeter,
): StdioClientTransport {
  let env = { ...config.env };
  const cwd = config.cwd ?? defaultCwd;
  // spawn reports a missing cwd as ENOENT of the command, which would blame the wrong thing.
  if (config.cwd && !fs.existsSync(config.cwd))
    throw Object.assign(new Error(config.cwd), { code: 'ENOENT_CWD', path: config.cwd });
  if (config.envFile) {
    const file = path.resolve(defaultCwd ?? process.cwd(), config.envFile);
    if (!fs.existsSync(file)) throw Object.assign(new Error(file), { code: 'ENOENT_ENVFILE', path: file });
    env = { ...parseEnvFile(fs.readFileSync(file, 'utf8')), ...env };
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    // The SDK adds its safe default environment (PATH, HOME, ...) to whatever we pass here.
    env: Object.keys(env).length ? env : undefined,
    cwd,
    stderr: 'pipe',
  });
  // A 20 MB image must reach the content checks (which explain the size limit) without killing the
  // connection, and in linear time: our buffer replaces the SDK's (same contract, private field).
  (transport as unknown as { _readBuffer: LineReadBuffer })._readBuffer = new LineReadBuffer(MAX_MESSAGE_BYTES, meter);
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    // A server that started a child of its own (a daemon) which inherited its stdout/stderr keeps our
    // pipes open after it exits: the SDK would wait for them before reporting the close, and the CLI
    // would never exit. Once the server has exited, let the pipes drain briefly, then close our ends.
    const child = (transport as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', () => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.stdin?.destroy();
      }, PIPE_DRAIN_MS).unref();
    });
  };
  pipeLines(
    transport.stderr,
    line => {
      onStderr?.(line);
      log.info(`[stderr] ${line}`);
    },
    () =>
      log.info(
        l10n.t(
          '[stderr] (more than {0} lines a second: the rest of this second is not shown)',
          MAX_STDERR_LINES_PER_SECOND,
        ),
      ),
  );
  return transport;
}

/** `meter` counts what the server sends; every response body it sends stops at MAX_MESSAGE_BYTES a message. */
export function createHttpTransport(
  config: HttpTransportConfig,
  kind: 'http' | 'sse',
  authProvider?: OAuthClientProvider,
  meter = new WireMeter(),
): StreamableHTTPClientTransport | SSEClientTransport {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  const fetch = limitedFetch(meter);
  if (kind === 'sse') {
    // EventSource needs the headers too (e.g. Authorization), or the GET is refused.
    return new SSEClientTransport(url, {
      requestInit,
      authProvider,
      fetch,
      eventSourceInit: {
        fetch: (u, init) =>
          fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...config.headers } }),
      },
    });
  }
  return new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch });
}

/** A Streamable HTTP POST answered with 4xx means "old server": try legacy SSE (per the spec's backwards compatibility). */
export function shouldFallBackToSse(err: unknown): boolean {
  if (err instanceof SdkHttpError)
    return (
      typeof err.status === 'number' &&
      err.status >= 400 &&
      err.status < 500 &&
      err.status !== 401 &&
      err.status !== 403
    );
  return false;
}

const MAX_TRACED_MESSAGES_PER_SECOND = 1000;
const END_SESSION_TIMEOUT_MS = 2000;
/** How long the pipes of an exited server may still deliver what it wrote. */
const PIPE_DRAIN_MS = 300;
/** Lines per second passed to the log; a flooding server must not flood the Output view. */
export const MAX_STDERR_LINES_PER_SECOND = 200;

function pipeLines(
  stream: NodeJS.ReadableStream | import('node:stream').Stream | null,
  onLine: (line: string) => void,
  onFlood: () => void,
): void {
  if (!stream) return;
  let buffer = '';
  /** Inside a line longer than the log keeps: its rest is dropped up to the next newline. */
  let dropping = false;
  const emit = rateLimited(MAX_STDERR_LINES_PER_SECOND, onLine, onFlood);
  stream.on('data', (chunk: Buffer | string) => {
    buffer += chunk.toString();
    let start = 0;
    let i: number;
    while ((i = buffer.indexOf('\n', start)) >= 0) {
      if (!dropping) emit(buffer.slice(start, i));
      dropping = false;
      start = i + 1;
    }
    buffer = buffer.slice(start);
    if (dropping) buffer = '';
    // A server that never ends a line must not grow our memory without bound. The line is passed on
    // only once it holds twice what the log keeps: a secret (shorter than that) starting before the
    // log's cut then lies whole inside it, so the sink can hide it before cutting.
    else if (buffer.length > 2 * MAX_SERVER_LINE) {
      emit(buffer);
      buffer = '';
      dropping = true;
    }
  });
  stream.on('end', () => {
    if (buffer && !dropping) emit(buffer);
    buffer = '';
  });
}

// Transport construction, one function per kind, plus a trace of the raw JSON-RPC traffic.
import fs from 'node:fs';
import * as l10n from '@vscode/l10n';
import { StreamableHTTPClientTransport, SSEClientTransport, SdkHttpError } from '@modelcontextprotocol/client';
import type { Transport, OAuthClientProvider } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn, type ChildProcess } from 'node:child_process';
import type { HttpTransportConfig, StdioTransportConfig } from '../../config/config.js';
import { parseEnvFile } from '../../config/config.js';
import {
  serverEnvironment,
  stdioLaunch,
  stdioStart,
  type FileKind,
  type StdioStart,
} from '../../config/stdio-launch.js';
import type { Platform } from '../../platform.js';
import { endProcess } from '../../process-tree.js';
import { stringifyJson } from '../../json.js';
import { LineReadBuffer } from '../limits/line-buffer.js';
import { retryClosedConnection } from './retry-closed-connection.js';
import { MAX_MESSAGE_BYTES, WireMeter, limitedFetch } from '../limits/message-limit.js';
import { LogSink, MAX_SERVER_LINE, hideValues, rateLimited, redact } from '../../log.js';

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

/** How the server's process is started: its cwd and env file checked first (so a missing one is named). */
function processStart(config: StdioTransportConfig, platform: Platform, defaultCwd?: string) {
  const launch = stdioLaunch(config, defaultCwd, platform);
  // spawn reports a missing cwd as ENOENT of the command, which would blame the wrong thing.
  if (config.cwd !== undefined && !fs.existsSync(launch.cwd))
    throw Object.assign(new Error(launch.cwd), { code: 'ENOENT_CWD', path: launch.cwd });
  let fromFile: Record<string, string> = {};
  if (launch.envFile) {
    if (!fs.existsSync(launch.envFile))
      throw Object.assign(new Error(launch.envFile), { code: 'ENOENT_ENVFILE', path: launch.envFile });
    fromFile = parseEnvFile(fs.readFileSync(launch.envFile, 'utf8'));
  }
  return stdioStart(launch, serverEnvironment(platform, fromFile, config.env), platform, fileKind);
}

/** `meter` counts what the server sends and bounds each message (a line: larger ones close the connection). */
export function createStdioTransport(
  config: StdioTransportConfig,
  log: LogSink,
  platform: Platform,
  defaultCwd?: string,
  onStderr?: (line: string) => void,
  meter?: WireMeter,
): StdioClientTransport {
  const start = processStart(config, platform, defaultCwd);
  // The SDK's transport sends, receives and closes; the process is started as `start` says (spawnInto).
  const transport = new StdioClientTransport({
    command: start.file,
    args: start.args,
    env: start.env,
    cwd: start.cwd,
    stderr: 'pipe',
  });
  // A 20 MB image must reach the content checks (which explain the size limit) without killing the
  // connection, and in linear time: our buffer replaces the SDK's (same contract, private field).
  (transport as unknown as { _readBuffer: LineReadBuffer })._readBuffer = new LineReadBuffer(MAX_MESSAGE_BYTES, meter);
  transport.start = async () => {
    await spawnInto(transport, start);
    // A server that started a child of its own (a daemon) which inherited its stdout/stderr keeps our
    // pipes open after it exits: the SDK would wait for them before reporting the close, and the CLI
    // would never exit. Once the server has exited, let the pipes drain briefly, then close our ends.
    const child = processOf(transport);
    child?.once('exit', () => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.stdin?.destroy();
      }, PIPE_DRAIN_MS).unref();
    });
  };
  stopWholeTree(transport, platform);
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

const processOf = (transport: StdioClientTransport) => (transport as unknown as { _process?: ChildProcess })._process;

/** What the program lookup needs to know of a path, from this machine's file system. */
function fileKind(file: string): FileKind {
  try {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) return 'none';
    fs.accessSync(file, fs.constants.X_OK);
    return 'program';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EACCES' ? 'file' : 'none';
  }
}

/** The SDK transport's internals that its own start sets up (same contract, private fields). */
interface SdkStdioInternals {
  _process?: ChildProcess;
  _readBuffer: { append(chunk: Buffer): void };
  _stderrStream: NodeJS.WritableStream | null;
  processReadBuffer(): void;
}

/**
 * The SDK's start, with Node's spawn of exactly `start`: the SDK's cross-spawn would look the command up
 * again (on Windows in the working folder first) and quote a batch file's arguments its own way.
 */
function spawnInto(transport: StdioClientTransport, start: StdioStart): Promise<void> {
  const t = transport as unknown as SdkStdioInternals;
  if (t._process) return Promise.reject(new Error('StdioClientTransport already started'));
  return new Promise((resolve, reject) => {
    const child = spawn(start.file, start.args, {
      cwd: start.cwd,
      env: start.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: start.verbatim,
    });
    t._process = child;
    child.on('error', error => {
      reject(error);
      transport.onerror?.(error);
    });
    child.on('spawn', () => resolve());
    child.on('close', () => {
      t._process = undefined;
      transport.onclose?.();
    });
    child.stdin.on('error', error => transport.onerror?.(error));
    child.stdout.on('error', error => transport.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => {
      try {
        t._readBuffer.append(chunk);
        t.processReadBuffer();
      } catch (error) {
        transport.onerror?.(error as Error);
        transport.close().catch(() => undefined);
      }
    });
    if (t._stderrStream) child.stderr.pipe(t._stderrStream);
  });
}

/**
 * The SDK's close ends stdin, waits, then signals the process it started: on Windows that is the
 * cmd.exe of a `.cmd` launcher (npx, uvx), and a wrapper script elsewhere, while the real server
 * lives on. Before it, endProcess gives the server VS Code's grace and then ends everything it started.
 */
function stopWholeTree(transport: StdioClientTransport, platform: Platform): void {
  const close = transport.close.bind(transport);
  transport.close = async () => {
    const child = processOf(transport);
    if (child) await endProcess(child, platform);
    return close();
  };
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
  const fetch = retryClosedConnection(limitedFetch(meter));
  if (kind === 'sse') {
    // EventSource needs the headers too (e.g. Authorization), or the GET is refused.
    return oneSignInAtATime(
      new SSEClientTransport(url, {
        requestInit,
        authProvider,
        fetch,
        eventSourceInit: {
          fetch: (u, init) =>
            fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...config.headers } }),
        },
      }),
      authProvider,
    );
  }
  return oneSignInAtATime(new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch }), authProvider);
}

/** What our provider adds to the SDK's (StoredOAuthProvider, oauth.ts). */
interface SignInsOneAtATime {
  answerUnauthorized?: (answer: () => Promise<void>) => Promise<void>;
}

/**
 * The SDK answers each refused request (401) on its own; two at once would start two sign-ins, and the
 * browser's answer would reach only one. Through our provider they go one at a time (answerUnauthorized).
 * The transport keeps its adapted provider in a private field (same contract in v2.x).
 */
function oneSignInAtATime<T extends StreamableHTTPClientTransport | SSEClientTransport>(
  transport: T,
  provider?: OAuthClientProvider,
): T {
  const answer = (provider as SignInsOneAtATime | undefined)?.answerUnauthorized;
  const slot = transport as unknown as { _authProvider?: { onUnauthorized?: (ctx: unknown) => Promise<void> } };
  const adapted = slot._authProvider;
  const onUnauthorized = adapted?.onUnauthorized;
  if (!answer || !adapted || !onUnauthorized) return transport;
  slot._authProvider = { ...adapted, onUnauthorized: ctx => answer.call(provider, () => onUnauthorized(ctx)) };
  return transport;
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

// Every failure becomes a PromptError: one sentence a person can act on, naming the server, plus
// whether the user's input was at fault (`input`) or the server was (`server`). The UI and the CLI map
// kinds to presentation (exit code 2 / 1, "Show log" action) in one place each.
import * as l10n from '@vscode/l10n';
import {
  IssuerMismatchError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';

export type ErrorKind = 'input' | 'server' | 'cancelled';

export class PromptError extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind,
    readonly server?: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'PromptError';
  }
}

/**
 * A server sent a message larger than `limit` bytes (see protocol/limits/message-limit.ts); `closed`: the
 * connection was closed for it (stdio, where the rest of the line cannot be skipped).
 */
export class MessageTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly closed: boolean,
  ) {
    super(`message larger than ${limit} bytes`);
    this.name = 'MessageTooLargeError';
  }
}

/** The one line that says a server's message was too large (the log says it without `what`). */
export function tooLargeMessage(err: MessageTooLargeError, server: string, what?: string): string {
  const mb = err.limit / 1048576;
  if (what === undefined)
    return err.closed
      ? l10n.t('{0} sent a message larger than {1} MB; the connection was closed', server, mb)
      : l10n.t('{0} sent a message larger than {1} MB; it was not read', server, mb);
  return err.closed
    ? l10n.t('{0} sent a message larger than {1} MB during {2}; the connection was closed', server, mb, what)
    : l10n.t('{0} sent a message larger than {1} MB during {2}; it was not read', server, mb, what);
}

/** The SDK prefixes "MCP error <code>: " and servers often repeat it; users see the cause only. */
export function stripMcpPrefix(message: string): string {
  let m = message;
  for (let previous = ''; previous !== m;) {
    previous = m;
    m = m.replace(/^\s*MCP error -?\d+:\s*/, '');
  }
  return m.trim();
}

export interface ErrorContext {
  /** The request was aborted by the caller (cancel, Escape). */
  aborted?: boolean;
  /** Why the connection went away, when we know more than the SDK (last stderr line, oversized message). */
  closeCause?: string;
  /** The timeout that expired, for the message. */
  timeoutMs?: number;
}

/** JSON-RPC codes v1 of the SDK gave local timeouts and closes; kept on PromptError.code for callers. */
const TIMEOUT_CODE = -32001;
const CLOSED_CODE = -32000;

/**
 * The server answered with an error (a JSON-RPC error code, which is negative), not a timeout, a lost
 * connection or a cancel of ours (the SDK's own codes for those, above).
 */
export function refusedByServer(err: unknown): boolean {
  const code = err instanceof PromptError && err.kind !== 'cancelled' ? err.code : undefined;
  return code !== undefined && code < 0 && code !== TIMEOUT_CODE && code !== CLOSED_CODE;
}

/** Turns whatever a request threw into a PromptError that names the server; one function per cause. */
export function toPromptError(err: unknown, server: string, what: string, context: ErrorContext = {}): PromptError {
  if (err instanceof PromptError) return err;
  // The SDK reports an abort and a timeout with the same code: only our own signal tells them apart.
  if (context.aborted) return new PromptError(l10n.t('{0}: {1} was cancelled', server, what), 'cancelled', server);
  // The version probe wraps what went wrong (a refused connection, an HTML page): report that.
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && cause instanceof Error)
    return toPromptError(cause, server, what, context);
  if (err instanceof MessageTooLargeError) return new PromptError(tooLargeMessage(err, server, what), 'server', server);
  return (
    serverRefusal(err, server, what) ??
    httpStatusError(err, server) ??
    issuerRefusal(err, server) ??
    sdkFailure(err, server, what, context) ??
    startFailure(err, server) ??
    otherFailure(err, server, what)
  );
}

/** The server answered with a JSON-RPC error. */
function serverRefusal(err: unknown, server: string, what: string): PromptError | undefined {
  if (!(err instanceof ProtocolError)) return undefined;
  const detail = stripMcpPrefix(err.message) || l10n.t('no details');
  switch (err.code as ProtocolErrorCode) {
    case ProtocolErrorCode.InvalidParams:
      return new PromptError(l10n.t('{0} rejected {1}: {2}', server, what, detail), 'input', server, err.code);
    case ProtocolErrorCode.MethodNotFound:
      return new PromptError(l10n.t('{0} does not support {1}: {2}', server, what, detail), 'server', server, err.code);
    case ProtocolErrorCode.InternalError:
      return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, detail), 'server', server, err.code);
    default:
      return new PromptError(
        l10n.t('{0} failed on {1} (error {2}): {3}', server, what, err.code, detail),
        'server',
        server,
        err.code,
      );
  }
}

/** What the SDK itself reports: a timeout, a lost connection, an answer that failed its schema. */
function sdkFailure(err: unknown, server: string, what: string, context: ErrorContext): PromptError | undefined {
  if (!(err instanceof SdkError)) return undefined;
  switch (err.code) {
    case SdkErrorCode.RequestTimeout:
      return new PromptError(
        context.timeoutMs
          ? l10n.t('{0} did not answer {1} within {2} s', server, what, context.timeoutMs / 1000)
          : l10n.t('{0} did not answer {1} in time', server, what),
        'server',
        server,
        TIMEOUT_CODE,
      );
    case SdkErrorCode.ConnectionClosed:
      return new PromptError(
        context.closeCause
          ? l10n.t('{0} closed the connection during {1} ({2})', server, what, context.closeCause)
          : l10n.t('{0} closed the connection during {1}', server, what),
        'server',
        server,
        CLOSED_CODE,
      );
    case SdkErrorCode.NotConnected:
      return new PromptError(l10n.t('{0} is not connected', server), 'server', server);
    case SdkErrorCode.InvalidResult:
      return new PromptError(
        l10n.t(
          '{0} sent an invalid answer to {1}: {2}',
          server,
          what,
          err.message.replace(/^Invalid result for [^:]+: /, ''),
        ),
        'server',
        server,
      );
    default:
      // The other codes (send failures, HTTP stream errors, ...) carry a message that says enough.
      return undefined;
  }
}

/** A stdio server that could not be started at all (the transport's checks, then spawn's errors). */
function startFailure(err: unknown, server: string): PromptError | undefined {
  const e = err as (NodeJS.ErrnoException & { index?: number; program?: string }) | undefined;
  const where = String(e?.path ?? e?.message);
  const failed = (message: string) => new PromptError(message, 'server', server);
  switch (e?.code) {
    case 'ENOENT_CWD':
      return failed(l10n.t('{0} could not start: working directory not found ({1})', server, where));
    case 'ENOENT_ENVFILE':
      return failed(l10n.t('{0} could not start: env file not found ({1})', server, where));
    case 'ENOENT':
      return failed(l10n.t('{0} could not start: command not found ({1})', server, where));
    case 'EACCES':
      return failed(l10n.t('{0} could not start: permission denied ({1})', server, where));
    case 'BATCH_ARGUMENT':
      return failed(
        l10n.t(
          '{0} could not start: argument {1} holds a line break or NUL character, which cmd.exe cannot pass to {2}',
          server,
          Number(e.index),
          where,
        ),
      );
    case 'UNC_CWD':
      return failed(
        l10n.t(
          '{0} could not start: cmd.exe, which runs {1}, cannot work in the network folder {2}; set its "cwd" to a folder on a drive',
          server,
          String(e.program),
          where,
        ),
      );
    default:
      return undefined;
  }
}

/** Anything else: an answer that failed a schema of ours, or the innermost message. */
function otherFailure(err: unknown, server: string, what: string): PromptError {
  const invalid = describeInvalidAnswer(err);
  if (invalid)
    return new PromptError(l10n.t('{0} sent an invalid answer to {1}: {2}', server, what, invalid), 'server', server);
  const message = describeCause(err);
  if (/^not connected$/i.test(message))
    return new PromptError(l10n.t('{0} is not connected', server), 'server', server);
  return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, message), 'server', server);
}

/** HTTP refusals from the SDK's transports (`status` on SdkHttpError, `code` on the legacy SseError) in words a user can act on. */
function httpStatusError(err: unknown, server: string): PromptError | undefined {
  if (err instanceof UnauthorizedError)
    return new PromptError(
      l10n.t('{0} needs authorization (HTTP 401): add a token to its "headers"', server),
      'server',
      server,
      401,
    );
  const message = err instanceof Error ? err.message : '';
  if (err instanceof SdkError && err.code === SdkErrorCode.ClientHttpUnexpectedContent) {
    const type = /^Unexpected content type: (.+)$/.exec(message)?.[1];
    return new PromptError(
      l10n.t('{0} did not answer as an MCP server (it sent {1})', server, type ?? '?'),
      'server',
      server,
    );
  }
  const status = err instanceof SdkHttpError ? err.status : err instanceof SseError ? err.code : undefined;
  if (typeof status !== 'number' || status < 300) return undefined;
  switch (status) {
    case 401:
      return new PromptError(
        l10n.t('{0} needs authorization (HTTP 401): add a token to its "headers"', server),
        'server',
        server,
        status,
      );
    case 403:
      return new PromptError(
        l10n.t('{0} refused access (HTTP 403): check the token in its "headers"', server),
        'server',
        server,
        status,
      );
    case 404:
      return new PromptError(
        l10n.t('{0} has no MCP endpoint at this URL (HTTP 404)', server),
        'server',
        server,
        status,
      );
  }
  // The probe's refusal carries the body separately; the transport's puts it in the message.
  const text = err instanceof SdkHttpError && typeof err.data.text === 'string' ? err.data.text : undefined;
  const body = (
    text ?? message.replace(/^(SSE error: )?(Error POSTing to endpoint: |Non-200 status code )?/, '')
  ).slice(0, 200);
  return new PromptError(l10n.t('{0} answered HTTP {1}: {2}', server, status, body), 'server', server, status);
}

/**
 * The SDK refused an authorization server (mix-up defence): its metadata names another issuer than the
 * address it came from (RFC 8414 §3.3), or the sign-in's answer names another one (RFC 9207). The
 * answer's value is the attacker's: it is not shown.
 */
export function issuerRefusal(err: unknown, server: string): PromptError | undefined {
  if (!(err instanceof IssuerMismatchError)) return undefined;
  const shown = (text: string | undefined) => (text ?? '?').replace(/\p{Cc}/gu, '?').slice(0, 200);
  const expected = shown(err.expected);
  return err.kind === 'metadata'
    ? new PromptError(
        l10n.t(
          '{0}: the sign-in was refused: the metadata of its authorization server {1} names another issuer ({2})',
          server,
          expected,
          shown(err.received),
        ),
        'server',
        server,
      )
    : new PromptError(
        l10n.t('{0}: the sign-in was refused: the answer does not come from {1}', server, expected),
        'server',
        server,
      );
}

/** A result that failed the SDK's schema (a zod error): the first problems, as `path: message`. */
function describeInvalidAnswer(err: unknown): string | undefined {
  const issues = (err as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || !issues.length) return undefined;
  return issues
    .slice(0, 3)
    .map(
      (i: { path?: unknown[]; message?: string }) =>
        `${(i.path ?? []).join('.') || l10n.t('answer')}: ${i.message ?? '?'}`,
    )
    .join('; ');
}

/** The innermost useful message: fetch wraps the socket error in `cause`. */
export function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const inner: NodeJS.ErrnoException | undefined = cause instanceof Error ? cause : undefined;
    const code = inner?.code;
    if (code === 'ECONNREFUSED') return l10n.t('connection refused');
    if (inner && err.message === 'fetch failed') return inner.message;
    return stripMcpPrefix(err.message);
  }
  return String(err);
}

/** The server refused the request's protocol version or its shape (no initialize, unknown envelope). */
export function isProtocolRefusal(err: unknown): boolean {
  if (!(err instanceof ProtocolError)) return false;
  const code = err.code as ProtocolErrorCode;
  return code === ProtocolErrorCode.UnsupportedProtocolVersion || code === ProtocolErrorCode.InvalidRequest;
}

export function isConnectionClosed(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed;
}

/** How a dead HTTP server shows: fetch fails (it never reports a close). */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

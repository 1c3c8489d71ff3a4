// Every failure becomes a PromptError: one sentence a person can act on, naming the server, plus
// whether the user's input was at fault (`input`) or the server was (`server`). The UI and the CLI map
// kinds to presentation (exit code 2 / 1, "Show log" action) in one place each.
import * as l10n from '@vscode/l10n';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

export type ErrorKind = 'input' | 'server' | 'cancelled';

export class PromptError extends Error {
  constructor(message: string, readonly kind: ErrorKind, readonly server?: string, readonly code?: number) {
    super(message);
    this.name = 'PromptError';
  }
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

/** Turns whatever a request threw into a PromptError that names the server. */
export function toPromptError(err: unknown, server: string, what: string, context: ErrorContext = {}): PromptError {
  if (err instanceof PromptError) return err;
  if (context.aborted) return new PromptError(l10n.t('{0}: {1} was cancelled', server, what), 'cancelled', server);
  if (err instanceof McpError) {
    const cause = stripMcpPrefix(err.message) || l10n.t('no details');
    switch (err.code as ErrorCode) {
      case ErrorCode.InvalidParams:
        return new PromptError(l10n.t('{0} rejected {1}: {2}', server, what, cause), 'input', server, err.code);
      case ErrorCode.MethodNotFound:
        return new PromptError(l10n.t('{0} does not support {1}: {2}', server, what, cause), 'server', server, err.code);
      case ErrorCode.RequestTimeout:
        return context.timeoutMs
          ? new PromptError(l10n.t('{0} did not answer {1} within {2} s', server, what, context.timeoutMs / 1000), 'server', server, err.code)
          : new PromptError(l10n.t('{0} did not answer {1} in time', server, what), 'server', server, err.code);
      case ErrorCode.ConnectionClosed:
        return context.closeCause
          ? new PromptError(l10n.t('{0} closed the connection during {1} ({2})', server, what, context.closeCause), 'server', server, err.code)
          : new PromptError(l10n.t('{0} closed the connection during {1}', server, what), 'server', server, err.code);
      case ErrorCode.InternalError:
        return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, cause), 'server', server, err.code);
      default:
        return new PromptError(l10n.t('{0} failed on {1} (error {2}): {3}', server, what, err.code, cause), 'server', server, err.code);
    }
  }
  const http = httpStatusError(err, server);
  if (http) return http;
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'ENOENT_CWD') return new PromptError(l10n.t('{0} could not start: working directory not found ({1})', server, e.path ?? e.message), 'server', server);
  if (e?.code === 'ENOENT_ENVFILE') return new PromptError(l10n.t('{0} could not start: env file not found ({1})', server, e.path ?? e.message), 'server', server);
  if (e?.code === 'ENOENT') return new PromptError(l10n.t('{0} could not start: command not found ({1})', server, e.path ?? e.message), 'server', server);
  if (e?.code === 'EACCES') return new PromptError(l10n.t('{0} could not start: permission denied ({1})', server, e.path ?? e.message), 'server', server);
  const invalid = describeInvalidAnswer(err);
  if (invalid) return new PromptError(l10n.t('{0} sent an invalid answer to {1}: {2}', server, what, invalid), 'server', server);
  const message = describeCause(err);
  if (/^not connected$/i.test(message)) return new PromptError(l10n.t('{0} is not connected', server), 'server', server);
  return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, message), 'server', server);
}

/** HTTP refusals from the SDK's transports (`code` is the status) in words a user can act on. */
function httpStatusError(err: unknown, server: string): PromptError | undefined {
  if (err instanceof UnauthorizedError) return new PromptError(l10n.t('{0} needs authorization (HTTP 401): add a token to its "headers"', server), 'server', server, 401);
  const status = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  if (typeof status !== 'number' || status < 300 || !/^(Streamable HTTP|SSE) error:/.test(message)) {
    const type = /^Streamable HTTP error: Unexpected content type: (.+)$/.exec(message)?.[1];
    return type ? new PromptError(l10n.t('{0} did not answer as an MCP server (it sent {1})', server, type), 'server', server) : undefined;
  }
  switch (status) {
    case 401: return new PromptError(l10n.t('{0} needs authorization (HTTP 401): add a token to its "headers"', server), 'server', server, status);
    case 403: return new PromptError(l10n.t('{0} refused access (HTTP 403): check the token in its "headers"', server), 'server', server, status);
    case 404: return new PromptError(l10n.t('{0} has no MCP endpoint at this URL (HTTP 404)', server), 'server', server, status);
  }
  const body = message.replace(/^(Streamable HTTP|SSE) error: (Error POSTing to endpoint: |Non-200 status code )?/, '').slice(0, 200);
  return new PromptError(l10n.t('{0} answered HTTP {1}: {2}', server, status, body), 'server', server, status);
}

/** A result that failed the SDK's schema (a zod error): the first problems, as `path: message`. */
function describeInvalidAnswer(err: unknown): string | undefined {
  const issues = (err as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || !issues.length) return undefined;
  return issues.slice(0, 3).map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join('.') || l10n.t('answer')}: ${i.message ?? '?'}`).join('; ');
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

// Every failure becomes a PromptError: one sentence a person can act on, naming the server, plus
// whether the user's input was at fault (`input`) or the server was (`server`). The UI and the CLI map
// kinds to presentation (exit code 2 / 1, "Show log" action) in one place each.
import * as l10n from '@vscode/l10n';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

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

/** Turns whatever a request threw into a PromptError that names the server. */
export function toPromptError(err: unknown, server: string, what: string, aborted = false): PromptError {
  if (err instanceof PromptError) return err;
  if (aborted) return new PromptError(l10n.t('{0}: {1} was cancelled', server, what), 'cancelled', server);
  if (err instanceof McpError) {
    const cause = stripMcpPrefix(err.message) || l10n.t('no details');
    switch (err.code) {
      case ErrorCode.InvalidParams:
        return new PromptError(l10n.t('{0} rejected {1}: {2}', server, what, cause), 'input', server, err.code);
      case ErrorCode.MethodNotFound:
        return new PromptError(l10n.t('{0} does not support {1}: {2}', server, what, cause), 'server', server, err.code);
      case ErrorCode.RequestTimeout:
        return new PromptError(l10n.t('{0} did not answer {1} in time', server, what), 'server', server, err.code);
      case ErrorCode.ConnectionClosed:
        return new PromptError(l10n.t('{0} closed the connection during {1}', server, what), 'server', server, err.code);
      case ErrorCode.InternalError:
        return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, cause), 'server', server, err.code);
      default:
        return new PromptError(l10n.t('{0} failed on {1} (error {2}): {3}', server, what, err.code, cause), 'server', server, err.code);
    }
  }
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'ENOENT') return new PromptError(l10n.t('{0} could not start: command not found ({1})', server, e.path ?? e.message), 'server', server);
  if (e?.code === 'EACCES') return new PromptError(l10n.t('{0} could not start: permission denied ({1})', server, e.path ?? e.message), 'server', server);
  const message = describeCause(err);
  if (/^not connected$/i.test(message)) return new PromptError(l10n.t('{0} is not connected', server), 'server', server);
  return new PromptError(l10n.t('{0} failed on {1}: {2}', server, what, message), 'server', server);
}

/** The innermost useful message: fetch wraps the socket error in `cause`. */
export function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const inner = cause instanceof Error ? cause : undefined;
    const code = (inner as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ECONNREFUSED') return l10n.t('connection refused');
    if (inner && err.message === 'fetch failed') return inner.message;
    return stripMcpPrefix(err.message);
  }
  return String(err);
}

// What a failed start or request of one server throws: one message naming the server and the cause —
// the line of its stderr that says why (stderr-cause.ts), the message past the bound that closed the
// connection, the sign-in it asks for — with the values substituted into its definition hidden.
import { UnauthorizedError } from '@modelcontextprotocol/client';
import * as l10n from '@vscode/l10n';
import type { ServerDefinition } from '../../config/config.js';
import { type MessageTooLargeError, PromptError, isConnectionClosed, toPromptError } from '../../errors.js';
import { hideValues } from '../../log.js';
import { StderrTail } from './stderr-cause.js';

export class ServerFailures {
  /** What the server process wrote last on stderr. */
  readonly stderr: StderrTail;
  /** The message past the bound that ended the last start or request: said instead of "closed". */
  oversized?: MessageTooLargeError;

  /** `signInUrl`: where the user signs in while the server waits for that (OAuth). */
  constructor(
    private readonly def: ServerDefinition,
    private readonly signInUrl: () => URL | undefined,
  ) {
    this.stderr = new StderrTail(def.secrets ?? []);
  }

  /** A new start: what explained the last one's end explains nothing now. */
  clear(): void {
    this.stderr.clear();
    this.oversized = undefined;
  }

  /** Stopped by us while it started or answered: the close is ours, not the server's fault. */
  stopped(): PromptError {
    return new PromptError(l10n.t('{0} was stopped', this.def.name), 'cancelled', this.def.name);
  }

  /** The SDK stopped at "the user must sign in" (at initialize, or on a later request the server guards). */
  signInNeeded(err: unknown): PromptError | undefined {
    return err instanceof UnauthorizedError && this.signInUrl()
      ? new PromptError(l10n.t('{0} needs you to sign in', this.def.name), 'server', this.def.name, 401)
      : undefined;
  }

  /** What a start that failed of `err` throws (`timeoutMs`: the bound it waited for). */
  ofStart(err: unknown, timeoutMs: number): PromptError {
    return this.signInNeeded(err) ?? this.ofRequest(err, l10n.t('startup'), { timeoutMs });
  }

  /** What `what` (a request of ours, or the startup) that failed of `err` throws. */
  ofRequest(err: unknown, what: string, context: { aborted?: boolean; timeoutMs: number }): PromptError {
    const cause = isConnectionClosed(err) && this.oversized?.closed ? this.oversized : err;
    return this.hide(toPromptError(cause, this.def.name, what, { ...context, closeCause: this.stderr.cause() }));
  }

  private hide(error: PromptError): PromptError {
    const secrets = this.def.secrets ?? [];
    if (!secrets.some(s => s && error.message.includes(s))) return error;
    return new PromptError(hideValues(error.message, secrets), error.kind, error.server, error.code);
  }
}

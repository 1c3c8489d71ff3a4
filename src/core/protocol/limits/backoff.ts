// When to start a crashed server again: a pure decision over the crash times and the clock (tested
// with an injected clock), and the timer that acts on it for one connection.
import * as l10n from '@vscode/l10n';
import { PromptError } from '../../errors.js';
import type { LogSink } from '../../log.js';

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  maxCrashes: number;
  windowMs: number;
}

/** 1 s doubling to 30 s; a fifth crash within 3 minutes stops the restarts. */
export const DEFAULT_RESTART: RestartPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30000,
  maxCrashes: 5,
  windowMs: 180000,
};

/** `crashes`: the crash times still inside the window, this one included (the caller keeps them). */
export type RestartDecision =
  { kind: 'restart'; delayMs: number; crashes: number[] } | { kind: 'give-up'; crashes: number[] };

/** A crash at `now` after the earlier ones in `crashes`: crashes older than the window are forgotten. */
export function afterCrash(policy: RestartPolicy, crashes: readonly number[], now: number): RestartDecision {
  const recent = [...crashes.filter(t => now - t < policy.windowMs), now];
  if (recent.length >= policy.maxCrashes) return { kind: 'give-up', crashes: recent };
  return {
    kind: 'restart',
    delayMs: Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (recent.length - 1)),
    crashes: recent,
  };
}

/** One connection's crashes: each schedules a restart after its backoff, until too many give up. */
export class CrashRestarts {
  private crashes: number[] = [];
  private timer?: NodeJS.Timeout;
  /** Set after too many crashes: no automatic restart until the user restarts the server. */
  gaveUp?: PromptError;

  /** `policy` undefined: no automatic restarts (the CLI). */
  constructor(
    private readonly server: string,
    private readonly policy: RestartPolicy | undefined,
    private readonly log: LogSink,
  ) {}

  /** A crash now: `restart` runs after the backoff; returns the give-up error when this one is too many. */
  crashed(restart: () => void): PromptError | undefined {
    if (!this.policy) return undefined;
    const decision = afterCrash(this.policy, this.crashes, Date.now());
    this.crashes = decision.crashes;
    if (decision.kind === 'give-up') {
      this.gaveUp = new PromptError(
        l10n.t(
          '{0} crashed {1} times in {2} minutes; it stays stopped until you restart it',
          this.server,
          this.crashes.length,
          Math.round(this.policy.windowMs / 60000),
        ),
        'server',
        this.server,
      );
      return this.gaveUp;
    }
    this.log.info(l10n.t('Restarting {0} in {1} s', this.server, decision.delayMs / 1000));
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, decision.delayMs);
    this.timer.unref?.();
    return undefined;
  }

  /** Cancels a restart that is due. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The user restarts the server: the crash history starts over. */
  reset(): void {
    this.crashes = [];
    this.gaveUp = undefined;
  }
}

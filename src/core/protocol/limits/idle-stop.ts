// When a running server stops for idleness: after the configured time with no request under way and
// nothing holding it (an open argument input, a question waiting for the user).
import * as l10n from '@vscode/l10n';
import type { LogSink } from '../../log.js';

export class IdleStop {
  /** Requests under way and holds: while any, no idle stop. */
  private busy = 0;
  private timer?: NodeJS.Timeout;

  /**
   * @param stopAfterMs read each time the wait starts (0 or none: never), so a changed setting applies
   *   from the next request on
   * @param running the running client, if any: a wait that outlives it does nothing
   * @param stop stops the server (the log says why)
   */
  constructor(
    private readonly stopAfterMs: (() => number) | undefined,
    private readonly running: () => object | undefined,
    private readonly stop: () => void,
    private readonly server: string,
    private readonly log: LogSink,
  ) {}

  /** Keeps the server from an idle stop until the returned function is called; releasing twice releases once. */
  hold(): () => void {
    this.busy++;
    this.cancel();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy--;
      this.arm();
    };
  }

  /** Starts the wait when the server runs and nothing holds it. */
  arm(): void {
    this.cancel();
    const ms = this.stopAfterMs?.() ?? 0;
    const client = this.running();
    if (this.busy > 0 || !client || !(ms > 0)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.busy > 0 || this.running() !== client) return;
      this.log.info(
        l10n.t('{0} had no requests for {1} s: stopped until it is needed again', this.server, Math.round(ms / 1000)),
      );
      this.stop();
    }, ms);
    this.timer.unref?.();
  }

  cancel(): void {
    // Every request holds and releases: most find no wait to cancel.
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

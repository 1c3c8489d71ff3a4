// Server completions while the user types one argument: the empty text is asked at once, other text
// after a quiet spell (debounce); a new request aborts the one in flight; answers are cached per text;
// an aborted request's late answer is cached but never shown (it is for text no longer in the box).
// The quick input wraps this class; the benchmark (bench/typing.mjs) drives the same one.
import type { Completions } from './suggestions.js';

export const COMPLETION_DEBOUNCE_MS = 150;

export interface CompletionSessionOptions {
  /** Asks the server; `signal` aborts when a newer text is asked or the step closes. */
  fetch: (prefix: string, signal: AbortSignal) => Promise<readonly string[]>;
  /** The answer for `prefix` to show now. */
  show: (completions: Completions) => void;
  /** A request is in flight (the quick input's busy bar). */
  busy?: (busy: boolean) => void;
  debounceMs?: number;
}

export interface CompletionStats {
  sent: number;
  cancelled: number;
  inFlight: number;
  maxInFlight: number;
}

export class CompletionSession {
  private readonly cache = new Map<string, readonly string[]>();
  private controller?: AbortController;
  private latestSettled = true;
  private timer?: ReturnType<typeof setTimeout>;
  /** The last answer shown, and the text it was for. */
  current: Completions = { prefix: '', values: [] };
  readonly stats: CompletionStats = { sent: 0, cancelled: 0, inFlight: 0, maxInFlight: 0 };

  constructor(private readonly options: CompletionSessionOptions) {}

  /** The text in the box changed (or the step opened). */
  request(prefix: string): void {
    clearTimeout(this.timer);
    const cached = this.cache.get(prefix);
    if (cached) {
      this.current = { prefix, values: cached };
      this.options.show(this.current);
      return;
    }
    this.timer = setTimeout(
      () => this.send(prefix),
      prefix === '' ? 0 : (this.options.debounceMs ?? COMPLETION_DEBOUNCE_MS),
    );
  }

  private send(prefix: string): void {
    this.abort();
    const mine = (this.controller = new AbortController());
    this.latestSettled = false;
    this.stats.sent++;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, ++this.stats.inFlight);
    this.options.busy?.(true);
    this.options
      .fetch(prefix, mine.signal)
      .then(
        values => {
          this.cache.set(prefix, values);
          if (mine.signal.aborted) return;
          this.current = { prefix, values };
          this.options.show(this.current);
        },
        () => undefined,
      )
      .finally(() => {
        this.stats.inFlight--;
        if (this.controller === mine) {
          this.latestSettled = true;
          this.options.busy?.(false);
        }
      });
  }

  private abort(): void {
    if (this.controller && !this.latestSettled) this.stats.cancelled++;
    this.controller?.abort();
  }

  /** The step closed: nothing more is asked or shown. */
  dispose(): void {
    clearTimeout(this.timer);
    this.abort();
  }
}

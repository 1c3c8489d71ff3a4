// Server completions while the user types one argument. The empty text is asked at once, other text
// after a short quiet spell; at most one request is out at a time, so a server is never asked twice at
// once for one argument: text typed meanwhile waits, and only the latest is sent when the answer comes.
// Answers are cached per text; an answer for text the box no longer holds is shown only when it still
// narrows to what is typed (its text is a prefix of it). The quick input wraps this class; the
// benchmark (bench/typing.mjs) drives the same one.
import type { Completions } from './suggestions.js';

/**
 * Quiet time before a typed text is asked: short enough that the last keystroke waits less than
 * 100 ms for its request (VS Code's own argument input waits 200 ms), long enough that a burst of
 * keystrokes is one request. The list is narrowed locally on every keystroke meanwhile.
 */
export const COMPLETION_DEBOUNCE_MS = 75;

export interface CompletionSessionOptions {
  /** Asks the server; `signal` aborts when the step closes. */
  fetch: (prefix: string, signal: AbortSignal) => Promise<readonly string[]>;
  /** The answer to show now (narrowed to the typed text by the caller). */
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
  private timer?: ReturnType<typeof setTimeout>;
  /** The text in the box. */
  private wanted = '';
  private closed = false;
  /** The last answer shown, and the text it was for. */
  current: Completions = { prefix: '', values: [] };
  readonly stats: CompletionStats = { sent: 0, cancelled: 0, inFlight: 0, maxInFlight: 0 };

  constructor(private readonly options: CompletionSessionOptions) {}

  /** The text in the box changed (or the step opened). */
  request(prefix: string): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.wanted = prefix;
    const cached = this.cache.get(prefix);
    if (cached) {
      this.display(prefix, cached);
      return;
    }
    const wait = prefix === '' ? 0 : (this.options.debounceMs ?? COMPLETION_DEBOUNCE_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendWanted();
    }, wait);
  }

  /** Asks for the text in the box, unless a request is out (its answer sends it) or it is known. */
  private sendWanted(): void {
    if (this.closed || this.controller || this.cache.has(this.wanted)) return;
    const prefix = this.wanted;
    const mine = (this.controller = new AbortController());
    this.stats.sent++;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, ++this.stats.inFlight);
    this.options.busy?.(true);
    this.options
      .fetch(prefix, mine.signal)
      .then(
        values => {
          this.cache.set(prefix, values);
          if (!mine.signal.aborted && this.worthShowing(prefix)) this.display(prefix, values);
        },
        () => undefined,
      )
      .finally(() => {
        this.stats.inFlight--;
        this.controller = undefined;
        if (this.closed) return;
        this.options.busy?.(false);
        // Typed while it was out, and quiet since: the latest text goes now.
        if (!this.timer) this.sendWanted();
      });
  }

  /**
   * An answer is shown when it is for the text in the box, or for an earlier text that narrows to it
   * better than the list shown (whose text is not the box's and is no longer a prefix of it).
   */
  private worthShowing(prefix: string): boolean {
    const shown = this.current.prefix;
    if (prefix === this.wanted) return true;
    if (!this.wanted.startsWith(prefix) || shown === this.wanted) return false;
    return !this.wanted.startsWith(shown) || prefix.length >= shown.length;
  }

  private display(prefix: string, values: readonly string[]): void {
    this.current = { prefix, values };
    this.options.show(this.current);
  }

  /** The step closed: nothing more is asked or shown; the request out is cancelled. */
  dispose(): void {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.controller) {
      this.stats.cancelled++;
      this.controller.abort();
    }
  }
}

// Our requests under way on one connection: which run each belongs to (a question names it), who
// started it (only a person's request may show a question), and its timeout, which is ours rather
// than the SDK's so that it can stop while a question waits for the user. The connection sends every
// request of ours through run(); the SDK's own (initialize, server/discover, subscriptions/listen)
// never pass here, so a question during them finds no request and is cancelled.
import * as l10n from '@vscode/l10n';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { inert } from './elicitation.js';

/** The SDK's own timeout for a tracked request: ours decides (2^31 - 1 ms, the longest a timer takes). */
export const NEVER = 2 ** 31 - 1;

/**
 * Why a question during the request may not be shown: `input` (typed in the chat input, where a quick
 * input would take the keyboard), `background` (no person started it: a listing on startup or after
 * list_changed).
 */
export type Quiet = 'input' | 'background';

export interface RequestInfo {
  method: string;
  params?: Record<string, unknown>;
  timeoutMs: number;
  signal?: AbortSignal;
  quiet?: Quiet;
}

/**
 * One timer for the timeouts of every request of a connection: armed for the earliest deadline, and
 * left armed when that request ends first (the usual case), so a request starts no timer of its own.
 * When it fires, what is due times out and it is armed again for the next deadline.
 */
class Deadlines {
  private timer?: NodeJS.Timeout;
  private at = Infinity;

  constructor(private readonly running: () => Iterable<TrackedRequest>) {}

  watch(deadline: number): void {
    if (deadline >= this.at) return;
    clearTimeout(this.timer);
    this.at = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(0, deadline - performance.now()));
    // A request under way keeps the process alive by its connection; this timer alone must not.
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    this.at = Infinity;
    const now = performance.now();
    for (const r of this.running()) {
      const next = r.expireIfDue(now);
      if (next !== undefined) this.watch(next);
    }
  }
}

type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

/**
 * The signal a tracked request hands the SDK: what the SDK reads of an AbortSignal (`aborted`, `reason`,
 * its one abort listener, added and removed per request) without an EventTarget. A real AbortSignal
 * with its listener cost a request about 12 µs of CPU, a third of what our bookkeeping of a
 * `prompts/get` adds to the SDK's; this is one small object. Handed only to the SDK's request, which
 * uses no more of it (checked by the cancellation and timeout tests).
 */
export class RequestSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  private listeners?: AbortListener[];

  addEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || !listener) return;
    if (this.aborted) return;
    (this.listeners ??= []).push(listener);
  }
  removeEventListener(type: string, listener: AbortListener | null): void {
    const i = type === 'abort' && listener ? (this.listeners?.indexOf(listener) ?? -1) : -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  /** Aborts once: every listener hears of it once (as `{ once: true }` listeners of an AbortSignal do). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    const event = { type: 'abort', target: this } as unknown as Event;
    this.onabort?.(event);
    for (const l of listeners) {
      if (typeof l === 'function') l.call(this, event);
      else l.handleEvent(event);
    }
  }
}

/**
 * One request under way: its signal aborts on the caller's cancel or on its own timeout. The caller's
 * signal is heard by one listener: a request costs no more than the SDK's own.
 */
export class TrackedRequest {
  /** Questions the server asked during it. */
  questions = 0;
  /** Why it was ended from outside (a message of the server's past the bound): what it throws. */
  failure?: Error;
  /** When it times out (performance.now()); undefined while a question holds the timeout. */
  private due?: number;
  private ended = false;
  private readonly onCallerAbort?: () => void;
  private readonly own = new RequestSignal();

  constructor(
    private readonly info: RequestInfo,
    private readonly deadlines: Deadlines,
  ) {
    const caller = info.signal;
    if (!caller) return;
    if (caller.aborted) this.own.abort(caller.reason);
    else {
      this.onCallerAbort = () => this.own.abort(caller.reason);
      caller.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /** Aborts on the caller's cancel, on the timeout, or when failed from outside. */
  get signal(): AbortSignal {
    return this.own as unknown as AbortSignal;
  }
  get quiet(): Quiet | undefined {
    return this.info.quiet;
  }
  /** The caller's own signal (not the timeout): aborted when the person cancelled. */
  get callerSignal(): AbortSignal | undefined {
    return this.info.signal;
  }
  /** `prompt "review"`: what a question during it names. Built from server-given names, so made inert. */
  describe(): string {
    return describeRequest(this.info.method, this.info.params);
  }

  /** Stops the timeout (a question waits for the user). */
  pause(): void {
    this.due = undefined;
  }
  /** Starts the timeout again, in full. */
  resume(): void {
    this.due = performance.now() + this.info.timeoutMs;
    this.deadlines.watch(this.due);
  }
  /** Times it out if its deadline has come; else its deadline (undefined while the timeout is held). */
  expireIfDue(now: number): number | undefined {
    if (this.due === undefined || this.due > now) return this.due;
    this.due = undefined;
    const timeout = this.info.timeoutMs;
    this.own.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout }));
    return undefined;
  }
  /** Ends it now with `error`, whatever the server answers later. */
  fail(error: Error): void {
    if (this.ended) return;
    this.failure ??= error;
    this.own.abort(error);
  }
  /** Ends it: its timeout stops, and the caller's signal is no longer listened to. */
  end(): void {
    this.pause();
    this.ended = true;
    if (this.onCallerAbort) this.info.signal?.removeEventListener('abort', this.onCallerAbort);
  }
}

export class RequestTracker {
  private readonly running = new Set<TrackedRequest>();
  /** Questions open now: while any, no timeout runs. */
  private open = 0;
  /** Made when someone asks for allEnded (a question): most requests end with no one waiting for that. */
  private ended?: AbortController;
  private readonly deadlines = new Deadlines(() => this.running);

  /** Runs `send` as a tracked request: its timeout starts now (or once no question is open). */
  run<T>(info: RequestInfo, send: (request: TrackedRequest) => Promise<T>): Promise<T> {
    const request = new TrackedRequest(info, this.deadlines);
    this.running.add(request);
    if (!this.open) request.resume();
    let sent: Promise<T>;
    try {
      sent = send(request);
    } catch (err) {
      sent = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    // No async frame of its own: this runs for every request (every page of a listing).
    return sent.then(
      answer => {
        this.finish(request);
        return answer;
      },
      (err: unknown) => {
        this.finish(request);
        throw request.failure ?? err;
      },
    );
  }

  private finish(request: TrackedRequest): void {
    request.end();
    this.running.delete(request);
    // The last request ended: questions still open belong to nothing any more.
    if (!this.running.size && this.ended) {
      this.ended.abort();
      this.ended = undefined;
    }
  }

  /** Ends every request under way with `error` (a message of the server's past the bound). */
  failAll(error: Error): void {
    for (const r of this.running) r.fail(error);
  }

  /** The requests under way now. */
  current(): TrackedRequest[] {
    return [...this.running];
  }

  /** Aborted when the requests under way now have all ended. */
  get allEnded(): AbortSignal {
    return (this.ended ??= new AbortController()).signal;
  }

  /** Runs `ask` (a question to the user) with every request's timeout stopped meanwhile. */
  async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    this.open++;
    for (const r of this.running) r.pause();
    try {
      return await ask();
    } finally {
      this.open--;
      if (!this.open) for (const r of this.running) r.resume();
    }
  }
}

/** What a question during `method` names: `prompt "review"`, `completion of "color"`, `listing prompts`. */
export function describeRequest(method: string, params: Record<string, unknown> = {}): string {
  const shown = (v: unknown) => inert(typeof v === 'string' ? v : '');
  if (method === 'prompts/get') return l10n.t('prompt "{0}"', shown(params.name));
  if (method === 'completion/complete')
    return l10n.t('completion of "{0}"', shown((params.argument as { name?: unknown } | undefined)?.name));
  if (method === 'prompts/list') return l10n.t('listing prompts');
  return method;
}

/** Aborts when any of `signals` does: AbortSignal.any, with listeners we remove ourselves. */
export function anySignal(signals: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = (e: Event) => {
    const reason: unknown = (e.target as AbortSignal).reason;
    controller.abort(reason);
  };
  for (const s of signals) {
    if (s.aborted) {
      const reason: unknown = s.reason;
      controller.abort(reason);
      break;
    }
    s.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of signals) s.removeEventListener('abort', abort);
    },
  };
}

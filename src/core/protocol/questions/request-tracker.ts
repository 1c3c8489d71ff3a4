// Our requests under way on one connection: which run each belongs to (a question names it), who
// started it (only a person's request may show a question), and its timeout, which is ours rather
// than the SDK's so that it can stop while a question waits for the user. The connection sends every
// request of ours through run(); the SDK's own (initialize, server/discover, subscriptions/listen)
// never pass here, so a question during them finds no request and is cancelled.
import { getEventListeners } from 'node:events';
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

/** Controllers a connection keeps for its next requests (see RequestTracker.spare). */
const MAX_SPARE_CONTROLLERS = 8;

/**
 * One request under way: its signal aborts on the caller's cancel or on its own timeout. One
 * controller per request (the spare one of a request that ended cleanly, when there is one), and the
 * caller's signal heard by one listener: a request costs no more than the SDK's own.
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

  constructor(
    private readonly info: RequestInfo,
    private readonly deadlines: Deadlines,
    private readonly controller = new AbortController(),
  ) {
    const caller = info.signal;
    if (!caller) return;
    if (caller.aborted) this.controller.abort(caller.reason);
    else {
      this.onCallerAbort = () => this.controller.abort(caller.reason);
      caller.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /** Aborts on the caller's cancel, on the timeout, or when failed from outside. */
  get signal(): AbortSignal {
    return this.controller.signal;
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
    this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout }));
    return undefined;
  }
  /** Ends it now with `error`, whatever the server answers later. */
  fail(error: Error): void {
    // Ended: its controller may be another request's now.
    if (this.ended) return;
    this.failure ??= error;
    this.controller.abort(error);
  }
  /** Ends it; returns its controller when another request may take it: not aborted, and no one listens to it any more. */
  end(): AbortController | undefined {
    this.pause();
    this.ended = true;
    if (this.onCallerAbort) this.info.signal?.removeEventListener('abort', this.onCallerAbort);
    const signal = this.controller.signal;
    return signal.aborted || getEventListeners(signal, 'abort').length ? undefined : this.controller;
  }
}

export class RequestTracker {
  private readonly running = new Set<TrackedRequest>();
  /** Questions open now: while any, no timeout runs. */
  private open = 0;
  /** Made when someone asks for allEnded (a question): most requests end with no one waiting for that. */
  private ended?: AbortController;
  private readonly deadlines = new Deadlines(() => this.running);
  /**
   * Controllers of ended requests, for the next ones: a fresh AbortSignal, with the SDK's handling of
   * it, cost a request more than the rest of its bookkeeping (a listing asks for each page).
   */
  private readonly spare: AbortController[] = [];

  /** Runs `send` as a tracked request: its timeout starts now (or once no question is open). */
  async run<T>(info: RequestInfo, send: (request: TrackedRequest) => Promise<T>): Promise<T> {
    const request = new TrackedRequest(info, this.deadlines, this.spare.pop());
    this.running.add(request);
    if (!this.open) request.resume();
    try {
      return await send(request);
    } catch (err) {
      throw request.failure ?? err;
    } finally {
      const reusable = request.end();
      if (reusable && this.spare.length < MAX_SPARE_CONTROLLERS) this.spare.push(reusable);
      this.running.delete(request);
      // The last request ended: questions still open belong to nothing any more.
      if (!this.running.size && this.ended) {
        this.ended.abort();
        this.ended = undefined;
      }
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

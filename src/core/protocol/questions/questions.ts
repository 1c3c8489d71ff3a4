// Asking the user a server's questions: the `elicitation/create` handler the connection registers on
// each client (the SDK sends a 2026-07-28 `input_required` result's questions there too), and the
// -32042 URL-required answer to one of our requests. A question is shown only during a request a
// person started, one at a time, a few per request; the rest are cancelled at once so that nothing
// waits. What a question is and how answers are checked is elicitation.ts's.
import * as l10n from '@vscode/l10n';
import { Client, ProtocolErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import * as z from 'zod/v4';
import type { LogSink } from '../../log.js';
import { lazy } from '../../lazy.js';
import { PromptError } from '../../errors.js';
import {
  type Asker,
  type FieldValue,
  type QuestionAnswer,
  type UrlQuestion,
  checkAnswers,
  checkUrl,
  describeAnswer,
  toQuestion,
} from './elicitation.js';
import { type RequestTracker, type TrackedRequest, anySignal } from './request-tracker.js';

/** Questions one request may ask; later ones are cancelled without asking the user. */
export const MAX_QUESTIONS_PER_REQUEST = 10;
/** Questions one server may ask in a minute, across requests: more are cancelled without asking. */
export const MAX_QUESTIONS_PER_MINUTE = 20;
const MINUTE_MS = 60000;

export type QuestionResult = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, FieldValue> };

const elicitParams = lazy(() => z.looseObject({}));

/** One server's questions: answered through `asker` (none: every question is cancelled). */
export class ServerQuestions {
  /** A -32042 page the user is on, by elicitationId: the server may say when it is finished there. */
  private readonly finishing = new Map<string, () => void>();
  /** When the questions of the last minute were asked. */
  private asked: number[] = [];

  private readonly asker?: Asker;

  /** `hold` keeps the server from an idle stop while a question waits (it may come outside any request of ours). */
  constructor(
    private readonly server: string,
    asker: Asker | undefined,
    private readonly tracker: RequestTracker,
    private readonly log: LogSink,
    hold: () => () => void,
  ) {
    this.asker =
      asker &&
      (async question => {
        const release = hold();
        try {
          return await asker(question);
        } finally {
          release();
        }
      });
  }

  /**
   * Registers the handlers on a client, before its connect. `hide` receives the values of password-like
   * answers (the JSON-RPC trace leaves them out).
   */
  attach(client: Client, hide: (value: string) => void): void {
    client.setNotificationHandler('notifications/elicitation/complete', n => {
      const id = n.params.elicitationId;
      this.finishing.get(id)?.();
      this.finishing.delete(id);
    });
    client.setRequestHandler('elicitation/create', { params: elicitParams() }, (params, ctx) =>
      this.onQuestion(params, ctx.mcpReq.signal, hide, client.getProtocolEra() === 'modern'),
    );
  }

  /** A question the server pushed (or put in an input_required result): shown if a request of a person's is running. */
  private async onQuestion(
    params: Record<string, unknown>,
    withdrawnBy: AbortSignal,
    hide: (value: string) => void,
    modern: boolean,
  ): Promise<QuestionResult> {
    const during = this.tracker.current();
    const asking = during.filter(r => !r.quiet);
    const refusal = this.refusal(during, asking);
    if (refusal) {
      this.log.warn(refusal);
      return { action: 'cancel' };
    }
    const what = describeAll(asking);
    const withdrawn = anySignal([withdrawnBy, this.tracker.allEnded]);
    try {
      return await this.tracker.whileAsking(() =>
        answerQuestion(this.server, what, params, this.asker, withdrawn.signal, this.log, hide, modern),
      );
    } finally {
      withdrawn.dispose();
    }
  }

  /**
   * Why a question asked during `during` is cancelled without asking: no request of ours runs, none of
   * them may show a question (`asking` holds those that may), too many questions. Counts it against
   * each request that may ask, and against the minute.
   */
  private refusal(during: TrackedRequest[], asking: TrackedRequest[]): string | undefined {
    if (!during.length)
      return l10n.t('{0} asked a question while no request of ours was running: cancelled', this.server);
    if (!asking.length) return quietRefusal(this.server, during);
    for (const r of asking) r.questions++;
    if (asking.some(r => r.questions > MAX_QUESTIONS_PER_REQUEST))
      return l10n.t(
        '{0} asked more than {1} questions during {2}: cancelled without asking',
        this.server,
        MAX_QUESTIONS_PER_REQUEST,
        describeAll(asking),
      );
    return this.tooOften();
  }

  /** Counts one question against the minute; why it is not asked once the server asked too many. */
  private tooOften(): string | undefined {
    const now = Date.now();
    this.asked = this.asked.filter(t => now - t < MINUTE_MS);
    if (this.asked.length >= MAX_QUESTIONS_PER_MINUTE)
      return l10n.t(
        '{0} asked more than {1} questions in a minute: cancelled without asking',
        this.server,
        MAX_QUESTIONS_PER_MINUTE,
      );
    this.asked.push(now);
    return undefined;
  }

  /**
   * `send` answered -32042 (the server needs the user on a page first): the page is asked like any URL
   * question, and once the user finished there `send` runs once more. The request's timeout waits meanwhile.
   */
  retryAfterPage<T>(request: TrackedRequest, send: () => Promise<T>): Promise<T> {
    // No async frame for the usual answer: this runs for every request (every page of a listing).
    return send().catch((err: unknown) => {
      if (!(err instanceof UrlElicitationRequiredError)) throw err;
      return this.afterPage(err, request, send);
    });
  }

  private async afterPage<T>(
    err: UrlElicitationRequiredError,
    request: TrackedRequest,
    send: () => Promise<T>,
  ): Promise<T> {
    request.pause();
    await this.askRequired(err, request);
    request.resume();
    try {
      return await send();
    } catch (again) {
      if (!(again instanceof UrlElicitationRequiredError)) throw again;
      throw new PromptError(
        l10n.t(
          '{0} still needs you to finish on {1} before {2} (asked again after you opened it)',
          this.server,
          hostsOf(again),
          request.describe(),
        ),
        'server',
        this.server,
        again.code,
      );
    }
  }

  /** The URL questions of a -32042 error, one after the other; returns when the user finished every page, throws otherwise. */
  private async askRequired(err: UrlElicitationRequiredError, request: TrackedRequest): Promise<void> {
    const during = request.describe();
    const list = err.elicitations.slice(0, MAX_QUESTIONS_PER_REQUEST);
    if (!list.length) throw err;
    const cancelled = () =>
      new PromptError(l10n.t('{0}: {1} was cancelled', this.server, during), 'cancelled', this.server);
    if (request.quiet) {
      this.log.warn(quietRefusal(this.server, [request]));
      throw cancelled();
    }
    for (const params of list) {
      const often = this.tooOften();
      if (often) {
        this.log.warn(often);
        throw cancelled();
      }
      const question = this.pageQuestion(err, params, request);
      const answer = await this.askPage(question, request.callerSignal);
      this.log.info(l10n.t('{0} (during {1})', describeAnswer(question, answer), during));
      if (answer.action === 'decline')
        throw new PromptError(
          l10n.t('{0} needs you to open a page on {1} before {2}; you declined', this.server, question.host, during),
          'input',
          this.server,
        );
      if (answer.action === 'cancel') throw cancelled();
    }
  }

  /** One page of a -32042 error as a URL question; a page we refuse ends the request with why. */
  private pageQuestion(
    err: UrlElicitationRequiredError,
    params: Record<string, unknown>,
    request: TrackedRequest,
  ): UrlQuestion {
    const signal = request.callerSignal ?? new AbortController().signal;
    const question = toQuestion(this.server, request.describe(), params, signal, false);
    if ('ok' in question && question.ok.mode === 'url') return question.ok;
    const problem =
      'problem' in question
        ? question.problem
        : l10n.t('{0} asked a URL question without a message, url or elicitationId', this.server);
    this.log.warn(problem);
    throw new PromptError(problem, 'server', this.server, err.code);
  }

  /** Asks one page; `finished` resolves when the server says the user is done there. */
  private async askPage(question: UrlQuestion, signal: AbortSignal | undefined): Promise<QuestionAnswer> {
    const id = question.elicitationId;
    question.finished = new Promise<void>(resolve => {
      if (id !== undefined) this.finishing.set(id, resolve);
    });
    let answer: QuestionAnswer;
    try {
      if (!this.asker) {
        this.log.warn(l10n.t('{0} asked a question, and nothing here can answer it: cancelled', this.server));
        answer = { action: 'cancel' };
      } else {
        const asker = this.asker;
        answer = await this.tracker.whileAsking(() => asker(question));
      }
    } finally {
      if (id !== undefined) this.finishing.delete(id);
    }
    return signal?.aborted ? { action: 'cancel' } : answer;
  }
}

/**
 * Answers one question as the server sent it (`elicitation/create` params; a 2026 `input_required`
 * input request has the same shape) through `asker`: the result to send back. Throws an error with
 * code -32602 for a question that cannot be asked (bad schema, too many fields, unsafe URL).
 * `hide` receives the values of password-like fields before they are sent. `modern`: the connection speaks
 * 2026-07-28, where a URL question has no elicitationId.
 */
export async function answerQuestion(
  server: string,
  during: string,
  params: Record<string, unknown>,
  asker: Asker | undefined,
  signal: AbortSignal,
  log: LogSink,
  hide?: (value: string) => void,
  modern = false,
): Promise<QuestionResult> {
  const question = toQuestion(server, during, params, signal, modern);
  if ('problem' in question) {
    log.warn(question.problem);
    // A plain error with the code: the server sees our message as it is.
    throw Object.assign(new Error(question.problem), { code: ProtocolErrorCode.InvalidParams });
  }
  if (!asker) {
    log.warn(l10n.t('{0} asked a question, and nothing here can answer it: cancelled', server));
    return { action: 'cancel' };
  }
  const answer = await asker(question.ok);
  let result: QuestionResult = { action: signal.aborted ? 'cancel' : answer.action };
  if (result.action === 'accept' && answer.action === 'accept' && question.ok.mode === 'form') {
    const checked = checkAnswers(question.ok.fields, answer.values ?? {});
    if ('problem' in checked) {
      log.warn(l10n.t('{0}: the answer was not sent: {1}', server, checked.problem));
      result = { action: 'cancel' };
    } else {
      result = { action: 'accept', content: checked.ok };
      for (const f of question.ok.fields)
        if (f.secret && typeof checked.ok[f.name] === 'string') hide?.(checked.ok[f.name] as string);
    }
  }
  const shown: QuestionAnswer =
    result.action === 'accept' ? { action: 'accept', values: result.content } : { action: result.action };
  log.info(l10n.t('{0} (during {1})', describeAnswer(question.ok, shown), during));
  return result;
}

/**
 * A Client whose `elicitation/create` handler sees the server's params as sent. The SDK's Client checks
 * them against the spec's schema first, whatever the registration, and refuses what we can ask
 * (`format: password`) or explain better (too many fields, naming the field): our parser decides.
 * The same handler answers a 2026-07-28 `input_required` result's questions (the SDK dispatches them here).
 */
export function createQuestionClient(...args: ConstructorParameters<typeof Client>): Client {
  // Defined on first use, not at load: in the extension the SDK is a second bundle loaded with the first connection.
  questionClient ??= class QuestionClient extends Client {
    protected override _wrapHandler(...a: Parameters<Client['_wrapHandler']>): ReturnType<Client['_wrapHandler']> {
      return a[0] === 'elicitation/create' ? a[1] : super._wrapHandler(...a);
    }
  };
  return new questionClient(...args);
}
let questionClient: typeof Client | undefined;

/**
 * One question at a time for the whole window: a second one, while the first is open, is cancelled
 * at once (the server learns it and nothing waits); queueing would let a server pile up dialogs.
 */
export function oneAtATime(asker: Asker, log?: (line: string) => void): Asker {
  let busy = false;
  return async question => {
    if (busy) {
      log?.(l10n.t('{0} asked a question while another is open: cancelled', question.server));
      return { action: 'cancel' };
    }
    if (question.signal.aborted) return { action: 'cancel' };
    busy = true;
    try {
      return await asker(question);
    } finally {
      busy = false;
    }
  };
}

function describeAll(requests: TrackedRequest[]): string {
  return requests.map(r => r.describe()).join(', ');
}

/** Why a question during requests none of which may show one is cancelled: typed in the chat input, or started by nobody. */
function quietRefusal(server: string, during: TrackedRequest[]): string {
  const input = during.filter(r => r.quiet === 'input');
  if (!input.length)
    return l10n.t(
      '{0} asked a question during {1}, which nothing you did started: cancelled',
      server,
      describeAll(during),
    );
  return l10n.t(
    '{0} asked a question during {1} in the chat input: cancelled, as a question there would take the keyboard from what you type',
    server,
    describeAll(input),
  );
}

/** The hosts a -32042 error names, for a message. */
function hostsOf(err: UrlElicitationRequiredError): string {
  const hosts = err.elicitations.map(e => {
    const checked = typeof e.url === 'string' ? checkUrl('', e.url) : undefined;
    return checked && 'ok' in checked ? checked.ok.host : '?';
  });
  return [...new Set(hosts)].join(', ');
}

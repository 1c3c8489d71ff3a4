// One get of a prompt on behalf of the gateway's client, across the rounds a server's questions take. A
// server asks in the middle of our request to it (elicitation, or a 2026-07-28 `input_required`): the
// question reaches the gateway's Asker (core/protocol/questions/questions.ts has checked it and made its text inert),
// which hands it to the get under way on that server. The gateway's handler then answers its own client
// with `input_required` carrying the question (the SDK's server asks a 2025-era client with
// `elicitation/create` itself and comes back), keeps the get running, and continues it when the client
// sends the answer back with the request's `requestState` — a random id naming the waiting get, nothing
// more. A client that declares no way to answer gets an error naming the server and the question.
import { randomUUID } from 'node:crypto';
import {
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Asker, FieldValue, Question, QuestionAnswer } from '../core/protocol/questions/elicitation.js';
import type { Prepared, PromptRunner, RunOutcome } from '../core/run/prompt-runner.js';
import { questionSchema } from './question-schema.js';

/** Gets waiting for their client's answer at once; one more is refused (each holds a server's request open). */
const MAX_WAITING = 16;
/** How long a get waits for its client to come back with an answer (a person answers: as the SDK's own round timeout). */
export const ANSWER_WAIT_MS = 10 * 60_000;
/** The key of the one question each round carries. */
const KEY = 'question';

export type Round =
  | { kind: 'done'; outcome: RunOutcome }
  | { kind: 'ask'; result: InputRequiredResult }
  /** The question cannot reach the person (no capability, too many waiting, the wait expired). */
  | { kind: 'refused'; message: string };

/** A server's question to a get, and how to answer it. */
interface Asked {
  question: Question;
  answer: (a: QuestionAnswer) => void;
}

class GatewayGet {
  readonly id = randomUUID();
  readonly abort = new AbortController();
  readonly outcome: Promise<RunOutcome>;
  asked?: Asked;
  /** The round waiting for what comes next, or the question that came while none waited. */
  private wake?: (asked: Asked) => void;
  private unheard?: Asked;
  timer?: NodeJS.Timeout;

  constructor(
    readonly server: string,
    run: (signal: AbortSignal) => Promise<RunOutcome>,
  ) {
    this.outcome = run(this.abort.signal);
  }

  /** The server's question: told to the round that waits, answered when the client answers. */
  ask(question: Question): Promise<QuestionAnswer> {
    return new Promise(resolve => {
      const asked = { question, answer: resolve };
      this.asked = asked;
      question.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
      if (this.wake) this.wake(asked);
      else this.unheard = asked;
      this.wake = undefined;
    });
  }

  /** The outcome, or the next question, whichever comes first. */
  next(): Promise<{ outcome: RunOutcome } | { asked: Asked }> {
    const unheard = this.unheard;
    this.unheard = undefined;
    if (unheard) return Promise.resolve({ asked: unheard });
    return Promise.race([
      this.outcome.then(outcome => ({ outcome })),
      new Promise<{ asked: Asked }>(resolve => {
        this.wake = asked => resolve({ asked });
      }),
    ]);
  }

  /** Answers the question it waits on (if any) and ends the get. */
  end(): void {
    clearTimeout(this.timer);
    this.asked?.answer({ action: 'cancel' });
    this.asked = undefined;
    this.abort.abort();
  }
}

export class GatewayRuns {
  /** Gets under way, by the name of their server: where that server's questions go. */
  private readonly running = new Map<string, GatewayGet[]>();
  /** Gets waiting for their client's answer, by the requestState their question went out with. */
  private readonly waiting = new Map<string, GatewayGet>();

  constructor(private readonly runner: PromptRunner) {}

  /** For the catalog's connections: a server's question goes to the oldest get on it that is not asking already. */
  readonly ask: Asker = async question => {
    const get = this.running.get(question.server)?.find(g => !g.asked);
    return get ? get.ask(question) : { action: 'cancel' };
  };

  /** Starts the get; the first round ends with its outcome or a question for the client. */
  start(prepared: Prepared, ctx: ServerContext, capabilities: ClientCapabilities | undefined): Promise<Round> {
    const server = prepared.prompt.server.def.name;
    const get = new GatewayGet(server, signal => this.runner.get(prepared, { signal }));
    const list = this.running.get(server) ?? [];
    list.push(get);
    this.running.set(server, list);
    void get.outcome.finally(() => this.forget(get));
    return this.round(get, ctx, capabilities);
  }

  /** The round of a retried request: its get, given the client's answer; undefined when it carries no state of ours. */
  resume(ctx: ServerContext, capabilities: ClientCapabilities | undefined): Promise<Round> | undefined {
    const state = ctx.mcpReq.requestState();
    if (typeof state !== 'string') return undefined;
    const get = this.waiting.get(state);
    if (!get?.asked)
      return Promise.resolve({
        kind: 'refused',
        message: 'This answer came too late: the question it answers is no longer open. Ask for the prompt again.',
      });
    this.waiting.delete(state);
    clearTimeout(get.timer);
    const { answer } = get.asked;
    get.asked = undefined;
    answer(answerOf(ctx.mcpReq.inputResponses));
    return this.round(get, ctx, capabilities);
  }

  private async round(
    get: GatewayGet,
    ctx: ServerContext,
    capabilities: ClientCapabilities | undefined,
  ): Promise<Round> {
    // The client gave up on this round: the get ends with it.
    const cancelled = () => get.end();
    ctx.mcpReq.signal.addEventListener('abort', cancelled, { once: true });
    try {
      const next = await get.next();
      if ('outcome' in next) return { kind: 'done', outcome: next.outcome };
      return this.passOn(get, next.asked.question, capabilities);
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', cancelled);
    }
  }

  /** The question as this round's answer, or why it cannot be passed on (the get then ends). */
  private passOn(get: GatewayGet, question: Question, capabilities: ClientCapabilities | undefined): Round {
    const refusal = !canAnswer(capabilities, question)
      ? `your MCP client cannot answer a server's questions (it declares no ${question.mode === 'url' ? 'URL ' : ''}elicitation capability)`
      : this.waiting.size >= MAX_WAITING
        ? `${MAX_WAITING} questions already wait for an answer`
        : undefined;
    if (refusal) {
      get.end();
      return { kind: 'refused', message: `${describe(question)}, and ${refusal}: the prompt was not run.` };
    }
    this.waiting.set(get.id, get);
    get.timer = setTimeout(() => {
      this.waiting.delete(get.id);
      get.end();
    }, ANSWER_WAIT_MS);
    get.timer.unref?.();
    return {
      kind: 'ask',
      result: inputRequired({ inputRequests: { [KEY]: request(question) }, requestState: get.id }),
    };
  }

  private forget(get: GatewayGet): void {
    clearTimeout(get.timer);
    this.waiting.delete(get.id);
    const list = (this.running.get(get.server) ?? []).filter(g => g !== get);
    if (list.length) this.running.set(get.server, list);
    else this.running.delete(get.server);
  }

  /** Every get ends (the gateway stops). */
  dispose(): void {
    for (const list of this.running.values()) for (const get of list) get.end();
    this.waiting.clear();
  }
}

/** `notes asks "Which name?" (fields: name*)` or `notes asks you to open https://…`. */
export function describe(q: Question): string {
  return q.mode === 'url'
    ? `${q.server} asks you to open ${q.url}`
    : `${q.server} asks "${q.message}" (fields: ${q.fields.map(f => `${f.name}${f.required ? '*' : ''}`).join(', ')})`;
}

/** Form questions need `elicitation` (a bare `{}` means form, as the spec's first version had it); URL ones `elicitation.url`. */
function canAnswer(capabilities: ClientCapabilities | undefined, q: Question): boolean {
  const e = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (!e) return false;
  return q.mode === 'url' ? e.url !== undefined : e.form !== undefined || e.url === undefined;
}

/** The question for the gateway's client, naming the server that asks. */
function request(q: Question): InputRequest {
  const message = `${q.server} asks: ${q.message}`;
  return q.mode === 'url'
    ? inputRequired.elicitUrl({ message, url: q.url })
    : inputRequired.elicit({ message, requestedSchema: questionSchema(q.fields) });
}

/** The client's answer to this round's question; anything else is a cancel. */
function answerOf(responses: Record<string, unknown> | undefined): QuestionAnswer {
  const view = inputResponse(responses, KEY);
  if (view.kind !== 'elicit') return { action: 'cancel' };
  if (view.action !== 'accept') return { action: view.action };
  return { action: 'accept', values: (view.content ?? {}) as Record<string, FieldValue> };
}

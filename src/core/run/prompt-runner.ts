// The one run path of every surface (chat, picker, tree, Repeat, Try Again, the CLI): a RunRequest →
// the missing arguments asked for → prompts/get → the result stored. The arguments that reached the
// server are kept when it fails (the next attempt starts from them), and what the person typed is
// offered again next time, whether or not the server took it.
import * as l10n from '@vscode/l10n';
import { toTranscript } from '../render/content.js';
import { PromptError } from '../errors.js';
import type { Catalog, CatalogPrompt } from '../catalog/catalog.js';
import { type WhileStarting, callOn } from '../catalog/catalog-entry.js';
import { ArgumentHistory, memoryStore } from './records/argument-history.js';
import { Attempts } from './records/attempts.js';
import { PromptUsage } from './records/prompt-usage.js';
import { missingArguments, unknownArguments, type InvokeResult, type RunRequest } from './invocation.js';
import { ResultStore, type StoredResult } from './records/result-store.js';
import { watchQuestions, type QuestionWatcher } from './question-watch.js';

/** What a surface's argument input returns: the values, and which of them came from a source (not kept as history). */
export interface Collected {
  values: Record<string, string>;
  fromSource?: ReadonlySet<string>;
}

export interface CollectRequest {
  /** Values already given (by name or position on the line, from a reference, from a key binding). */
  given: Record<string, string>;
  /** Ask for optional arguments too (picker and tree). */
  askOptional: boolean;
  /** What each step starts from: the arguments of the last failed attempt. */
  defaults: Record<string, string>;
  /** Given values that came from a source (a chat reference): kept out of the history like the sources' values. */
  sourced?: readonly string[];
}

/** A surface's argument input; undefined when the user cancels. */
export type Collector = (prompt: CatalogPrompt, request: CollectRequest) => Promise<Collected | undefined>;

/** The arguments as they will be sent. */
export interface Prepared {
  prompt: CatalogPrompt;
  args: Record<string, string>;
  /** The arguments whose value came from the editor (a reference, a selection, a file): never kept. */
  sourced?: readonly string[];
  /**
   * The values were chosen by an agent (its get tool), not by the person: none of them is kept (not in
   * the recent prompts, not for Repeat Last Prompt or Try Again), so nothing sends them again unconfirmed.
   */
  byAgent?: boolean;
}

export interface RunOptions {
  collect?: Collector;
  /** Ask for optional arguments too. */
  askOptional?: boolean;
  /** Start the input from the last failed attempt's arguments (every surface but the CLI and Repeat). */
  fromDraft?: boolean;
  signal?: AbortSignal;
  /** Wraps the start of a server that is not running (start policy `onDemand`): "starting <server>…". */
  whileStarting?: WhileStarting;
  /** Told of the questions the server asks while this run is under way (chat shows them in its response). */
  questions?: QuestionWatcher;
  /** Wraps the request to the server (a progress notification with its own cancel); its signal aborts the get. */
  whileGetting?: (
    prepared: Prepared,
    get: (signal?: AbortSignal) => Promise<InvokeResult>,
  ) => PromiseLike<InvokeResult>;
}

export type Preparation =
  { kind: 'ready'; prepared: Prepared } | { kind: 'cancelled' } | { kind: 'failed'; error: unknown };

export type RunOutcome =
  | { kind: 'done'; stored: StoredResult }
  | { kind: 'cancelled' }
  /** `retry`: the prompt whose arguments were kept, when it got as far as asking the server. */
  | { kind: 'failed'; error: unknown; retry?: string };

/** What runs leave behind, each part kept by its own owner. */
export interface RunRecords {
  results: ResultStore;
  attempts: Attempts;
  history: ArgumentHistory;
  /** The prompts run (recent first) and pinned. */
  usage: PromptUsage;
}

/** Records that live as long as the process: the CLI's, the tests' and the benchmark's. */
export function memoryRecords(): RunRecords {
  const store = memoryStore();
  return {
    results: new ResultStore(),
    attempts: new Attempts(),
    history: new ArgumentHistory(store),
    usage: new PromptUsage(store),
  };
}

export class PromptRunner {
  constructor(
    private readonly catalog: Catalog,
    private readonly records: RunRecords,
  ) {}

  /** Asks for the prompt's missing arguments, then gets it. */
  run(request: RunRequest, options: RunOptions = {}): Promise<RunOutcome> {
    if (options.questions || options.collect) return this.watched(request, options);
    // Without an argument input or a question watch nothing is awaited here: no async frame on every get.
    const preparation = this.prepareGiven(request);
    return preparation.kind === 'ready' ? this.get(preparation.prepared, options) : Promise.resolve(preparation);
  }

  /** `run` with the argument input asked, and the server's questions told while it is under way. */
  private async watched(request: RunRequest, options: RunOptions): Promise<RunOutcome> {
    const unwatch = options.questions && watchQuestions(options.questions);
    try {
      const preparation = options.collect ? await this.prepare(request, options) : this.prepareGiven(request);
      return preparation.kind === 'ready' ? await this.get(preparation.prepared, options) : preparation;
    } finally {
      unwatch?.();
    }
  }

  /**
   * The arguments as they will be sent: the given values, checked against the prompt, plus what the
   * person gives for the missing ones (and for the optional ones when asked to).
   */
  async prepare(request: RunRequest, options: RunOptions): Promise<Preparation> {
    const { prompt } = request;
    const collect = options.collect;
    if (!collect || !(options.askOptional || missingArguments(prompt, request.values).length))
      return this.prepareGiven(request);
    try {
      checkDeclared(prompt, request.values);
      const collected = await this.collect(request, collect, options);
      if (!collected) return { kind: 'cancelled' };
      const values = { ...request.values, ...collected.values };
      const sourced = [...new Set([...(request.sourced ?? []), ...(collected.fromSource ?? [])])];
      return ready(prompt, values, sourced);
    } catch (error) {
      return { kind: 'failed', error };
    }
  }

  /** The given values alone, checked against the prompt (no argument input). */
  private prepareGiven(request: RunRequest): Preparation {
    try {
      checkDeclared(request.prompt, request.values);
      return ready(request.prompt, request.values, request.sourced ?? []);
    } catch (error) {
      return { kind: 'failed', error };
    }
  }

  /** prompts/get with prepared arguments (the server started first when it is not running); the result is stored. */
  get(prepared: Prepared, options: RunOptions): Promise<RunOutcome> {
    // No async frame of its own for the usual outcome: this runs on every get.
    return this.getFrom(prepared, options).then(outcome =>
      outcome.kind === 'failed' ? this.againIfReconfigured(prepared, options, outcome) : outcome,
    );
  }

  /**
   * The server's configuration changed while the get was under way (an edited mcp.json): its old
   * connection was closed by us, not by the server, so the get goes once to the server as configured now.
   */
  private async againIfReconfigured(prepared: Prepared, options: RunOptions, outcome: RunOutcome): Promise<RunOutcome> {
    const { server } = prepared.prompt;
    if (options.signal?.aborted) return outcome;
    if (this.catalog.servers.includes(server) || !this.catalog.server(server.id)) return outcome;
    const now = await this.catalog.findPrompt(`${server.id}.${prepared.prompt.prompt.name}`).catch(() => undefined);
    return now ? this.getFrom({ ...prepared, prompt: now }, options) : outcome;
  }

  private async getFrom(prepared: Prepared, options: RunOptions): Promise<RunOutcome> {
    const { prompt, args } = prepared;
    const { results, attempts, usage } = this.records;
    try {
      // The one call: the server started if needed, the get sent, a prompt that is gone said so.
      const done = await callOn(
        prompt,
        connection => {
          const get = (signal?: AbortSignal): Promise<InvokeResult> =>
            connection
              .getPrompt(prompt.prompt.name, args, { signal: signal ?? options.signal })
              .then(result => ({ prompt, args, result }));
          return options.whileGetting ? options.whileGetting(prepared, get) : get();
        },
        options.whileStarting,
      );
      // What the run leaves, kept here once (a run handed to chat by the chat's run of it): the draft
      // cleared, the attempt for Repeat, the prompt as recent. An agent's values are never kept.
      attempts.setDraft(prompt.invocationName, undefined);
      if (!prepared.byAgent) attempts.ran({ invocationName: prompt.invocationName, args });
      void usage.ran(prompt, args, prepared.byAgent ? Object.keys(args) : prepared.sourced);
      return { kind: 'done', stored: results.store(done, toTranscript(done.result)) };
    } catch (error) {
      // The arguments that reached the server are kept: "Try Again…" / "Edit Arguments and Retry…" start from them.
      if (!prepared.byAgent) attempts.setDraft(prompt.invocationName, args);
      return { kind: 'failed', error, retry: prompt.invocationName };
    }
  }

  /** The argument input, with the server held (its completions need it) and what was typed remembered. */
  private async collect(request: RunRequest, collect: Collector, options: RunOptions): Promise<Collected | undefined> {
    const { prompt } = request;
    const defaults = options.fromDraft ? this.records.attempts.draft(prompt.invocationName) : {};
    const release = prompt.server.connection.hold();
    try {
      const given = { ...request.values };
      const got = await collect(prompt, {
        given,
        askOptional: !!options.askOptional,
        defaults,
        sourced: request.sourced,
      });
      if (!got) return undefined;
      const sourced = [...(got.fromSource ?? []), ...(request.sourced ?? [])];
      await this.records.history.remember(prompt, got.values, sourced);
      return got;
    } finally {
      release();
    }
  }
}

/** Throws when a value is given for an argument the prompt does not declare. */
function checkDeclared(prompt: CatalogPrompt, values: Record<string, string>): void {
  const declared = prompt.prompt.arguments ?? [];
  const unknown = Object.keys(values).filter(k => !declared.some(a => a.name === k));
  if (unknown.length) throw unknownArguments(prompt, unknown);
}

/** Ready when no required argument is missing; throws the error naming the missing ones. */
function ready(prompt: CatalogPrompt, values: Record<string, string>, sourced: readonly string[]): Preparation {
  const missing = missingArguments(prompt, values);
  if (missing.length) throw missingError(prompt, missing);
  return { kind: 'ready', prepared: { prompt, args: nonEmpty(values), sourced } };
}

/** The values that are not empty: an empty value is an argument not given. */
function nonEmpty(values: Record<string, string>): Record<string, string> {
  const args: Record<string, string> = {};
  for (const name of Object.keys(values)) if (values[name] !== '') args[name] = values[name];
  return args;
}

function missingError(prompt: CatalogPrompt, missing: readonly { name: string }[]): PromptError {
  return new PromptError(
    l10n.t(
      '{0}: prompt "{1}" needs {2}',
      prompt.server.def.name,
      prompt.prompt.name,
      missing.map(a => a.name).join(', '),
    ),
    'input',
    prompt.server.def.name,
  );
}

// The one run path of every surface (chat, picker, tree, Re-run Last, Try Again, the CLI):
// collect the missing arguments → prompts/get → store the result → keep the arguments on failure
// (the next attempt starts from them) → remember what was typed. Where the result is shown is decided
// once, by destination(), from the typed settings.
import * as l10n from '@vscode/l10n';
import { toTranscript } from '../render/content.js';
import { PromptError, refusedByServer } from '../errors.js';
import {
  formatInvocation,
  getPrompt,
  prepareInvocation,
  type InvokeRequest,
  type PreparedInvocation,
} from './invocation.js';
import type { Catalog, CatalogPrompt } from '../catalog/catalog.js';
import type { ResultStore, StoredResult } from './results.js';
import { historyKey } from './history-key.js';

/** What a surface's argument input returns: the values, and which of them came from a source (not kept as history). */
export interface Collected {
  values: Record<string, string>;
  fromSource?: ReadonlySet<string>;
}

export interface CollectRequest {
  /** Values already given (by name or position on the line). */
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

export interface RunRequest extends Pick<InvokeRequest, 'line' | 'prompt' | 'values' | 'signal'> {
  collect?: Collector;
  askOptional?: boolean;
  /** Start the input from the last failed attempt's arguments (every surface but the CLI and Re-run Last). */
  fromDraft?: boolean;
  /** Once the arguments are known: true to get the prompt here, false when the surface hands the line to chat. */
  route?: (prepared: Prepared) => Promise<boolean>;
  /** Wraps the start of a server that is not running (start policy `onDemand`): "starting <server>…" progress. */
  whileStarting?: (prepared: Prepared, start: () => Promise<void>) => PromiseLike<void>;
  /** Wraps the request to the server (a progress notification with its own cancel); its signal aborts the get. */
  whileGetting?: <T>(prepared: Prepared, get: (signal?: AbortSignal) => Promise<T>) => PromiseLike<T>;
}

export interface Prepared extends PreparedInvocation {
  /** `server.prompt name=value …`: what Re-run Last and a hand-off to chat type. */
  line: string;
}

export type RunOutcome =
  | { kind: 'done'; stored: StoredResult }
  | { kind: 'cancelled' }
  /** The arguments went to chat as `line` (the chat request runs it). */
  | { kind: 'handedOff'; line: string }
  /** `retry`: the prompt whose arguments were kept, when it got as far as asking the server. */
  | { kind: 'failed'; error: unknown; retry?: string };

export async function run(catalog: Catalog, store: ResultStore, req: RunRequest): Promise<RunOutcome> {
  let prepared: Prepared | undefined;
  const history: { key: string; values: Record<string, string> }[] = [];
  const collect = req.collect;
  try {
    const ready = await prepareInvocation(catalog, {
      line: req.line,
      prompt: req.prompt,
      values: req.values,
      askOptional: req.askOptional,
      collect:
        collect &&
        (async (target, given) => {
          const defaults = req.fromDraft ? store.draft(target.invocationName) : {};
          // An open argument input keeps its server from an idle stop (its completions need it).
          const release = target.server.connection.hold();
          try {
            const got = await collect(target, { given, askOptional: !!req.askOptional, defaults });
            if (got) history.push({ key: historyKey(target), values: withoutSources(got) });
            return got?.values;
          } finally {
            release();
          }
        }),
    });
    if (!ready) return { kind: 'cancelled' };
    prepared = { ...ready, line: formatInvocation(ready.prompt.invocationName, ready.args) };
    if (req.route && !(await req.route(prepared))) {
      store.handedToChat(prepared.line);
      return { kind: 'handedOff', line: prepared.line };
    }
    const saved = await started(prepared, req.whileStarting);
    const p = prepared;
    const get = (signal?: AbortSignal) => getPrompt(p.prompt, p.args, signal ?? req.signal);
    let done;
    try {
      done = req.whileGetting ? await req.whileGetting(p, get) : await get();
    } catch (err) {
      if (saved || catalog.listTakenOnTtl(p.prompt.server)) await ifGone(catalog, p, err);
      throw err;
    }
    store.setDraft(p.prompt.invocationName, undefined);
    return { kind: 'done', stored: store.store(p.line, done, toTranscript(done.result)) };
  } catch (error) {
    // The arguments that reached the server are kept: "Try Again…" / "Edit Arguments and Retry…" start from them.
    if (prepared) store.setDraft(prepared.prompt.invocationName, prepared.args);
    return { kind: 'failed', error, retry: prepared?.prompt.invocationName };
  } finally {
    // What the user typed is offered again next time, whether or not the server took it.
    for (const h of history) await store.remember(h.key, h.values);
  }
}

/**
 * A prompt whose server is not running (a saved list, or stopped): start it, with "starting <server>…"
 * around the start. A saved list is listed again once the server runs (the catalog does that on start),
 * alongside the get rather than before it. True when the prompt came from a saved list.
 */
async function started(prepared: Prepared, whileStarting: RunRequest['whileStarting']): Promise<boolean> {
  const entry = prepared.prompt.server;
  const saved = entry.cached;
  if (!saved && entry.connection.status !== 'stopped') return false;
  const start = async () => {
    await entry.connection.connect();
  };
  await (whileStarting ? whileStarting(prepared, start) : start());
  return saved;
}

/**
 * A get from a saved list failed: if the server's list, now current, lacks the prompt, say that instead.
 * A stale list was listed again on start; a fresh one (ttlMs) is listed again when the server refused the get.
 */
async function ifGone(catalog: Catalog, p: Prepared, err: unknown): Promise<void> {
  const entry = p.prompt.server;
  await catalog.ensureStarted(entry);
  if (refusedByServer(err)) await catalog.recheck(entry);
  if (entry.cached || entry.prompts.some(x => x.prompt.name === p.prompt.prompt.name)) return;
  throw new PromptError(
    l10n.t(
      '{0} no longer offers the prompt "{1}"; its list of prompts was refreshed',
      entry.def.name,
      p.prompt.prompt.name,
    ),
    'input',
    entry.def.name,
  );
}

function withoutSources(c: Collected): Record<string, string> {
  return Object.fromEntries(Object.entries(c.values).filter(([k]) => !c.fromSource?.has(k)));
}

/** mcpPrompts.runTarget: `auto` is chat when a model answers, else the editor. */
export type RunTargetSetting = 'auto' | 'editor';
/** mcpPrompts.chat.afterGet: what chat does with a result. */
export type AfterGet = 'send' | 'show' | 'agent';
/** Asked for by a command (`auto`: let the setting decide). */
export type Where = 'auto' | 'chat' | 'editor';

/** Where a result goes: the transcript editor, or chat (which then sends it, shows it, or hands it to the agent). */
export type Destination = { to: 'editor' } | { to: 'chat'; then: AfterGet };

export interface DestinationSettings {
  runTarget: RunTargetSetting;
  afterGet: AfterGet;
}

/**
 * The one decision of where a result goes. A chat request stays in chat. A command goes to chat when
 * asked to, or (`auto`) when the setting allows and a chat model is there to answer; otherwise to the
 * transcript editor. `chatAvailable` is asked only when it matters.
 */
export async function destination(
  from: 'chat' | 'command',
  where: Where,
  settings: DestinationSettings,
  chatAvailable: () => Promise<boolean>,
): Promise<Destination> {
  const chat: Destination = { to: 'chat', then: settings.afterGet };
  if (from === 'chat' || where === 'chat') return chat;
  if (where === 'editor' || settings.runTarget === 'editor') return { to: 'editor' };
  return (await chatAvailable()) ? chat : { to: 'editor' };
}

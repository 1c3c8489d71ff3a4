// Every prompt of every configured server. Reads every page (listing.ts, within its bounds), re-reads
// on list_changed (debounced), keeps valid prompts when a page holds a bad one, and names each prompt
// `server.prompt` (plus a bare alias where unique). Config changes keep the connections of unchanged servers.
import * as l10n from '@vscode/l10n';
import type { Prompt } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/config.js';
import { ConnectionOptions, ServerConnection } from '../protocol/connection.js';
import { stateError } from '../protocol/connection-state.js';
import { Emitter } from '../events.js';
import { PromptError } from '../errors.js';
import { readListing } from './listing.js';
import { NameIndex, assignShortNames, buildIndex, replaceInIndex } from './name-index.js';
import { type CatalogNames, type ResolveResult, lookUpCommand, lookUpPrompt, resolveName } from './name-resolution.js';
import { sameJson } from '../json.js';
import { mixedScripts } from './scripts.js';
import type { CachedList, PromptCache } from './prompt-cache.js';
import { type CatalogSkill, toCatalogSkills } from './skills.js';

export interface CatalogPrompt {
  server: ServerEntry;
  prompt: Prompt;
  /** `server.prompt`: always unique. */
  invocationName: string;
  /** The prompt part of `invocationName`; usable alone when `unique`. */
  shortName: string;
  unique: boolean;
  /** Set when the name mixes scripts (a Cyrillic "а" among Latin letters): it may imitate another name. */
  mixedScripts?: string[];
}

export interface ServerEntry {
  readonly id: string;
  readonly def: ServerDefinition;
  readonly connection: ServerConnection;
  prompts: CatalogPrompt[];
  /** Its skills (MCP Skills extension); none for a server without it. */
  skills: CatalogSkill[];
  /** True while pages are being read. */
  loading: boolean;
  /** Why the last listing failed (the server may still have prompts from before). */
  listError?: PromptError;
  /** Items the server sent that we could not use (malformed prompt, duplicate name). */
  warnings: string[];
  /** Prompt name → the short name it was given, kept across re-lists so a `-2` suffix stays with its prompt. */
  shortNames?: Map<string, string>;
  /** The prompts come from the saved list of an earlier window; the server has not confirmed them yet. */
  cached: boolean;
  /** Its whole list is known: it listed (now, or in the saved list of an earlier window). A failed first listing is not. */
  listKnown?: boolean;
}

export interface CatalogOptions {
  connection?: (def: ServerDefinition) => ConnectionOptions;
  /** `eager` (extension) starts every server at once in the background; `lazy` (CLI) on first use. */
  start?: 'eager' | 'lazy';
  maxPages?: number;
  debounceMs?: number;
  /** Saved prompt lists: each server's prompts are there before it runs, and each listing is saved. */
  cache?: PromptCache;
  /**
   * `eager` only. `onDemand`: a server with a saved list gets no process until one of its prompts is
   * run, completed or expanded (ensureStarted); one without starts once to fill it. `onStartup`: all start.
   */
  startServers?: StartPolicy;
}

/** mcpPrompts.startServers */
export type StartPolicy = 'onDemand' | 'onStartup';

/** load()'s `background`, where it is one. */
const BACKGROUND = true;
/** Warnings kept from one listing: a page of 100,000 malformed prompts must not mean 100,000 log lines. */
const MAX_WARNINGS = 20;

export class Catalog {
  private entries: ServerEntry[] = [];
  private loads = new Map<ServerEntry, Promise<void>>();
  private starts = new Map<ServerEntry, Promise<void>>();
  /** When each cached entry's list was sent, and its freshness hint. */
  private saved = new Map<ServerEntry, Pick<CachedList, 'listedAt' | 'ttlMs'>>();
  /** Entries whose saved list the server's ttlMs vouched for: running, but not listed by it yet. */
  private takenOnTtl = new Set<ServerEntry>();
  /** Entries showing a `private` list (cacheScope): the signed-in user's, dropped when they sign out. */
  private privateLists = new Set<ServerEntry>();
  private pendingReload = new Set<ServerEntry>();
  private debounce = new Map<ServerEntry, NodeJS.Timeout>();
  private disposables = new Map<ServerEntry, { dispose(): void }[]>();
  private readonly changeEmitter = new Emitter<ServerEntry | undefined>();
  /** Fired when a server's prompts or status change (`undefined`: the set of servers changed). */
  readonly onDidChange = this.changeEmitter.event;
  private index: NameIndex<CatalogPrompt> = new Map();

  constructor(private readonly options: CatalogOptions = {}) {}

  get servers(): readonly ServerEntry[] {
    return this.entries;
  }

  get prompts(): CatalogPrompt[] {
    return this.entries.flatMap(e => e.prompts);
  }

  get skills(): CatalogSkill[] {
    return this.entries.flatMap(e => e.skills);
  }

  /** Replaces the configuration. Servers whose definition did not change keep their connection and prompts. */
  setServers(defs: ServerDefinition[]): void {
    const old = new Map(this.entries.map(e => [e.id, e]));
    const next: ServerEntry[] = [];
    for (const def of defs) {
      const existing = old.get(def.id);
      if (existing && JSON.stringify(existing.def) === JSON.stringify(def)) {
        next.push(existing);
        old.delete(def.id);
      } else {
        next.push(this.createEntry(def));
      }
    }
    for (const gone of old.values()) void this.disposeEntry(gone);
    this.entries = next;
    this.reindex();
    this.changeEmitter.fire(undefined);
    if ((this.options.start ?? 'eager') === 'eager')
      for (const e of next)
        if ((e.cached || !listed(e)) && !this.loads.has(e) && e.connection.state.kind === 'idle')
          void this.load(e, BACKGROUND);
  }

  private createEntry(def: ServerDefinition): ServerEntry {
    const connection = new ServerConnection(def, this.options.connection?.(def));
    const entry: ServerEntry = {
      id: def.id,
      def,
      connection,
      prompts: [],
      skills: [],
      loading: false,
      warnings: [],
      cached: false,
    };
    this.seed(entry);
    this.disposables.set(entry, [
      connection.onListsChanged(() => this.scheduleReload(entry)),
      connection.onDidChangeState(state => {
        // Whatever started it (a completion, a get), a server showing a saved list confirms it now, one
        // turn later: the request that started it is written first, not queued behind a list's pages.
        if (state.kind === 'running' && entry.cached) setImmediate(() => void this.ensureStarted(entry));
        this.changeEmitter.fire(entry);
      }),
      connection.onSignedOut(() => this.signedOut(entry)),
    ]);
    return entry;
  }

  /** The saved list of an earlier window, if there is a usable one; on demand, the server then stays stopped. */
  private seed(entry: ServerEntry): void {
    const list = this.options.cache?.get(entry.def, m => entry.connection.log.warn(m));
    if (!list) return;
    entry.shortNames = list.shortNames;
    entry.prompts = this.toCatalogPrompts(entry, list.prompts, []);
    entry.skills = toCatalogSkills(entry, list.skills ?? [], []);
    entry.cached = true;
    entry.listKnown = true;
    this.saved.set(entry, { listedAt: list.listedAt, ttlMs: list.ttlMs });
    if (list.cacheScope === 'private') this.privateLists.add(entry);
    // stop() on a connection that never ran only marks it `stopped`, at once.
    if (this.startPolicy === 'onDemand') void entry.connection.stop();
  }

  /**
   * The user's sign-in to the server is gone (see StoredOAuthProvider.onSignedOut): a `private` list
   * was theirs, so it is deleted from storage (even one another window saved) and no longer shown.
   */
  private signedOut(entry: ServerEntry): void {
    if (!this.entries.includes(entry)) return;
    const dropped = this.options.cache?.deletePrivate(entry.def) ?? false;
    if (!this.privateLists.delete(entry) && !dropped) return;
    entry.connection.log.info(l10n.t('{0}: signed out; its private prompt list was dropped', entry.def.name));
    if (!entry.prompts.length && !entry.skills.length) return;
    entry.cached = false;
    entry.listKnown = false;
    this.saved.delete(entry);
    this.takenOnTtl.delete(entry);
    this.replacePrompts(entry, []);
    entry.skills = [];
    this.changeEmitter.fire(entry);
  }

  /** mcpPrompts.startServers changed: `onStartup` starts the servers that wait for use now. */
  setStartPolicy(policy: StartPolicy): void {
    this.options.startServers = policy;
    if (this.startPolicy === 'onStartup') for (const e of this.entries) if (e.cached) void this.ensureStarted(e);
  }

  private get startPolicy(): StartPolicy {
    return (this.options.start ?? 'eager') === 'eager' ? (this.options.startServers ?? 'onDemand') : 'onDemand';
  }

  /**
   * Starts a server whose prompts are about to be used (run, argument completion, tree expansion):
   * a cached list is listed again unless the server called it fresh (`ttlMs`), so a prompt that is gone
   * shows as gone. Resolves when the list is current; never rejects (a failed start is the entry's error).
   */
  ensureStarted(entry: ServerEntry): Promise<void> {
    if (!this.entries.includes(entry)) return Promise.resolve();
    const running = this.starts.get(entry) ?? this.loads.get(entry);
    if (running) return running;
    if (!entry.cached) {
      if (!listed(entry) && !entry.listError) return this.load(entry);
      const { kind } = entry.connection.state;
      if (kind !== 'stopped' && kind !== 'idle') return Promise.resolve();
      return entry.connection.connect().then(
        () => undefined,
        () => undefined,
      );
    }
    const start = this.startCached(entry).finally(() => this.starts.delete(entry));
    this.starts.set(entry, start);
    return start;
  }

  private async startCached(entry: ServerEntry): Promise<void> {
    const saved = this.saved.get(entry);
    if (!saved || !this.options.cache?.isFresh(saved)) return this.load(entry);
    try {
      await entry.connection.connect();
    } catch {
      return; // The connection keeps the error; the cached prompts stay, marked cached.
    }
    if (!this.entries.includes(entry)) return;
    entry.cached = false;
    this.saved.delete(entry);
    this.takenOnTtl.add(entry);
    this.changeEmitter.fire(entry);
  }

  /** True while the entry shows a saved list its server called fresh (ttlMs) and has not listed since. */
  listTakenOnTtl(entry: ServerEntry): boolean {
    return this.takenOnTtl.has(entry);
  }

  /**
   * A get of one of the entry's prompts was refused by the server: a list taken on its ttlMs is listed
   * again (and saved), since the refusal may mean the prompt is gone. Resolves when that is done.
   */
  recheck(entry: ServerEntry): Promise<void> {
    return this.takenOnTtl.has(entry) && this.entries.includes(entry) ? this.load(entry) : Promise.resolve();
  }

  /** Resolves once the server's connection is closed (a stdio server's process has exited). */
  private disposeEntry(entry: ServerEntry): Promise<void> {
    this.saved.delete(entry);
    this.privateLists.delete(entry);
    this.takenOnTtl.delete(entry);
    clearTimeout(this.debounce.get(entry));
    this.debounce.delete(entry);
    for (const d of this.disposables.get(entry) ?? []) d.dispose();
    this.disposables.delete(entry);
    return entry.connection.dispose();
  }

  /** list_changed storms collapse into one re-list; a change during a re-list queues one more. */
  private scheduleReload(entry: ServerEntry): void {
    clearTimeout(this.debounce.get(entry));
    const timer = setTimeout(() => {
      this.debounce.delete(entry);
      if (!isLive(entry)) return;
      if (this.loads.has(entry)) this.pendingReload.add(entry);
      else void this.load(entry, BACKGROUND);
    }, this.options.debounceMs ?? 150);
    timer.unref?.();
    this.debounce.set(entry, timer);
  }

  /** Lists (again) the prompts of one server, or of all; resolves when done, never rejects. */
  refresh(serverId?: string): Promise<void> {
    const targets = serverId === undefined ? this.entries : this.entries.filter(e => e.id === serverId);
    return Promise.all(targets.map(e => this.load(e))).then(() => undefined);
  }

  /** Waits until the servers' lists are current: first listing (starting them in lazy mode) or a re-list due. */
  async ready(serverId?: string): Promise<void> {
    const targets = serverId === undefined ? this.entries : this.entries.filter(e => e.id === serverId);
    await Promise.all(
      targets.map(e => {
        const due = this.debounce.get(e);
        if (due) {
          // A change was announced (list_changed, a restart after sign-in): list now rather than answer from the old list.
          clearTimeout(due);
          this.debounce.delete(e);
          return this.load(e);
        }
        // A list that is known to be empty is current too: a bare name waits here, and must not re-list it.
        return this.loads.get(e) ?? (listed(e) || e.listKnown || e.listError ? undefined : this.load(e));
      }),
    );
  }

  /**
   * `background`: no person started it (a start with the window, a list change): a question the server
   * asks during it is cancelled. A listing already under way is shared, whoever started it.
   */
  private load(entry: ServerEntry, background = false): Promise<void> {
    const running = this.loads.get(entry);
    if (running) return running;
    const p = this.listAll(entry, background).finally(() => {
      this.loads.delete(entry);
      if (this.pendingReload.delete(entry) && this.entries.includes(entry) && isLive(entry))
        void this.load(entry, BACKGROUND);
    });
    this.loads.set(entry, p);
    return p;
  }

  private async listAll(entry: ServerEntry, background: boolean): Promise<void> {
    entry.loading = true;
    this.changeEmitter.fire(entry);
    const listing = await readListing(entry.connection, { maxPages: this.options.maxPages, background });
    const { prompts: collected, warnings, hints } = listing;
    let listError = listing.error;
    if (!this.entries.includes(entry)) return;
    // Stopped meanwhile (by the user, or for idleness): no error, and the last whole list stays.
    const stopped = listError?.kind === 'cancelled';
    if (stopped) {
      listError = entry.listError;
      collected.length = 0;
    }
    // On failure keep the previous list unless we got a newer partial one: nothing shown is lost.
    // A re-list that brings the same prompts keeps the catalog's objects: no names or index to redo.
    if (!stopped && (!listError || collected.length) && !samePrompts(entry.prompts, collected))
      this.replacePrompts(entry, this.toCatalogPrompts(entry, collected, warnings));
    if (!stopped && listing.skills) entry.skills = toCatalogSkills(entry, listing.skills, warnings);
    entry.listError = listError;
    if (!listError) {
      entry.cached = false;
      entry.listKnown = true;
      this.saved.delete(entry);
      this.takenOnTtl.delete(entry);
      if (hints.cacheScope === 'private') this.privateLists.add(entry);
      else this.privateLists.delete(entry);
      this.options.cache?.set(entry.def, {
        prompts: entry.prompts.map(p => p.prompt),
        skills: entry.skills.map(s => s.skill),
        shortNames: entry.shortNames ?? new Map<string, string>(),
        ...hints,
      });
    }
    if (warnings.length > MAX_WARNINGS)
      warnings.splice(
        MAX_WARNINGS,
        Infinity,
        l10n.t('{0}: {1} more problems of this listing are not shown', entry.def.name, warnings.length - MAX_WARNINGS),
      );
    entry.warnings = warnings;
    entry.loading = false;
    for (const w of warnings) entry.connection.log.warn(w);
    // A failed start is logged by the connection already.
    if (listError && listError !== stateError(entry.connection.state)) entry.connection.log.error(listError.message);
    this.changeEmitter.fire(entry);
  }

  private toCatalogPrompts(entry: ServerEntry, prompts: Prompt[], warnings: string[]): CatalogPrompt[] {
    const distinct: Prompt[] = [];
    const names = new Set<string>();
    for (const prompt of prompts) {
      if (names.has(prompt.name)) {
        warnings.push(
          l10n.t('{0} lists the prompt "{1}" more than once; the first one is used', entry.def.name, prompt.name),
        );
        continue;
      }
      names.add(prompt.name);
      distinct.push(prompt);
    }
    const shortNames = assignShortNames(
      distinct.map(p => p.name),
      entry.shortNames,
    );
    entry.shortNames = shortNames;
    return distinct.map(prompt => {
      const shortName = shortNames.get(prompt.name)!;
      return {
        server: entry,
        prompt,
        shortName,
        invocationName: `${entry.id}.${shortName}`,
        unique: true,
        mixedScripts: mixedScripts(prompt.name) ?? (prompt.title ? mixedScripts(prompt.title) : undefined),
      };
    });
  }

  /** Swaps one server's prompts in the name index (see replaceInIndex). */
  private replacePrompts(entry: ServerEntry, next: CatalogPrompt[]): void {
    replaceInIndex(this.index, entry.prompts, next);
    entry.prompts = next;
  }

  /** The whole name index again, after the set of servers changed. */
  private reindex(): void {
    buildIndex(this.index, this.prompts);
  }

  /** The server a `server.prompt` name starts with, if any (prompt names may contain dots too). */
  serverOf(name: string): ServerEntry | undefined {
    const dot = name.indexOf('.');
    return dot > 0 ? this.server(name.slice(0, dot)) : undefined;
  }

  /** The prompt `server.prompt` or a unique bare `prompt` names (name-resolution.ts). */
  findPrompt(name: string): Promise<CatalogPrompt> {
    const names = this.names(name);
    return lookUpPrompt(name, names);
  }

  /** What a typed name runs: a prompt, else a skill of the server it names (name-resolution.ts). */
  findCommand(name: string): Promise<{ prompt: CatalogPrompt } | { skill: CatalogSkill }> {
    const names = this.names(name);
    return lookUpCommand(name, names);
  }

  /** What a lookup of `name` reads: its server, the lists now, and the wait for the lists it may be in. */
  private names(name: string): CatalogNames {
    const entry = this.serverOf(name);
    return { entry, entries: () => this.entries, index: this.index, listed: () => this.ready(entry?.id) };
  }

  /** Finds `server.prompt` or a unique bare `prompt` among the prompts listed now. */
  resolve(name: string): ResolveResult {
    return resolveName(name, this.serverOf(name), this.entries, this.index);
  }

  server(id: string): ServerEntry | undefined {
    return this.entries.find(e => e.id === id);
  }

  async dispose(): Promise<void> {
    const entries = this.entries;
    this.entries = [];
    for (const t of this.debounce.values()) clearTimeout(t);
    this.debounce.clear();
    // disposeEntry's promise is the one that waits for the close: a second stop() finds no client and returns at once.
    await Promise.all(entries.map(e => this.disposeEntry(e)));
    this.changeEmitter.dispose();
  }
}

/** The entry shows something of its server: prompts or skills (listed, or from a saved list). */
function listed(entry: ServerEntry): boolean {
  return entry.prompts.length > 0 || entry.skills.length > 0;
}

/** The listed prompts are those the entry shows, in the same order (a re-list of an unchanged list). */
function samePrompts(shown: readonly CatalogPrompt[], fresh: readonly Prompt[]): boolean {
  return shown.length === fresh.length && shown.every((p, i) => sameJson(p.prompt, fresh[i]));
}

/**
 * A re-list the server asked for (list_changed, a restart) runs only while it runs: a server stopped
 * meanwhile is not started again for it. Its next start announces a change itself.
 */
function isLive(entry: ServerEntry): boolean {
  const { kind } = entry.connection.state;
  return kind === 'running' || kind === 'starting';
}

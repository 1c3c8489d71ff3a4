// Every prompt of every configured server, one CatalogEntry each (catalog-entry.ts: its list and where
// it comes from). Reads every page (listing.ts, within its bounds), re-reads on list_changed (debounced),
// keeps valid prompts when a page holds a bad one, and names each prompt `server.prompt` (plus a bare
// alias where unique). Config changes keep the connections of unchanged servers.
import * as l10n from '@vscode/l10n';
import type { ServerDefinition } from '../config/config.js';
import { ConnectionOptions, ServerConnection } from '../protocol/connection/connection.js';
import { stateError } from '../protocol/connection/connection-state.js';
import { Emitter } from '../events.js';
import { readListing } from './listing.js';
import { NameIndex, buildIndex, replaceInIndex } from './name-index.js';
import { type CatalogNames, type ResolveResult, lookUpCommand, lookUpPrompt, resolveName } from './name-resolution.js';
import { samePrompts, toCatalogPrompts } from './catalog-prompts.js';
import type { PromptCache } from './prompt-cache.js';
import { toCatalogSkills } from './skills.js';
import {
  type CatalogPrompt,
  type CatalogSkill,
  CatalogEntry,
  type EntryUpkeep,
  type ServerEntry,
} from './catalog-entry.js';

export type { CatalogPrompt, ServerEntry };

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
  private entries: CatalogEntry[] = [];
  private readonly changeEmitter = new Emitter<ServerEntry | undefined>();
  /** Fired when a server's prompts or status change (`undefined`: the set of servers changed). */
  readonly onDidChange = this.changeEmitter.event;
  private index: NameIndex<CatalogPrompt> = new Map();
  /** What an entry asks of the catalog: a listing, the start of a saved list. */
  private readonly upkeep: EntryUpkeep = { list: e => this.load(e), start: e => this.ensureStarted(e) };

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
    const next: CatalogEntry[] = [];
    for (const def of defs) {
      const existing = old.get(def.id);
      if (existing && JSON.stringify(existing.def) === JSON.stringify(def)) {
        next.push(existing);
        old.delete(def.id);
      } else {
        next.push(this.createEntry(def));
      }
    }
    for (const gone of old.values()) void gone.dispose();
    this.entries = next;
    this.reindex();
    this.changeEmitter.fire(undefined);
    if ((this.options.start ?? 'eager') === 'eager')
      for (const e of next)
        if ((e.cached || !e.shows) && !e.listing && e.connection.state.kind === 'idle') void this.load(e, BACKGROUND);
  }

  private createEntry(def: ServerDefinition): CatalogEntry {
    const connection = new ServerConnection(def, this.options.connection?.(def));
    const entry = new CatalogEntry(def, connection, this.upkeep);
    this.seed(entry);
    entry.hold(
      connection.onListsChanged(() => this.scheduleReload(entry)),
      connection.onDidChangeState(state => {
        // Whatever started it (a completion, a get), a server showing a saved list confirms it now, one
        // turn later: the request that started it is written first, not queued behind a list's pages.
        if (state.kind === 'running' && entry.cached) setImmediate(() => void this.ensureStarted(entry));
        this.changeEmitter.fire(entry);
      }),
      connection.onSignedOut(() => this.signedOut(entry)),
    );
    return entry;
  }

  /** The saved list of an earlier window, if there is a usable one; on demand, the server then stays stopped. */
  private seed(entry: CatalogEntry): void {
    const list = this.options.cache?.get(entry.def, m => entry.connection.log.warn(m));
    if (!list) return;
    entry.shortNames = list.shortNames;
    entry.prompts = toCatalogPrompts(entry, list.prompts, []);
    entry.skills = toCatalogSkills(entry, list.skills ?? [], []);
    const { listedAt, ttlMs } = list;
    entry.source = { kind: 'saved', listedAt, ttlMs, private: list.cacheScope === 'private' };
    // stop() on a connection that never ran only marks it `stopped`, at once.
    if (this.startPolicy === 'onDemand') void entry.connection.stop();
  }

  /**
   * The user's sign-in to the server is gone (see StoredOAuthProvider.onSignedOut): a `private` list
   * was theirs, so it is deleted from storage (even one another window saved) and no longer shown.
   */
  private signedOut(entry: CatalogEntry): void {
    if (!this.entries.includes(entry)) return;
    const dropped = this.options.cache?.deletePrivate(entry.def) ?? false;
    const source = entry.source;
    const shown = source.kind !== 'none' && source.private;
    if (shown) entry.source = { ...source, private: false };
    if (!shown && !dropped) return;
    entry.connection.log.info(l10n.t('{0}: signed out; its private prompt list was dropped', entry.def.name));
    if (!entry.shows) return;
    entry.source = { kind: 'none' };
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
  ensureStarted(server: ServerEntry): Promise<void> {
    const entry = this.entries.find(e => e === server);
    if (!entry) return Promise.resolve();
    const running = entry.starting ?? entry.listing;
    if (running) return running;
    if (!entry.cached) {
      if (!entry.shows && !entry.listError) return this.load(entry);
      const { kind } = entry.connection.state;
      if (kind !== 'stopped' && kind !== 'idle') return Promise.resolve();
      return entry.connection.connect().then(
        () => undefined,
        () => undefined,
      );
    }
    const start = this.startCached(entry).finally(() => (entry.starting = undefined));
    entry.starting = start;
    return start;
  }

  private async startCached(entry: CatalogEntry): Promise<void> {
    const saved = entry.source;
    if (saved.kind !== 'saved' || !this.options.cache?.isFresh(saved)) return this.load(entry);
    try {
      await entry.connection.connect();
    } catch {
      return; // The connection keeps the error; the cached prompts stay, marked cached.
    }
    if (!this.entries.includes(entry) || entry.source !== saved) return;
    entry.source = { kind: 'vouched', private: saved.private };
    this.changeEmitter.fire(entry);
  }

  /** list_changed storms collapse into one re-list; a change during a re-list queues one more. */
  private scheduleReload(entry: CatalogEntry): void {
    entry.debounce(this.options.debounceMs ?? 150, () => {
      if (!entry.live) return;
      if (entry.listing) entry.relistAfter = true;
      else void this.load(entry, BACKGROUND);
    });
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
        // A change was announced (list_changed, a restart after sign-in): list now rather than answer from the old list.
        if (e.takeDue()) return this.load(e);
        // A list that is known to be empty is current too: a bare name waits here, and must not re-list it.
        return e.listing ?? (e.shows || e.listKnown || e.listError ? undefined : this.load(e));
      }),
    );
  }

  /**
   * `background`: no person started it (a start with the window, a list change): a question the server
   * asks during it is cancelled. A listing already under way is shared, whoever started it.
   */
  private load(entry: CatalogEntry, background = false): Promise<void> {
    if (entry.listing) return entry.listing;
    const p = this.listAll(entry, background).finally(() => {
      entry.listing = undefined;
      const again = entry.relistAfter;
      entry.relistAfter = false;
      if (again && this.entries.includes(entry) && entry.live) void this.load(entry, BACKGROUND);
    });
    entry.listing = p;
    return p;
  }

  private async listAll(entry: CatalogEntry, background: boolean): Promise<void> {
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
      this.replacePrompts(entry, toCatalogPrompts(entry, collected, warnings));
    if (!stopped && listing.skills) entry.skills = toCatalogSkills(entry, listing.skills, warnings);
    entry.listError = listError;
    if (!listError) {
      entry.source = { kind: 'listed', private: hints.cacheScope === 'private' };
      this.options.cache?.set(entry.def, {
        prompts: entry.prompts.map(p => p.prompt),
        skills: entry.skills.map(s => s.skill),
        shortNames: entry.shortNames ?? new Map<string, string>(),
        ...hints,
      });
    }
    entry.warnings = capWarnings(entry.def.name, warnings);
    entry.loading = false;
    for (const w of entry.warnings) entry.connection.log.warn(w);
    // A failed start is logged by the connection already.
    if (listError && listError !== stateError(entry.connection.state)) entry.connection.log.error(listError.message);
    this.changeEmitter.fire(entry);
  }

  /** Swaps one server's prompts in the name index (see replaceInIndex). */
  private replacePrompts(entry: CatalogEntry, next: CatalogPrompt[]): void {
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
    // An entry's dispose ends its timers and waits for the close: a second stop() finds no client and returns at once.
    await Promise.all(entries.map(e => e.dispose()));
    this.changeEmitter.dispose();
  }
}

/** Warnings kept from one listing, the rest counted in one more line. */
function capWarnings(server: string, warnings: string[]): string[] {
  if (warnings.length <= MAX_WARNINGS) return warnings;
  const more = l10n.t('{0}: {1} more problems of this listing are not shown', server, warnings.length - MAX_WARNINGS);
  return [...warnings.slice(0, MAX_WARNINGS), more];
}

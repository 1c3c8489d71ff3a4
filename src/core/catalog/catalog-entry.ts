// One configured server as the catalog keeps it: its connection, what it lists (prompts, skills, the
// names given to them), where that list comes from (one ListSource), and what the list's upkeep holds
// while the server lives — the listing under way, a re-list due, the subscriptions — ended as a unit.
// The one way a request for one of its prompts reaches the server is `callOn`.
import * as l10n from '@vscode/l10n';
import type { Prompt } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/core/ext/skills';
import type { ServerDefinition } from '../config/config.js';
import { PromptError, refusedByServer } from '../errors.js';
import type { ServerConnection } from '../protocol/connection/connection.js';

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

export interface CatalogSkill {
  server: ServerEntry;
  /** The entry as the server listed it (a load asks for it again: skills/get). */
  skill: Skill;
  /** Its name on its server: the frontmatter's, `name~2` for a second skill of that name (by URI). */
  name: string;
}

/** What the other layers read of a server's entry. */
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
  /** The prompts come from the saved list of an earlier window; the server has not confirmed them yet. */
  readonly cached: boolean;
  /** Its whole list is known: it listed (now, or in the saved list of an earlier window). A failed first listing is not. */
  readonly listKnown?: boolean;
}

/**
 * Where the entry's list comes from. `none`: nothing whole yet (never listed, a first listing failed, a
 * private list dropped at sign-out). `saved`: an earlier window's list, unconfirmed. `vouched`: a saved
 * list the server's ttlMs called fresh when it started, not listed since. `listed`: the server's own.
 * `private`: the list is the signed-in user's (cacheScope), dropped when they sign out.
 */
export type ListSource =
  | { kind: 'none' }
  | { kind: 'saved'; listedAt: number; ttlMs?: number; private: boolean }
  | { kind: 'vouched'; private: boolean }
  | { kind: 'listed'; private: boolean };

/** What an entry asks of its catalog, which lists and indexes for it. */
export interface EntryUpkeep {
  /** Lists the server's prompts again (a listing under way is shared); never rejects. */
  list(entry: CatalogEntry): Promise<void>;
  /** Starts the server of a saved list and confirms the list; never rejects. */
  start(entry: CatalogEntry): Promise<void>;
}

/** Around the start of a server that is not running: "starting <server>…". */
export type WhileStarting = (server: ServerEntry, start: () => Promise<void>) => PromiseLike<void>;

export class CatalogEntry implements ServerEntry {
  readonly id: string;
  prompts: CatalogPrompt[] = [];
  skills: CatalogSkill[] = [];
  loading = false;
  listError?: PromptError;
  warnings: string[] = [];
  /** Prompt name → the short name it was given, kept across re-lists so a `-2` suffix stays with its prompt. */
  shortNames?: Map<string, string>;
  source: ListSource = { kind: 'none' };
  /** The listing under way; shared by whoever asks for one meanwhile. */
  listing?: Promise<void>;
  /** The start of a saved list under way (it is confirmed, or taken on its ttl). */
  starting?: Promise<void>;
  /** A change was announced during a listing: one more listing follows it. */
  relistAfter = false;
  /** A re-list the server announced, waiting out the debounce (list_changed storms collapse into one). */
  private due?: NodeJS.Timeout;
  private readonly subscriptions: { dispose(): void }[] = [];
  /** No longer the catalog's (its server was configured anew or removed): its server is only asked. */
  private retired = false;

  constructor(
    readonly def: ServerDefinition,
    readonly connection: ServerConnection,
    private readonly upkeep: EntryUpkeep,
  ) {
    this.id = def.id;
  }

  get cached(): boolean {
    return this.source.kind === 'saved';
  }

  get listKnown(): boolean {
    return this.source.kind !== 'none';
  }

  /** The entry shows something of its server: prompts or skills (listed, or from a saved list). */
  get shows(): boolean {
    return this.prompts.length > 0 || this.skills.length > 0;
  }

  /**
   * A re-list the server asked for (list_changed, a restart) runs only while it runs: a server stopped
   * meanwhile is not started again for it. Its next start announces a change itself.
   */
  get live(): boolean {
    const { kind } = this.connection.state;
    return kind === 'running' || kind === 'starting';
  }

  /** Ended with the entry. */
  hold(...subscriptions: { dispose(): void }[]): void {
    this.subscriptions.push(...subscriptions);
  }

  /** Runs `relist` after `ms` unless asked again meanwhile (then the wait starts over). */
  debounce(ms: number, relist: () => void): void {
    clearTimeout(this.due);
    this.due = setTimeout(() => {
      this.due = undefined;
      relist();
    }, ms);
    this.due.unref?.();
  }

  /** A re-list was due: it is taken now (the caller lists), true if one was. */
  takeDue(): boolean {
    if (!this.due) return false;
    clearTimeout(this.due);
    this.due = undefined;
    return true;
  }

  /**
   * The one way a request for one of its prompts reaches the server (VS Code's McpServer.callOn is the
   * model): started if needed, "starting <server>…" around that; the request sent; and when the list
   * it came from was not the server's own, a prompt the list, now current, lacks is reported as gone.
   * A saved list is listed again once the server runs (the catalog does that on start), alongside the
   * request rather than before it.
   */
  async call<T>(
    prompt: string,
    send: (connection: ServerConnection) => PromiseLike<T>,
    whileStarting?: WhileStarting,
  ): Promise<T> {
    if (this.retired) return await send(this.connection);
    const unconfirmed = this.source.kind === 'saved';
    if (unconfirmed || this.connection.state.kind === 'stopped') {
      const start = async () => void (await this.connection.connect());
      await (whileStarting ? whileStarting(this, start) : start());
    }
    try {
      return await send(this.connection);
    } catch (err) {
      if (unconfirmed || this.source.kind === 'vouched') await this.stillOffers(prompt, err);
      throw err;
    }
  }

  /**
   * A request for `prompt` from a list the server had not confirmed failed: once the list is current
   * (a stale one is listed on start; a fresh one, ttlMs, when the server refused), throws "gone" if the
   * prompt is not in it.
   */
  private async stillOffers(prompt: string, err: unknown): Promise<void> {
    await (this.starting ?? this.listing ?? (this.cached ? this.upkeep.start(this) : undefined));
    if (refusedByServer(err) && this.source.kind === 'vouched') await this.upkeep.list(this);
    if (this.cached || this.prompts.some(x => x.prompt.name === prompt)) return;
    throw new PromptError(
      l10n.t('{0} no longer offers the prompt "{1}"; its list of prompts was refreshed', this.def.name, prompt),
      'input',
      this.def.name,
    );
  }

  /** Resolves once the server's connection is closed (a stdio server's process has exited). */
  dispose(): Promise<void> {
    this.retired = true;
    clearTimeout(this.due);
    this.due = undefined;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    return this.connection.dispose();
  }
}

/**
 * The one call of a run: through the prompt's entry (CatalogEntry.call), which starts its server if
 * needed, sends, and says when the prompt is gone. A server no catalog made (a plain entry) is only asked.
 */
export function callOn<T>(
  prompt: CatalogPrompt,
  send: (connection: ServerConnection) => PromiseLike<T>,
  whileStarting?: WhileStarting,
): Promise<T> {
  const { server } = prompt;
  // Not an async function: the entry's promise is handed on as it is (one frame and three turns fewer on every get).
  if (server instanceof CatalogEntry) return server.call(prompt.prompt.name, send, whileStarting);
  return (async () => await send(server.connection))();
}

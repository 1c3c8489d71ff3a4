// Each server's prompt list, kept between windows so its prompts are there before the server runs.
// One file per server slot (where it is defined + its id), holding a keyed hash of the whole definition:
// a changed command, URL, header or environment value drops the list. No definition value is stored in
// clear. What is read back is hostile (a hand-edited or broken file): size caps, a MAC over the content
// under the same random key (a file we did not write is dropped), every field checked when read back
// (saved-prompts.ts), and a broken file means no cache and a log line, never a failed activation.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as os from 'node:os';
import * as l10n from '@vscode/l10n';
import type { Prompt, PriorDiscovery } from '@modelcontextprotocol/client';
import { DiscoverResultSchema } from '@modelcontextprotocol/core';
import * as z from 'zod/v4';
import type { ServerDefinition } from '../config/config.js';
import type { EraStore } from '../protocol/transport/eras.js';
import { lazy } from '../lazy.js';
import type { CacheStorage, StoredEntry } from './cache-storage.js';
import {
  MAX_CACHED_PROMPTS,
  type StoredPrompts,
  decodePrompts,
  encodePrompts,
  isRecord,
  optional,
} from './saved-prompts.js';
import { type Skill, readStoredSkills, storedSkills } from './skills.js';

export interface PruneLimits {
  maxUnusedMs: number;
  maxLists: number;
  maxBytes: number;
}

/** `cacheScope` of the 2026-07-28 revision: `private` lists differ per user (authorization context). */
export type CacheScope = 'public' | 'private';

export interface CachedList {
  prompts: Prompt[];
  /** The server's skills (their entries: what they are, which files, never a file's content). */
  skills?: Skill[];
  /** Prompt name → the short name it was given, so suffixes (`a_b-2`) survive a restart. */
  shortNames: Map<string, string>;
  /** When the server sent it (ms since the epoch). */
  listedAt: number;
  /** The server's freshness hint; absent from servers before 2026-07-28. */
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export interface PromptCacheOptions {
  log?: (message: string) => void;
  now?: () => number;
  /** Who and where this is: a `private` list is only read back by the same identity. */
  identity?: string;
}

/** A file larger than this is not read at all. */
export const MAX_CACHE_BYTES = 16 * 1024 * 1024;
/** A list older than this is not shown: the server starts once to refresh it (a week without use). */
export const MAX_CACHE_AGE_MS = 7 * 24 * 3600 * 1000;
/** A freshness hint beyond this is taken as this (a hostile `ttlMs: 1e300` must not freeze a list). */
export const MAX_TTL_MS = 24 * 3600 * 1000;
/**
 * Saved lists of servers no window uses any more (global storage is shared by every workspace, so a
 * server absent here may be in use elsewhere): a list nobody read or wrote for 30 days goes, and the
 * least recently used go first beyond 200 lists or 256 MB. A pruned list that was still wanted costs
 * one start of its server.
 */
export const PRUNE_LIMITS: PruneLimits = {
  maxUnusedMs: 30 * 24 * 3600 * 1000,
  maxLists: 200,
  maxBytes: 256 * 1024 * 1024,
};
/** A temporary file older than this is a leftover of a write that never finished. */
const LEFTOVER_MS = 24 * 3600 * 1000;
const LIST_PREFIX = 'prompts-';
const MAX_ERAS = 500;
const SECRET_KEY = 'key';
const ERAS_KEY = 'eras';
const VERSION = 1;
/** Of the prompt files: a MAC line, then the JSON. */
const LIST_VERSION = 2;

/** A prompt file's fields besides its lists. */
interface CacheHead {
  v: typeof LIST_VERSION;
  def: string;
  listedAt: number;
  ttlMs?: number;
  cacheScope?: CacheScope;
  owner?: string;
}

/** The head's fields, checked by hand like the prompts (zod's first run of a schema costs milliseconds). */
function cacheHead(json: Record<string, unknown>): CacheHead {
  const { v, def, listedAt, ttlMs, cacheScope, owner } = json;
  const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
  const short = (s: unknown) => typeof s === 'string' && s.length <= 128;
  if (v !== LIST_VERSION) throw new Error('version');
  if (!short(def)) throw new Error('def');
  if (!finite(listedAt)) throw new Error('listedAt');
  if (!optional(ttlMs, finite)) throw new Error('ttlMs');
  if (!optional(cacheScope, s => s === 'public' || s === 'private')) throw new Error('cacheScope');
  if (!optional(owner, short)) throw new Error('owner');
  return { v, def, listedAt, ttlMs, cacheScope, owner } as CacheHead;
}

type StoredFile = CacheHead & StoredPrompts & { skills?: unknown[] };

interface CacheFile extends CacheHead {
  prompts: Prompt[];
  skills?: Skill[];
  shortNames: Map<string, string>;
}

const erasFile = lazy(() =>
  z.object({
    v: z.literal(VERSION),
    eras: z.record(
      z.string().max(128),
      z.union([
        z.object({ kind: z.literal('legacy') }),
        z.object({ kind: z.literal('modern'), discover: DiscoverResultSchema }),
      ]),
    ),
  }),
);

export class PromptCache {
  private secret?: Buffer;
  private readonly writes = new Map<string, Promise<void>>();
  /** Keys whose removal is queued: their file may still be there, but it is gone for us. */
  private readonly removing = new Set<string>();
  private readonly now: () => number;
  private readonly owner: string;

  constructor(
    private readonly storage: CacheStorage,
    private readonly options: PromptCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.owner = sha256(options.identity ?? defaultIdentity());
  }

  /**
   * The server's list as last seen, if it is usable: same definition, not too old, and (private) the
   * same user and machine. Anything unusable is removed, so the next listing starts clean.
   */
  get(def: ServerDefinition, log: (message: string) => void = m => this.log(m)): CachedList | undefined {
    const key = this.slot(def);
    let text: string | undefined;
    try {
      text = this.storage.read(key, MAX_CACHE_BYTES);
    } catch (err) {
      log(l10n.t('{0}: the saved prompt list could not be read ({1})', def.name, describeError(err)));
      return undefined;
    }
    if (text === undefined) return undefined;
    let file: CacheFile;
    try {
      file = this.parseFile(key, text);
    } catch (err) {
      log(l10n.t('{0}: the saved prompt list is damaged and was dropped ({1})', def.name, describeError(err)));
      this.remove(key);
      return undefined;
    }
    if (file.def !== this.definitionHash(def)) {
      log(l10n.t('{0}: its definition changed; the saved prompt list was dropped', def.name));
      this.remove(key);
      return undefined;
    }
    if (file.cacheScope === 'private' && file.owner !== this.owner) {
      this.remove(key);
      return undefined;
    }
    const age = this.now() - file.listedAt;
    if (age > MAX_CACHE_AGE_MS || age < -MAX_TTL_MS) return undefined;
    // Shown from it: in use, so prune() keeps it. One small write per server, in the background.
    this.queue(key, () => this.storage.touch(key));
    return {
      prompts: file.prompts,
      skills: file.skills,
      shortNames: file.shortNames,
      listedAt: file.listedAt,
      ttlMs: file.ttlMs,
      cacheScope: file.cacheScope,
    };
  }

  /** Fresh in the sense of the 2026-07-28 caching rules: `now < received + ttlMs` (absent or negative ttl = 0). */
  isFresh(list: Pick<CachedList, 'listedAt' | 'ttlMs'>): boolean {
    const ttl = Math.min(Math.max(list.ttlMs ?? 0, 0), MAX_TTL_MS);
    const now = this.now();
    return now >= list.listedAt && now < list.listedAt + ttl;
  }

  /** Keeps a server's list, replacing what was there (written in the background; `flush()` waits). */
  set(def: ServerDefinition, list: Omit<CachedList, 'listedAt'> & { listedAt?: number }): void {
    const file: StoredFile = {
      v: LIST_VERSION,
      def: this.definitionHash(def),
      listedAt: list.listedAt ?? this.now(),
      ttlMs: list.ttlMs,
      cacheScope: list.cacheScope,
      owner: list.cacheScope === 'private' ? this.owner : undefined,
      ...encodePrompts(list.prompts.slice(0, MAX_CACHED_PROMPTS), list.shortNames),
      ...(list.skills?.length ? { skills: storedSkills(list.skills) } : {}),
    };
    const key = this.slot(def);
    const body = JSON.stringify(file);
    const text = `${this.mac(key, body)}\n${body}`;
    if (text.length > MAX_CACHE_BYTES) {
      this.log(l10n.t('{0}: its prompt list is too large to keep between windows', def.name));
      this.remove(key);
      return;
    }
    this.queue(key, () => this.storage.write(key, text));
  }

  /**
   * A prompt file's content, or an error saying why it is unusable. The MAC line says we wrote it (a
   * file changed by hand or damaged on disk is dropped); the fields are still checked one by one, so a
   * writer holding the key cannot put a malformed prompt in front of the user either.
   */
  private parseFile(key: string, text: string): CacheFile {
    const nl = text.indexOf('\n');
    const mac = Buffer.from(nl === 64 ? text.slice(0, 64) : '', 'hex');
    const body = text.slice(nl + 1);
    if (mac.length !== 32 || !timingSafeEqual(mac, Buffer.from(this.mac(key, body), 'hex')))
      throw new Error(l10n.t('changed outside the extension'));
    const json: unknown = JSON.parse(body);
    if (!isRecord(json)) throw new Error('not an object');
    const { names, titles, descriptions, argRefs, icons, shorts, args } = json;
    const prompts = decodePrompts({ names, titles, descriptions, argRefs, icons, shorts, args });
    return { ...cacheHead(json), ...prompts, skills: readStoredSkills(json.skills) };
  }

  /** Binds a prompt file's content to its slot: a file copied over another server's is no match either. */
  private mac(key: string, body: string): string {
    return this.hmac(`${key}\n`, body);
  }

  /**
   * Forgets a server's list if it is `private` (the user signed out); true when there was one. A file
   * that cannot be read as ours goes too (get() would drop it anyway).
   */
  deletePrivate(def: ServerDefinition): boolean {
    const key = this.slot(def);
    if (this.removing.has(key)) return false;
    let scope: CacheScope | 'unreadable' | undefined;
    try {
      const text = this.storage.read(key, MAX_CACHE_BYTES);
      if (text === undefined) return false;
      scope = this.parseFile(key, text).cacheScope;
    } catch {
      scope = 'unreadable';
    }
    if (scope === 'private' || scope === 'unreadable') this.remove(key);
    return scope === 'private';
  }

  /** Forgets a server's list (its definition changed, or it was removed). */
  delete(def: ServerDefinition): void {
    this.remove(this.slot(def));
  }

  /**
   * Deletes the saved lists nobody uses any more (PRUNE_LIMITS) and leftover temporary files. Reads
   * only the folder and each file's times and size, never a list: its cost does not grow with prompts.
   * Returns how many files went.
   */
  async prune(limits: PruneLimits = PRUNE_LIMITS): Promise<number> {
    let entries: StoredEntry[];
    try {
      entries = await this.storage.list();
    } catch {
      return 0; // No folder yet, or unreadable: nothing to prune.
    }
    const now = this.now();
    const doomed = entries.filter(e => e.leftover && now - e.usedAt > LEFTOVER_MS);
    // Newest first: what is kept is counted from the top.
    const lists = entries.filter(e => !e.leftover && e.key.startsWith(LIST_PREFIX)).sort((a, b) => b.usedAt - a.usedAt);
    let bytes = 0;
    lists.forEach((e, i) => {
      bytes += e.bytes;
      if (now - e.usedAt > limits.maxUnusedMs || i >= limits.maxLists || bytes > limits.maxBytes) doomed.push(e);
    });
    for (const e of doomed) {
      if (e.leftover) await this.storage.remove(e.key).catch(() => undefined);
      else this.remove(e.key);
    }
    await this.flush();
    if (doomed.length) this.log(l10n.t('{0} saved prompt lists not used lately were deleted', doomed.length));
    return doomed.length;
  }

  /** Resolves when every write started so far is on disk. */
  async flush(): Promise<void> {
    while (this.writes.size) await Promise.all([...this.writes.values()]);
  }

  /** The protocol eras of the servers, in the same storage, keyed by a keyed hash of eraKey(). */
  eraStore(): EraStore {
    return {
      hash: key => this.hmac(key),
      load: () => {
        const out = new Map<string, PriorDiscovery>();
        let text: string | undefined;
        try {
          text = this.storage.read(ERAS_KEY, MAX_CACHE_BYTES);
          if (text === undefined) return out;
          const parsed = erasFile().safeParse(JSON.parse(text));
          if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'schema');
          for (const [k, v] of Object.entries(parsed.data.eras).slice(0, MAX_ERAS)) out.set(k, v);
        } catch (err) {
          this.log(
            l10n.t('The saved protocol versions of the servers are damaged and were dropped ({0})', describeError(err)),
          );
          this.remove(ERAS_KEY);
        }
        return out;
      },
      save: eras => {
        const entries = [...eras].slice(-MAX_ERAS);
        const text = JSON.stringify({ v: VERSION, eras: Object.fromEntries(entries) });
        this.queue(ERAS_KEY, () => this.storage.write(ERAS_KEY, text));
      },
    };
  }

  /** The file of a server: where it is defined (user / workspace folder) and its id, hashed. */
  private slot(def: ServerDefinition): string {
    return LIST_PREFIX + this.hmac(JSON.stringify(['slot', def.source, def.scope ?? '', def.id])).slice(0, 40);
  }

  /** Everything that decides what runs: a change of any of it is another server. */
  definitionHash(def: ServerDefinition): string {
    return this.hmac(JSON.stringify(['def', def.name, def.transport, def.defaultCwd ?? '']));
  }

  /**
   * HMAC with a random key kept next to the entries: a definition's hash cannot be checked against
   * guessed environment values or tokens by someone holding only the cache files of another machine.
   */
  private hmac(...parts: string[]): string {
    this.secret ??= this.loadSecret();
    const mac = createHmac('sha256', this.secret);
    // In parts: a 100 KB list is hashed where it lies, not copied into one string first.
    for (const part of parts) mac.update(part);
    return mac.digest('hex');
  }

  private loadSecret(): Buffer {
    try {
      const text = this.storage.read(SECRET_KEY, 1024)?.trim();
      if (text && /^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex');
    } catch {
      // An unreadable key means a new one: the old entries no longer match and are dropped on read.
    }
    const secret = randomBytes(32);
    this.queue(SECRET_KEY, () => this.storage.write(SECRET_KEY, secret.toString('hex')));
    return secret;
  }

  /** Writes to one key run one after another; the last one wins. */
  private queue(key: string, write: () => Promise<void>): void {
    const before = this.writes.get(key) ?? Promise.resolve();
    const next = before
      .then(write)
      .catch(err => this.log(l10n.t('The prompt list could not be saved ({0})', describeError(err))))
      .finally(() => {
        if (this.writes.get(key) === next) this.writes.delete(key);
      });
    this.writes.set(key, next);
  }

  private remove(key: string): void {
    this.removing.add(key);
    this.queue(key, () => this.storage.remove(key).finally(() => this.removing.delete(key)));
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** This user on this machine. */
function defaultIdentity(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? '';
  }
  return `${user}@${os.hostname()}`;
}

function describeError(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

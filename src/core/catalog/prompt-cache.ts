// Each server's prompt list, kept between windows so its prompts are there before the server runs.
// One file per server slot (where it is defined + its id), holding a keyed hash of the whole definition:
// a changed command, URL, header or environment value drops the list. No definition value is stored in
// clear. What is read back is hostile (a hand-edited or broken file): size caps, a MAC over the content
// under the same random key (a file we did not write is dropped), a hand-written check of every field we
// keep (zod's first run over 20,000 prompts costs ~100 ms of activation), and a broken file means no
// cache and a log line, never a failed activation.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { Prompt, PromptArgument, PriorDiscovery } from '@modelcontextprotocol/client';
import { DiscoverResultSchema } from '@modelcontextprotocol/core';
import * as z from 'zod/v4';
import type { ServerDefinition } from '../config/config.js';
import type { EraStore } from '../protocol/eras.js';
import { lazy } from '../lazy.js';

/** Where cache entries live: the extension's global storage folder, a temp folder in tests. */
export interface CacheStorage {
  /** The entry's text, or undefined when there is none (or it is larger than `maxBytes`). */
  read(key: string, maxBytes: number): string | undefined;
  /** Replaces the entry as a whole: a reader sees the old text or the new one, never a mix. */
  write(key: string, text: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Marks the entry as used now (no error when it is gone). */
  touch(key: string): Promise<void>;
  /** Every entry with when it was last written or touched, and its size; `.tmp` leftovers included. */
  list(): Promise<StoredEntry[]>;
}

export interface StoredEntry {
  /** The key, or for a leftover temporary file its file name. */
  key: string;
  usedAt: number;
  bytes: number;
  /** A temporary file a write left behind (the window ended between write and rename). */
  leftover?: boolean;
}

/** What prune() keeps: lists used lately, so many of them, so many bytes in all. */
export interface PruneLimits {
  maxUnusedMs: number;
  maxLists: number;
  maxBytes: number;
}

/** `cacheScope` of the 2026-07-28 revision: `private` lists differ per user (authorization context). */
export type CacheScope = 'public' | 'private';

export interface CachedList {
  prompts: Prompt[];
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
/** Prompts kept per server. */
export const MAX_CACHED_PROMPTS = 10000;
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

/** An argument as saved: [name, description, required]; absent = null, trailing ones left out. */
type StoredArgument = [string, (string | null)?, (boolean | null)?];

/**
 * The stored form, by column: one array per field (absent = null; a column of nulls is left out) and
 * each distinct argument list once (servers repeat the same arguments across many prompts). Fewer
 * bytes and far fewer objects for JSON.parse than the SDK's shape: a third of the activation time.
 */
interface StoredPrompts {
  names: string[];
  titles?: (string | null)[];
  descriptions?: (string | null)[];
  /** Index into `args`. */
  argRefs?: (number | null)[];
  icons?: (Prompt['icons'] | null)[];
  /** The short name given to each prompt; null when it is the prompt's name. */
  shorts?: (string | null)[];
  args?: StoredArgument[][];
}

type StoredFile = CacheHead & StoredPrompts;

interface CacheFile extends CacheHead {
  prompts: Prompt[];
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
    return { ...cacheHead(json), ...decodePrompts({ names, titles, descriptions, argRefs, icons, shorts, args }) };
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

/** The temporary file of a write: `<key>.json.<pid>.<random>.tmp`. */
const TMP = /^[a-z0-9-]+\.json\.\d+\.[0-9a-f]{8}\.tmp$/;

/** A folder of `<key>.json` files; writes go to a temporary file first and are renamed into place. */
export class FolderStorage implements CacheStorage {
  constructor(readonly folder: string) {}

  read(key: string, maxBytes: number): string | undefined {
    const file = this.file(key);
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      return undefined;
    }
    if (size > maxBytes) throw new Error(l10n.t('{0} bytes, more than {1}', size, maxBytes));
    return fs.readFileSync(file, 'utf8');
  }

  async write(key: string, text: string): Promise<void> {
    await fs.promises.mkdir(this.folder, { recursive: true });
    const tmp = `${this.file(key)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.promises.writeFile(tmp, text, { mode: 0o600 });
      await fs.promises.rename(tmp, this.file(key));
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async touch(key: string): Promise<void> {
    const now = new Date();
    await fs.promises.utimes(this.file(key), now, now).catch(() => undefined);
  }

  async list(): Promise<StoredEntry[]> {
    const names = await fs.promises.readdir(this.folder);
    const out: StoredEntry[] = [];
    for (const name of names) {
      const key = /^([a-z0-9-]+)\.json$/.exec(name)?.[1];
      const leftover = !key && TMP.test(name);
      if (!key && !leftover) continue;
      const stat = await fs.promises.stat(path.join(this.folder, name)).catch(() => undefined);
      if (stat?.isFile()) out.push({ key: key ?? name, usedAt: stat.mtimeMs, bytes: stat.size, leftover });
    }
    return out;
  }

  private file(key: string): string {
    if (TMP.test(key)) return path.join(this.folder, key);
    if (!/^[a-z0-9-]+$/.test(key)) throw new Error(`bad cache key ${key}`);
    return path.join(this.folder, `${key}.json`);
  }
}

/** The fields of a prompt we show or use (no `_meta`), in the stored form. */
function encodePrompts(prompts: Prompt[], shortNames: ReadonlyMap<string, string>): StoredPrompts {
  const args: StoredArgument[][] = [];
  const argIndex = new Map<string, number>();
  const column = <T>(value: (p: Prompt) => T | undefined): (T | null)[] | undefined => {
    const out = prompts.map(p => value(p) ?? null);
    return out.some(v => v !== null) ? out : undefined;
  };
  const argRefs = column(p => {
    if (!p.arguments) return undefined;
    const list = p.arguments.map((a): StoredArgument => trim([a.name, a.description ?? null, a.required ?? null]));
    const key = JSON.stringify(list);
    const ref = argIndex.get(key) ?? args.push(list) - 1;
    argIndex.set(key, ref);
    return ref;
  });
  return {
    names: prompts.map(p => p.name),
    titles: column(p => p.title),
    descriptions: column(p => p.description),
    argRefs,
    icons: column(p => p.icons?.map(i => ({ src: i.src, mimeType: i.mimeType, sizes: i.sizes, theme: i.theme }))),
    shorts: column(p => {
      const short = shortNames.get(p.name);
      return short === p.name ? undefined : short;
    }),
    args: args.length ? args : undefined,
  };
}

/** Leaves out trailing absent fields. */
function trim<T extends unknown[]>(tuple: T): T {
  while (tuple.length > 1 && tuple[tuple.length - 1] === null) tuple.pop();
  return tuple;
}

/**
 * The stored form back to prompts, checking every field as PromptSchema would (by hand: zod's first
 * run over 20,000 prompts costs ~100 ms). Throws on anything malformed: the whole list is dropped.
 */
function decodePrompts(stored: Record<keyof StoredPrompts, unknown>): Pick<CacheFile, 'prompts' | 'shortNames'> {
  const { names } = stored;
  if (!Array.isArray(names) || names.length > MAX_CACHED_PROMPTS) throw new Error('names');
  const col = (v: unknown, what: string): unknown[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length !== names.length) throw new Error(what);
    return v as unknown[];
  };
  const titles = col(stored.titles, 'titles');
  const descriptions = col(stored.descriptions, 'descriptions');
  const argRefs = col(stored.argRefs, 'argRefs');
  const icons = col(stored.icons, 'icons');
  const shorts = col(stored.shorts, 'shorts');
  const args = stored.args ?? [];
  if (!Array.isArray(args) || args.length > MAX_CACHED_PROMPTS) throw new Error('args');
  const argLists = args.map(list => {
    if (!Array.isArray(list)) throw new Error('args');
    return deepFreeze(
      list.map((a): PromptArgument => {
        if (!Array.isArray(a) || a.length < 1 || a.length > 3 || typeof a[0] !== 'string') throw new Error('args');
        const [name, description, required] = a as unknown[];
        const out: PromptArgument = { name: name as string };
        if (description != null) out.description = string(description, 'args');
        if (required != null) {
          if (typeof required !== 'boolean') throw new Error('args');
          out.required = required;
        }
        return out;
      }),
    );
  });
  const shortNames = new Map<string, string>();
  const prompts = names.map((name: unknown, i): Prompt => {
    const out: Prompt = { name: string(name, 'names') };
    const title = titles?.[i];
    if (title != null) out.title = string(title, 'titles');
    const description = descriptions?.[i];
    if (description != null) out.description = string(description, 'descriptions');
    const ref = argRefs?.[i];
    if (ref != null) {
      if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0 || ref >= argLists.length)
        throw new Error('argRefs');
      // Shared by the prompts that have the same arguments (frozen: nothing may change one for all).
      out.arguments = argLists[ref];
    }
    const icon = icons?.[i];
    if (icon != null) {
      if (!Array.isArray(icon) || !icon.every(isIcon)) throw new Error('icons');
      out.icons = icon as Prompt['icons'];
    }
    const short = shorts?.[i];
    shortNames.set(out.name, short == null ? out.name : string(short, 'shorts'));
    return out;
  });
  return { prompts, shortNames };
}

function deepFreeze<T extends object>(list: T[]): T[] {
  for (const item of list) Object.freeze(item);
  return Object.freeze(list) as T[];
}

function string(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new Error(what);
  return v;
}

function isIcon(i: unknown): boolean {
  return (
    isRecord(i) &&
    typeof i.src === 'string' &&
    optional(i.mimeType, isString) &&
    optional(i.sizes, s => Array.isArray(s) && s.every(isString)) &&
    optional(i.theme, t => t === 'light' || t === 'dark')
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isString(v: unknown): boolean {
  return typeof v === 'string';
}

function optional(v: unknown, check: (v: unknown) => boolean): boolean {
  return v === undefined || check(v);
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

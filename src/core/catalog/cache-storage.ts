// Where saved lists live: a folder of `<key>.json` files (the extension's global storage, a temp folder
// in tests), each replaced as a whole through a temporary file so a reader never sees a mix.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';

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

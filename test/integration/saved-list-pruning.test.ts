// Saved prompt lists of servers no window uses any more are pruned (PromptCache.prune, run once per
// window after activation by src/workspace/prompt-cache-storage.ts). Real files in a temp folder; a
// "window" that shows a list is a real catalog over them (its server is never started: on demand).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Catalog } from '../../src/core/catalog/catalog';
import { FolderStorage } from '../../src/core/catalog/cache-storage';
import { PRUNE_LIMITS, PromptCache } from '../../src/core/catalog/prompt-cache';
import type { ServerDefinition } from '../../src/core/config/config';
import { ROOT, defs } from './helpers';

const DAY = 24 * 3600 * 1000;
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cacheable.mjs');

function folder(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-prune-')), 'store');
}

function server(name: string): ServerDefinition {
  return defs({ [name]: { command: process.execPath, args: [FIXTURE], env: { CACHEABLE_PIDS: '/dev/null' } } })[0];
}

/** Saves a one-prompt list for `name` and returns its file (the one the save added). */
async function save(cache: PromptCache, dir: string, name: string): Promise<string> {
  const before = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  cache.set(server(name), { prompts: [{ name: 'p' }], shortNames: new Map() });
  await cache.flush();
  const added = fs.readdirSync(dir).filter(f => !before.has(f) && f.startsWith('prompts-'));
  assert.equal(added.length, 1, `one file for ${name}`);
  return added[0];
}

function age(dir: string, file: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  fs.utimesSync(path.join(dir, file), t, t);
}

test('a saved list nobody read or wrote for 30 days is deleted; one a window showed since is kept, as are the key and eras', async () => {
  const dir = folder();
  const cache = new PromptCache(new FolderStorage(dir));
  const shown = await save(cache, dir, 'shown');
  const gone = await save(cache, dir, 'gone');
  const recent = await save(cache, dir, 'recent');
  cache.eraStore().save(new Map());
  await cache.flush();
  for (const f of [shown, gone, 'key.json', 'eras.json']) age(dir, f, 40 * DAY);
  age(dir, recent, 29 * DAY);
  const leftover = `${gone}.4242.0123abcd.tmp`;
  fs.writeFileSync(path.join(dir, leftover), 'half a write');
  age(dir, leftover, 2 * DAY);

  // A window whose configuration has `shown`: its list is read (and shown) at once.
  const window = new PromptCache(new FolderStorage(dir));
  const catalog = new Catalog({ start: 'eager', startServers: 'onDemand', cache: window });
  catalog.setServers([server('shown')]);
  assert.equal(catalog.server('shown')!.cached, true);
  await window.flush();
  await catalog.dispose();

  assert.equal(await window.prune(), 2);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['eras.json', 'key.json', recent, shown].sort());
});

test('beyond the cap of saved lists the least recently used go first', async () => {
  const dir = folder();
  const cache = new PromptCache(new FolderStorage(dir));
  const files: string[] = [];
  for (let i = 0; i < PRUNE_LIMITS.maxLists + 2; i++) files.push(await save(cache, dir, `s${i}`));
  // s0 was used a day ago, s1 two days ago, …: the two used longest ago are the last two.
  files.forEach((f, i) => age(dir, f, (i + 1) * 3600 * 1000));
  assert.equal(await cache.prune(), 2);
  const left = new Set(fs.readdirSync(dir));
  assert.deepEqual(
    files.filter(f => !left.has(f)),
    files.slice(-2),
    'the two least recently used lists were deleted',
  );
});

test('beyond the byte cap the least recently used lists go first', async () => {
  const dir = folder();
  const cache = new PromptCache(new FolderStorage(dir));
  const files = [await save(cache, dir, 'old'), await save(cache, dir, 'mid'), await save(cache, dir, 'new')];
  files.forEach((f, i) => age(dir, f, (3 - i) * DAY));
  const size = fs.statSync(path.join(dir, files[0])).size;
  assert.equal(await cache.prune({ ...PRUNE_LIMITS, maxBytes: size * 2 + 10 }), 1);
  assert.equal(fs.existsSync(path.join(dir, files[0])), false, 'the oldest went');
  assert.ok(fs.existsSync(path.join(dir, files[2])));
});

test('a damaged list file is pruned by its time like any other', async () => {
  const dir = folder();
  const cache = new PromptCache(new FolderStorage(dir));
  const f = await save(cache, dir, 'x');
  fs.writeFileSync(path.join(dir, f), 'not json');
  age(dir, f, 31 * DAY);
  assert.equal(await new PromptCache(new FolderStorage(dir)).prune(), 1);
  assert.equal(fs.existsSync(path.join(dir, f)), false);
});

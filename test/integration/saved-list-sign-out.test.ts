// A `private` saved prompt list (cacheScope) belongs to the user signed in when it was listed: it goes
// when that sign-in goes. Against the real OAuth fixture (test/fixtures/oauth.mjs with caching hints),
// our loopback listener and saved lists in a temp folder. Each "window" is a new catalog over the same
// secret store and storage folder, as windows of one VS Code share SecretStorage and global storage.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Catalog } from '../../src/core/catalog/catalog';

import { OAuthCallbackServer, StoredOAuthProvider } from '../../src/core/protocol/transport/oauth';
import { MemorySecrets } from '../memory-secrets';
import { FolderStorage } from '../../src/core/catalog/cache-storage';
import { PromptCache } from '../../src/core/catalog/prompt-cache';
import { signInCallback } from '../../src/core/catalog/sign-in';
import { RecordingLog, defs, launch, rejection, waitFor, getLine } from './helpers';

interface Window {
  catalog: Catalog;
  cache: PromptCache;
  log: RecordingLog;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An OAuth fixture with caching hints, the shared secrets and storage, and a way to open windows on them. */
async function world(scope: 'private' | 'public') {
  const L = await launch();
  const server = await L.startOAuthServer({ args: ['--cache-scope', scope, '--ttl', '600000'] });
  cleanups.push(() => server.close());
  const secrets = new MemorySecrets();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-signout-'));
  const folder = path.join(dir, 'store');
  // One loopback listener for the windows: the browser comes back to the one that started the sign-in.
  let current: Catalog | undefined;
  const callback = new OAuthCallbackServer(query => signInCallback(current!)(query));
  const redirect = `http://127.0.0.1:${await callback.start()}/oauth/callback`;
  cleanups.push(() => callback.dispose());

  const open = (): Window => {
    const cache = new PromptCache(new FolderStorage(folder), { identity: 'ada@box' });
    const log = new RecordingLog();
    const catalog = new Catalog({
      start: 'eager',
      startServers: 'onDemand',
      cache,
      debounceMs: 50,
      connection: def => ({
        log,
        restart: false,
        oauth: new StoredOAuthProvider(`${def.id}:${server.url}`, secrets, redirect, { server: def.name }),
      }),
    });
    cleanups.push(() => catalog.dispose());
    current = catalog;
    catalog.setServers(defs({ s: { type: 'http', url: server.url } }));
    return { catalog, cache, log };
  };

  const savedFiles = () => (fs.existsSync(folder) ? fs.readdirSync(folder).filter(f => f.startsWith('prompts-')) : []);

  /** The first window: the user signs in (the browser follows the authorization page back), the list is saved. */
  const signIn = async () => {
    const w = open();
    const entry = w.catalog.server('s')!;
    await waitFor(() => entry.connection.authorizationUrl, 'the server asks for a sign-in');
    const page = await fetch(entry.connection.authorizationUrl!);
    assert.match(await page.text(), /Signed in to s/);
    await waitFor(() => entry.prompts.length === 1 && !entry.loading && !entry.cached, 'the list after sign-in');
    await w.cache.flush();
    await w.catalog.dispose();
    assert.equal(savedFiles().length, 1, `the ${scope} list is saved`);
  };

  return { server, secrets, open, savedFiles, signIn };
}

test('signing out (the Sign Out command) deletes a private saved list and hides its prompts; a public list stays', async () => {
  for (const scope of ['private', 'public'] as const) {
    const w0 = await world(scope);
    await w0.signIn();
    const w = w0.open();
    const entry = w.catalog.server('s')!;
    assert.deepEqual(
      entry.prompts.map(p => p.invocationName),
      ['s.whoami'],
      `${scope}: the saved list is shown at once`,
    );
    assert.equal(entry.cached, true);
    // What the Sign Out command does (src/commands/servers.ts).
    await entry.connection.signOut();
    await w.cache.flush();
    if (scope === 'private') {
      assert.deepEqual(entry.prompts, [], 'the signed-out user’s prompts are no longer shown');
      assert.equal(entry.cached, false);
      assert.deepEqual(w0.savedFiles(), [], 'the private list is deleted');
      assert.equal(
        w.log.lines.filter(l => l.message === 's: signed out; its private prompt list was dropped').length,
        1,
        'the server log says why, once',
      );
    } else {
      assert.deepEqual(
        entry.prompts.map(p => p.prompt.name),
        ['whoami'],
        'a public list is the same for every user',
      );
      assert.equal(w0.savedFiles().length, 1, 'the public list is kept');
    }
    await w.catalog.dispose();
    const next = w0.open();
    assert.equal(next.catalog.server('s')!.cached, scope === 'public', `${scope}: the next window`);
    await next.catalog.dispose();
  }
});

test('a sign-in revoked at the authorization server (the server asks for a new one) drops the private list', async () => {
  const w0 = await world('private');
  await w0.signIn();
  const w = w0.open();
  const entry = w.catalog.server('s')!;
  assert.equal(entry.cached, true);
  assert.match(JSON.stringify((await getLine(w.catalog, 's.whoami')).result), /Signed in as/);
  assert.equal(entry.prompts.length, 1, 'still signed in: the list stays');
  const revoked = await fetch(new URL('/revoke', w0.server.url), { method: 'POST' });
  assert.equal(revoked.status, 204);
  assert.equal((await rejection(getLine(w.catalog, 's.whoami'))).message, 's needs you to sign in');
  await w.cache.flush();
  assert.deepEqual(entry.prompts, [], 'the prompts of the lapsed sign-in are no longer shown');
  assert.deepEqual(w0.savedFiles(), [], 'the private list is deleted');
});

test('a sign-out in another window (its tokens leave the shared secret store) drops the private list here too', async () => {
  const w0 = await world('private');
  await w0.signIn();
  const here = w0.open();
  const elsewhere = w0.open();
  const entry = here.catalog.server('s')!;
  assert.equal(entry.cached, true);
  await elsewhere.catalog.server('s')!.connection.signOut();
  await waitFor(() => !entry.prompts.length, 'this window hides the private prompts');
  await here.cache.flush();
  await elsewhere.cache.flush();
  assert.deepEqual(w0.savedFiles(), []);
  assert.equal(entry.connection.state.kind, 'stopped', 'this window did not start the server for it');
});

// OAuth against a real authorization server (test/fixtures/oauth.mjs: the SDK's auth router, dynamic
// client registration, PKCE) and our real loopback listener. The "browser" is a fetch that follows
// /authorize to the redirect, which is what the user's browser does after they sign in. The secret store is a Map here; the extension
// passes VS Code's SecretStorage (tested in the host by test/e2e/oauth.e2e.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog';
import { invokePrompt } from '../../src/core/invocation';
import { OAuthCallbackServer, StoredOAuthProvider, type SecretStore } from '../../src/core/oauth';
import { signInCallback } from '../../src/core/sign-in';
import { RecordingLog, defs, launch, rejection } from './helpers';

class MapStore implements SecretStore {
  readonly map = new Map<string, string>();
  async get(key: string) { return this.map.get(key); }
  async store(key: string, value: string) { this.map.set(key, value); }
  async delete(key: string) { this.map.delete(key); }
}

/** A catalog with one OAuth server and the loopback listener the browser comes back to. */
async function catalogFor(url: string, store: MapStore, log = new RecordingLog()): Promise<{ catalog: Catalog; callback: OAuthCallbackServer; redirect: string }> {
  let catalog: Catalog | undefined;
  const callback = new OAuthCallbackServer(query => signInCallback(catalog!)(query));
  const redirect = `http://127.0.0.1:${await callback.start()}/oauth/callback`;
  catalog = new Catalog({ start: 'lazy', connection: def => ({ log, restart: false, oauth: new StoredOAuthProvider(`${def.id}:${url}`, store, redirect) }) });
  catalog.setServers(defs({ s: { type: 'http', url } }));
  return { catalog, callback, redirect };
}

test('OAuth: sign-in needed, the browser comes back with a code, tokens kept and reused; sign-out forgets them', async () => {
  const L = await launch();
  const server = await L.startOAuthServer();
  const store = new MapStore();
  try {
    await signInAndRun(server.url, store);
    // A new session (new catalog, same store): connects with the stored tokens, no sign-in.
    const { catalog: second, callback } = await catalogFor(server.url, store);
    try {
      assert.match(JSON.stringify((await invokePrompt(second, { line: 's.whoami' }))!.result), /Signed in as OAuth client/);
      assert.equal((server.stderr().match(/authorized /g) ?? []).length, 1, 'one sign-in only');
      await second.server('s')!.connection.signOut();
      assert.equal(store.map.has(`oauth:s:${server.url}:tokens`), false, 'tokens forgotten');
      assert.equal((await rejection(invokePrompt(second, { line: 's.whoami' }))).message, 's needs you to sign in');
      assert.ok(second.server('s')!.connection.authorizationUrl, 'a new sign-in is offered');
    } finally {
      await second.dispose();
      callback.dispose();
    }
  } finally {
    await server.close();
  }
});

test('OAuth callback: a forged state or a refusal is answered in plain text and changes nothing', async () => {
  const L = await launch();
  const server = await L.startOAuthServer();
  const { catalog, callback, redirect } = await catalogFor(server.url, new MapStore());
  try {
    await catalog.ready();
    const forged = await fetch(`${redirect}?code=abc&state=forged`);
    assert.equal(forged.status, 400);
    assert.equal(forged.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await forged.text(), 'This sign-in was not started by MCP Prompts, or it has expired. Start it again from VS Code.');
    const state = catalog.server('s')!.connection.authorizationUrl!.searchParams.get('state');
    const refused = await fetch(`${redirect}?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=${state}`);
    assert.equal(await refused.text(), 's: the sign-in was refused: <b>no</b>');
    assert.equal(catalog.server('s')!.connection.status, 'error');
    assert.equal((await fetch(redirect.replace('/oauth/callback', '/other'))).status, 404);
  } finally {
    await catalog.dispose();
    callback.dispose();
    await server.close();
  }
});

async function signInAndRun(url: string, store: MapStore): Promise<void> {
  const log = new RecordingLog();
  const { catalog, callback, redirect } = await catalogFor(url, store, log);
  try {
    await catalog.ready();
    const entry = catalog.server('s')!;
    assert.equal(entry.listError?.message, 's needs you to sign in');
    const authorizationUrl = entry.connection.authorizationUrl;
    assert.ok(authorizationUrl, 'an authorization URL to open');
    assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorizationUrl.searchParams.get('redirect_uri'), redirect);

    // The user's browser: the authorization page approves and sends it back to our listener.
    const page = await fetch(authorizationUrl);
    assert.equal(page.url.split('?')[0], redirect);
    assert.equal(await page.text(), 'Signed in to s. You can close this page and return to VS Code.');
    assert.equal(entry.connection.status, 'running');
    assert.equal(entry.connection.authorizationUrl, undefined);
    // Right after signing in, the prompt runs: the catalog lists again instead of answering "sign in".
    const r = await invokePrompt(catalog, { line: 's.whoami' });
    assert.match(JSON.stringify(r!.result), /Signed in as OAuth client [0-9a-f-]{36}/);

    const tokens = JSON.parse(store.map.get(`oauth:s:${url}:tokens`)!);
    assert.equal(tokens.token_type, 'bearer');
    assert.ok(!log.text().includes(tokens.access_token), 'the access token is not in the log');
  } finally {
    await catalog.dispose();
    callback.dispose();
  }
}

// OAuth against a real authorization server (test/fixtures/oauth.mjs: the SDK's auth router, dynamic
// client registration, PKCE) and our real loopback listener. The "browser" is a fetch that follows
// /authorize to the redirect, which is what the user's browser does after they sign in. The secret store is a Map here; the extension
// passes VS Code's SecretStorage (tested in the host by test/e2e/oauth.e2e.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog/catalog';

import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import { substituteVariables } from '../../src/core/config/substitute-variables';
import { platformOf } from '../../src/core/platform';
import * as oauth from '../../src/core/protocol/transport/oauth';
import {
  OAuthCallbackServer,
  StoredOAuthProvider,
  type OAuthProviderOptions,
} from '../../src/core/protocol/transport/oauth';
import { MemorySecrets } from '../memory-secrets';
import { signInCallback } from '../../src/core/catalog/sign-in';
import { RecordingLog, defs, launch, rejection, getLine } from './helpers';

/** A catalog with one OAuth server and the loopback listener the browser comes back to. */
async function catalogFor(
  url: string,
  store: MemorySecrets,
  log = new RecordingLog(),
  servers: ServerDefinition[] = defs({ s: { type: 'http', url } }),
): Promise<{ catalog: Catalog; callback: OAuthCallbackServer; redirect: string }> {
  let catalog: Catalog | undefined;
  const callback = new OAuthCallbackServer(query => signInCallback(catalog!)(query));
  const redirect = `http://127.0.0.1:${await callback.start()}/oauth/callback`;
  // As the extension builds it (src/extension.ts): the pre-registered client comes from the entry.
  const options = (def: ServerDefinition): OAuthProviderOptions =>
    def.transport.type === 'stdio'
      ? {}
      : { server: def.name, clientId: def.transport.clientId, clientSecret: def.transport.clientSecret };
  catalog = new Catalog({
    start: 'lazy',
    connection: def => ({
      log,
      restart: false,
      oauth: new StoredOAuthProvider(`${def.id}:${url}`, store, redirect, options(def)),
    }),
  });
  catalog.setServers(servers);
  return { catalog, callback, redirect };
}

type OAuthFixture = Awaited<ReturnType<Awaited<ReturnType<typeof launch>>['startOAuthServer']>>;
interface Session {
  catalog: Catalog;
  redirect: string;
}

/** Runs `body` on a catalogFor(...) catalog and disposes it and its loopback listener after. */
async function withCatalog<T>(
  url: string,
  store: MemorySecrets,
  body: (session: Session) => Promise<T>,
  log?: RecordingLog,
  servers?: ServerDefinition[],
): Promise<T> {
  const { catalog, callback, redirect } = await catalogFor(url, store, log, servers);
  try {
    return await body({ catalog, redirect });
  } finally {
    await catalog.dispose();
    callback.dispose();
  }
}

/** Starts the fixture with `args` and a catalog on it that has listed once (so it waits for a sign-in), runs `body`, closes both. */
async function withPendingSignIn(
  args: string[],
  body: (session: Session & { server: OAuthFixture; store: MemorySecrets }) => Promise<void>,
  log?: RecordingLog,
): Promise<void> {
  const L = await launch();
  const server = await L.startOAuthServer({ args });
  const store = new MemorySecrets();
  try {
    await withCatalog(
      server.url,
      store,
      async session => {
        await session.catalog.ready();
        await body({ ...session, server, store });
      },
      log,
    );
  } finally {
    await server.close();
  }
}

test('OAuth: sign-in needed, the browser comes back with a code, tokens kept and reused; sign-out forgets them', async () => {
  const L = await launch();
  const server = await L.startOAuthServer();
  const store = new MemorySecrets();
  try {
    assert.match(await signInAndRun(server.url, store), /Signed in as OAuth client [0-9a-f-]{36}/);
    // A new session (new catalog, same store): connects with the stored tokens, no sign-in.
    await withCatalog(server.url, store, async ({ catalog: second }) => {
      assert.match(JSON.stringify((await getLine(second, 's.whoami')).result), /Signed in as OAuth client/);
      assert.equal((server.stderr().match(/authorized /g) ?? []).length, 1, 'one sign-in only');
      await second.server('s')!.connection.signOut();
      assert.equal(store.map.has(`oauth:s:${server.url}:tokens`), false, 'tokens forgotten');
      assert.equal((await rejection(getLine(second, 's.whoami'))).message, 's needs you to sign in');
      assert.ok(second.server('s')!.connection.authorizationUrl, 'a new sign-in is offered');
    });
  } finally {
    await server.close();
  }
});

test('OAuth callback: a forged state or a refusal is answered in plain text and changes nothing', async () => {
  await withPendingSignIn([], async ({ catalog, redirect }) => {
    const forged = await fetch(`${redirect}?code=abc&state=forged`);
    assert.equal(forged.status, 400);
    assert.equal(forged.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(
      await forged.text(),
      'This sign-in was not started by MCP Prompts, or it has expired. Start it again from VS Code.',
    );
    const state = catalog.server('s')!.connection.authorizationUrl!.searchParams.get('state');
    const refused = await fetch(
      `${redirect}?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=${state}`,
    );
    assert.equal(await refused.text(), 's: the sign-in was refused: <b>no</b>');
    assert.equal(catalog.server('s')!.connection.state.kind, 'signIn', 'still waiting for a sign-in');
    assert.equal((await fetch(redirect.replace('/oauth/callback', '/other'))).status, 404);
  });
});

/** Signs in through the fixture and runs `s.whoami`; resolves the prompt's text. */
async function signInAndRun(
  url: string,
  store: MemorySecrets,
  servers?: ServerDefinition[],
  log = new RecordingLog(),
): Promise<string> {
  return withCatalog(
    url,
    store,
    async ({ catalog, redirect }) => {
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
      assert.equal(entry.connection.state.kind, 'running');
      assert.equal(entry.connection.authorizationUrl, undefined);
      // Right after signing in, the prompt runs: the catalog lists again instead of answering "sign in".
      const r = await getLine(catalog, 's.whoami');
      const text = JSON.stringify(r.result);
      assert.match(text, /Signed in as OAuth client /);

      const [, tokenText] = [...store.map].find(([k]) => k.startsWith(`oauth:s:${url}`) && k.endsWith(':tokens'))!;
      const tokens = JSON.parse(tokenText) as { token_type?: string; access_token: string };
      assert.equal(tokens.token_type, 'bearer');
      assert.ok(!log.text().includes(tokens.access_token), 'the access token is not in the log');
      assert.equal(
        [...store.map.keys()].some(k => k.endsWith(':discovery')),
        false,
        'discovery is kept only while a sign-in is under way',
      );
      return text;
    },
    log,
    servers,
  );
}

test('Authorization URL: only https, or http to this computer, is opened; the refusal names the server', () => {
  const refuse = oauth.refuseAuthorizationUrl;
  for (const ok of [
    'https://auth.example.com/authorize?x=1',
    'http://127.0.0.1:8080/authorize',
    'http://127.5.0.1/a',
    'http://localhost:3000/a',
    'http://[::1]:9000/a',
  ]) {
    assert.equal(refuse(new URL(ok), 'srv'), undefined, ok);
  }
  for (const bad of [
    'http://auth.example.com/authorize',
    'http://127.0.0.1.evil.example/a',
    'file:///etc/passwd',
    'vscode://vscode.git/clone?url=x',
    'command:workbench.action.terminal.new',
    'javascript:alert(1)',
    'data:text/html,hi',
    'ftp://auth.example.com/',
  ]) {
    const refused = refuse(new URL(bad), 'srv');
    assert.ok(refused, bad);
    assert.equal(refused.server, 'srv');
    assert.match(
      refused.message,
      /^srv: the sign-in address .* is refused: only https addresses \(or http to this computer\) are opened$/,
    );
  }
  assert.equal(
    refuse(new URL('command:x?secret=1'), 'srv')!.message.includes('secret'),
    false,
    'the query is not repeated',
  );
});

test('OAuth: a server whose metadata points the browser at command: or file: gets no sign-in address; the error says why', async () => {
  for (const endpoint of ['command:workbench.action.terminal.new', 'file:///etc/passwd']) {
    await withPendingSignIn(['--authorization-endpoint', endpoint], async ({ catalog }) => {
      const entry = catalog.server('s')!;
      assert.equal(entry.connection.authorizationUrl, undefined, 'nothing to open');
      assert.equal(
        entry.listError?.message,
        `s: the sign-in address ${endpoint} is refused: only https addresses (or http to this computer) are opened`,
      );
      assert.equal(entry.connection.state.kind, 'error');
    });
  }
});

test('OAuth (RFC 8414 §3.3): an authorization server whose metadata names another issuer is refused before any registration; the message names both', async () => {
  await withPendingSignIn(['--metadata-issuer', 'https://elsewhere.example/'], async ({ catalog, server }) => {
    const entry = catalog.server('s')!;
    assert.equal(entry.connection.authorizationUrl, undefined, 'nothing to open');
    assert.equal(
      entry.listError?.message,
      `s: the sign-in was refused: the metadata of its authorization server http://127.0.0.1:${server.port}/ names another issuer (https://elsewhere.example/)`,
    );
    assert.doesNotMatch(server.stderr(), /registered /);
  });
});

test("OAuth: tokens and the client registration are stored with the SDK's issuer stamp and handed back unchanged", async () => {
  const L = await launch();
  const server = await L.startOAuthServer();
  const store = new MemorySecrets();
  try {
    assert.match(await signInAndRun(server.url, store), /Signed in as OAuth client /);
    const issuer = `http://127.0.0.1:${server.port}/`;
    const [tokensKey] = [...store.map.keys()].filter(k => k.endsWith(':tokens'));
    const [clientKey] = [...store.map.keys()].filter(k => k.endsWith(':client'));
    const saved = JSON.parse(store.map.get(tokensKey)!) as { issuer?: string; access_token?: string };
    assert.equal(saved.issuer, issuer);
    assert.equal((JSON.parse(store.map.get(clientKey)!) as { issuer?: string }).issuer, issuer);
    const provider = new StoredOAuthProvider(
      tokensKey.replace(/^oauth:/, '').replace(/:tokens$/, ''),
      store,
      'http://127.0.0.1/oauth/callback',
    );
    assert.deepEqual(await provider.tokens(), saved);
  } finally {
    await server.close();
  }
});

test('OAuth callback: a replayed redirect (same state and code) is refused and leaves the signed-in server alone', async () => {
  await withPendingSignIn([], async ({ catalog, server, store }) => {
    const first = await fetch(catalog.server('s')!.connection.authorizationUrl!);
    assert.equal(first.status, 200);
    const tokens = store.map.get(`oauth:s:${server.url}:tokens`);
    assert.ok(tokens);
    const replay = await fetch(first.url);
    assert.equal(replay.status, 400);
    assert.equal(
      await replay.text(),
      'This sign-in was not started by MCP Prompts, or it has expired. Start it again from VS Code.',
    );
    assert.equal(store.map.get(`oauth:s:${server.url}:tokens`), tokens, 'the tokens are kept');
    assert.equal(catalog.server('s')!.connection.state.kind, 'running');
    assert.equal((server.stderr().match(/token issued/g) ?? []).length, 1, 'the code is exchanged once');
  });
});

test('OAuth (RFC 9207): a redirect with the right iss signs in; another iss, or none when the metadata promises one, is refused', async () => {
  const L = await launch();
  const good = await L.startOAuthServer({ args: ['--iss', 'send'] });
  try {
    assert.match(await signInAndRun(good.url, new MemorySecrets()), /Signed in as OAuth client/);
  } finally {
    await good.close();
  }
  for (const mode of ['wrong', 'omit', 'wrong-unadvertised']) {
    await withPendingSignIn(['--iss', mode], async ({ catalog, server, store }) => {
      const entry = catalog.server('s')!;
      const before = entry.connection.authorizationUrl!;
      const page = await fetch(before);
      assert.equal(page.status, 400, mode);
      const issuer = `http://127.0.0.1:${server.port}/`;
      assert.equal(
        await page.text(),
        mode !== 'omit'
          ? `s: the sign-in was refused: the answer comes from https://attacker.example/, not from ${issuer}`
          : `s: the sign-in was refused: the answer does not name its authorization server (iss), which ${issuer} promises`,
      );
      assert.equal((server.stderr().match(/token issued/g) ?? []).length, 0, 'no code exchanged');
      assert.equal(store.map.has(`oauth:s:${server.url}:tokens`), false);
      assert.equal(entry.connection.state.kind, 'signIn', 'still waiting for a sign-in');
      const after = entry.connection.authorizationUrl;
      assert.ok(
        after && after.searchParams.get('state') !== before.searchParams.get('state'),
        'a fresh sign-in is offered',
      );
    });
  }
});

test('OAuth: protected-resource metadata only at the WWW-Authenticate resource_metadata URL; the redirect leg finds it again', async () => {
  const L = await launch();
  const server = await L.startOAuthServer({ args: ['--resource-metadata-only'] });
  try {
    assert.match(await signInAndRun(server.url, new MemorySecrets()), /Signed in as OAuth client [0-9a-f-]{36}/);
    assert.equal((server.stderr().match(/registered /g) ?? []).length, 1, 'registered once');
  } finally {
    await server.close();
  }
});

test('OAuth: a pre-registered client (clientId, clientSecret from an input) signs in where there is no dynamic registration', async () => {
  const L = await launch();
  const secret = 'pre-registered-s3cret';
  const server = await L.startOAuthServer({ args: ['--client-id', 'mcp-prompts-test', '--client-secret', secret] });
  const store = new MemorySecrets();
  const log = new RecordingLog();
  try {
    const [raw] = defs({
      s: { type: 'http', url: server.url, clientId: 'mcp-prompts-test', clientSecret: '${input:oauth-secret}' },
    });
    const def = await substituteVariables(
      raw,
      { platform: platformOf('linux', {}, '') },
      [{ id: 'oauth-secret', type: 'promptString', password: true }],
      async (_input, id) => (id === 'oauth-secret' ? secret : undefined),
    );
    assert.deepEqual(def.transport.type !== 'stdio' && [def.transport.clientId, def.transport.clientSecret], [
      'mcp-prompts-test',
      secret,
    ]);
    assert.match(await signInAndRun(server.url, store, [def], log), /Signed in as OAuth client mcp-prompts-test/);
    assert.doesNotMatch(server.stderr(), /registered /, 'no dynamic registration');
    assert.ok(![...store.map.values()].some(v => v.includes(secret)), 'the secret is not copied into the token store');
    assert.ok(!log.text().includes(secret), 'the secret is not in the log');
  } finally {
    await server.close();
  }
  // Without the client id the same server cannot be used, and the message says so.
  await withPendingSignIn(['--client-id', 'mcp-prompts-test', '--client-secret', secret], async ({ catalog }) => {
    assert.match(catalog.server('s')!.listError!.message, /^s failed on startup: .*(registration|register)/i);
  });
});

test('Config: clientSecret needs a clientId (the entry is reported, the others load)', () => {
  const config = parseConfigObject(
    {
      servers: {
        s: { type: 'http', url: 'https://x.example/mcp', clientSecret: 'abc' },
        ok: { type: 'http', url: 'https://y.example/mcp' },
      },
    },
    'user',
  );
  assert.deepEqual(
    config.problems.map(p => p.message),
    ['Server "s": "clientId" is required'],
  );
  assert.deepEqual(
    config.servers.map(d => d.name),
    ['ok'],
  );
});

test('OAuth: a server that asks for sign-in only after initialize (on prompts/list) says "needs you to sign in" too, and the sign-in works', async () => {
  const L = await launch();
  const server = await L.startOAuthServer({ args: ['--open-initialize'] });
  try {
    assert.match(await signInAndRun(server.url, new MemorySecrets()), /Signed in as OAuth client [0-9a-f-]{36}/);
    assert.match(server.stderr(), /401 \(no token\) on prompts\/list/);
  } finally {
    await server.close();
  }
});

test('OAuth callback: what the redirect says (error_description, iss) cannot forge lines in the log or the page', async () => {
  const log = new RecordingLog();
  await withPendingSignIn(
    [],
    async ({ catalog, redirect, server }) => {
      const state = catalog.server('s')!.connection.authorizationUrl!.searchParams.get('state');
      const forged = 'denied\n[error] s: signed in as admin\u001b[2J';
      const page = await fetch(
        `${redirect}?error=access_denied&error_description=${encodeURIComponent(forged)}&iss=${encodeURIComponent(`http://127.0.0.1:${server.port}/`)}&state=${state}`,
      );
      assert.equal(await page.text(), 's: the sign-in was refused: denied?[error] s: signed in as admin?[2J');
      assert.ok(
        log.lines.every(l => !l.message.includes('\n') && !l.message.includes('\u001b')),
        'one line each, no escape sequences',
      );
      assert.ok(
        log.lines.some(
          l =>
            l.level === 'warn' && l.message === 's: the sign-in was refused: denied?[error] s: signed in as admin?[2J',
        ),
      );
      const next = catalog.server('s')!.connection.authorizationUrl!.searchParams.get('state');
      const issPage = await fetch(
        `${redirect}?code=x&iss=${encodeURIComponent('https://evil.example/\n[info] ok')}&state=${next}`,
      );
      assert.equal(
        await issPage.text(),
        `s: the sign-in was refused: the answer comes from https://evil.example/?[info] ok, not from http://127.0.0.1:${server.port}/`,
      );
      assert.ok(
        log.lines.every(l => !l.message.includes('\n') && !l.message.includes('\u001b')),
        'one line each, no escape sequences',
      );
    },
    log,
  );
});

const occurrences = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

test('OAuth: a 401 on the version probe starts the one sign-in, even when registration takes 6 s; after it the probe is asked again', async () => {
  const L = await launch();
  // Slower than the probe's old 5 s bound: the 2025 handshake used to go out beside it, with a sign-in of its own.
  const server = await L.startOAuthServer({ args: ['--slow-registration', '6000'] });
  const log = new RecordingLog();
  try {
    await withCatalog(
      server.url,
      new MemorySecrets(),
      async ({ catalog }) => {
        await catalog.ready();
        const entry = catalog.server('s')!;
        assert.equal(entry.listError?.message, 's needs you to sign in');
        assert.equal(log.sentMethods('server/discover').length, 1);
        assert.equal(log.sentMethods('initialize').length, 0, 'no 2025 handshake beside the sign-in');
        const page = await fetch(entry.connection.authorizationUrl!);
        assert.equal(await page.text(), 'Signed in to s. You can close this page and return to VS Code.');
        assert.equal(entry.connection.state.kind, 'running');
        assert.equal(log.sentMethods('server/discover').length, 2, 'the probe is asked again after the sign-in');
        assert.equal(occurrences(server.stderr(), /\bregistered /g), 1, 'one registration');
        assert.equal(occurrences(server.stderr(), /\bauthorized /g), 1, 'one sign-in');
      },
      log,
    );
  } finally {
    await server.close();
  }
});

test('OAuth: two requests refused at once start one sign-in; the second waits for it, and after it both work', async () => {
  const L = await launch();
  const server = await L.startOAuthServer({ args: ['--open-initialize'] });
  try {
    await withCatalog(server.url, new MemorySecrets(), async ({ catalog }) => {
      const connection = catalog.server('s')!.connection;
      await connection.connect();
      const refused = await Promise.allSettled([
        connection.listPromptsPage(undefined),
        connection.getPrompt('whoami', {}),
      ]);
      assert.deepEqual(
        refused.map(r => (r.status === 'rejected' ? (r.reason as Error).message : 'answered')),
        ['s needs you to sign in', 's needs you to sign in'],
      );
      assert.equal(occurrences(server.stderr(), /\bregistered /g), 1, 'one registration for both');
      const url = connection.authorizationUrl!;
      const page = await fetch(url);
      assert.equal(await page.text(), 'Signed in to s. You can close this page and return to VS Code.');
      assert.match(JSON.stringify(await connection.listPromptsPage(undefined)), /"name":"whoami"/);
      assert.match(JSON.stringify(await connection.getPrompt('whoami', {})), /Signed in as OAuth client /);
      assert.equal(occurrences(server.stderr(), /\bauthorized /g), 1, 'one sign-in');
    });
  } finally {
    await server.close();
  }
});

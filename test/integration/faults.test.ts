// The fault matrix: misbehaving servers (test/fixtures/faulty.mjs and friends, each a real process over
// real stdio or HTTP) and the exact message a user sees. Every case is also a row of the table in
// docs/fault-matrix.md; the last test keeps the two in step.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Catalog, type ServerEntry } from '../../src/core/catalog/catalog';
import type { RestartPolicy } from '../../src/core/protocol/connection/connection';
import { stateError } from '../../src/core/protocol/connection/connection-state';
import { PromptError } from '../../src/core/errors';
import { completeArgument } from '../../src/core/run/invocation';
import { toTranscript, type Part } from '../../src/core/render/content';
import { transcriptToMarkdown } from '../../src/core/render/markdown';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { inheritedNames } from '../../src/core/config/stdio-launch';
import { hostPlatform } from '../../src/core/platform';
import {
  ROOT,
  RecordingLog,
  launch,
  tempDir,
  testCatalog,
  waitFor,
  type Launch,
  type RunningServer,
  rejection,
  getLine,
} from './helpers';

const FAST_RESTART: RestartPolicy = { initialDelayMs: 50, maxDelayMs: 400, maxCrashes: 5, windowMs: 60000 };

interface Setup {
  catalog: Catalog;
  entry(id?: string): ServerEntry;
  log(id?: string): RecordingLog;
  stderr(id?: string): string;
}

/** A lazy catalog over `servers` (default id `s`), disposed after `body` whatever happens. */
async function withCatalog(
  servers: Record<string, unknown>,
  body: (s: Setup) => Promise<void>,
  restart: false | RestartPolicy = false,
  minStartupMs?: number,
): Promise<void> {
  const { catalog, entry, log, stderr } = testCatalog(servers, { restart, minStartupMs });
  try {
    await body({
      catalog,
      entry: (id = 's') => entry(id),
      log: (id = 's') => log(id),
      stderr: (id = 's') => stderr(id),
    });
  } finally {
    await catalog.dispose();
  }
}

/** The parts of the first message, as plain data (no `annotations: undefined`). */
const textParts = (result: { messages?: unknown[] }) =>
  JSON.parse(JSON.stringify(toTranscript(result).messages[0].parts)) as Array<Record<string, unknown>>;

const titles: string[] = [];
/** One row of the matrix. */
function fault(title: string, body: () => Promise<void>): void {
  titles.push(title);
  test(title, body);
}

let L: Launch;
before(async () => {
  L = await launch();
});
/** A faulty stdio server entry; `timeout` (ms) is the per-server request timeout. */
const faulty = (name: string, extra: Record<string, unknown> = {}) => ({ ...L.faultyCommand(name), ...extra });
const SHORT = { timeout: 1000 };
/** A start gets at least MIN_STARTUP_MS (10 s); the rows about startup itself lower that floor to keep the matrix fast. */
const STARTUP_FLOOR_1S = 1000;

async function listError(server: Record<string, unknown>, minStartupMs?: number): Promise<string | undefined> {
  let message: string | undefined;
  await withCatalog(
    { s: server },
    async ({ catalog, entry }) => {
      await catalog.ready();
      assert.equal(entry().prompts.length, 0);
      assert.equal(entry().connection.state.kind, 'error');
      message = entry().listError?.message;
      // The same message again when the user tries to run something from that server.
      assert.equal((await rejection(getLine(catalog, 's.hello name=Ada'))).message, message);
    },
    false,
    minStartupMs,
  );
  return message;
}

async function getError(server: Record<string, unknown>, line = 's.hello name=Ada'): Promise<PromptError> {
  let error: PromptError | undefined;
  await withCatalog({ s: server }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['hello', 'echo'],
    );
    error = await rejection(getLine(catalog, line));
  });
  return error!;
}

// ---- stdio: starting ----

fault('command not found', async () => {
  assert.equal(
    await listError({ command: 'mcp-prompts-no-such-command' }),
    's could not start: command not found (mcp-prompts-no-such-command)',
  );
});

fault('working directory missing', async () => {
  assert.equal(
    await listError(faulty('ok', { cwd: '/no/such/dir' })),
    's could not start: working directory not found (/no/such/dir)',
  );
});

fault('command not executable', async () => {
  const script = path.join(tempDir(), 'server.sh');
  fs.writeFileSync(script, '#!/bin/sh\n', { mode: 0o644 });
  assert.equal(await listError({ command: script }), `s could not start: permission denied (${script})`);
});

fault('env file missing', async () => {
  assert.equal(
    await listError(faulty('ok', { envFile: '/no/such/file.env' })),
    's could not start: env file not found (/no/such/file.env)',
  );
});

fault('exits before initialize', async () => {
  assert.equal(
    await listError(faulty('exit-at-start')),
    's closed the connection during startup (last stderr: faulty: cannot open /var/lib/faulty/state.db: no such file)',
  );
});

fault('exits during initialize', async () => {
  assert.equal(
    await listError(faulty('exit-on-initialize')),
    's closed the connection during startup (last stderr: [faulty exit-on-initialize] exiting on initialize)',
  );
});

fault('hangs on initialize', async () => {
  assert.equal(
    await listError(faulty('hang-on-initialize', SHORT), STARTUP_FLOOR_1S),
    's did not answer startup within 1 s',
  );
});

test('a 1 s request timeout does not bound startup: a stdio server that takes 1.5 s to boot starts and lists', async () => {
  const {
    args: [faultyMjs],
  } = L.faultyCommand('ok');
  // The server (and the version probe's sibling) boots slowly, as any server does on a loaded machine.
  const slowBoot = `setTimeout(() => { process.argv = [process.argv[0], ${JSON.stringify(faultyMjs)}, 'ok']; import(${JSON.stringify(pathToFileURL(faultyMjs).href)}); }, 1500);`;
  await withCatalog(
    { s: { command: process.execPath, args: ['-e', slowBoot], ...SHORT } },
    async ({ catalog, entry }) => {
      await catalog.ready();
      assert.equal(entry().listError?.message, undefined);
      assert.deepEqual(
        entry().prompts.map(p => p.prompt.name),
        ['hello', 'echo'],
      );
      assert.equal(entry().connection.state.kind, 'running');
    },
  );
});

fault('unsupported protocol version', async () => {
  assert.equal(
    await listError(faulty('bad-protocol')),
    "s failed on startup: Server's protocol version is not supported: 1999-01-01",
  );
});

fault('no prompts capability', async () => {
  await withCatalog({ s: faulty('no-prompts') }, async ({ catalog, entry, log }) => {
    await catalog.ready();
    assert.equal(entry().connection.state.kind, 'running');
    assert.deepEqual(entry().warnings, ['s offers no prompts']);
    assert.equal(log().sentMethods('prompts/list').length, 0, 'prompts/list is not asked of a server without prompts');
    assert.equal((await rejection(getLine(catalog, 's.hello'))).message, 's has no prompt "hello"');
  });
});

// ---- stdio: listing ----

fault('exits during list', async () => {
  assert.equal(
    await listError(faulty('exit-on-list')),
    's closed the connection during listing prompts (last stderr: [faulty exit-on-list] exiting on prompts/list)',
  );
});

fault('hangs on list', async () => {
  await withCatalog({ s: faulty('hang-on-list', SHORT) }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.equal(entry().listError?.message, 's did not answer listing prompts within 1 s');
    // The server itself is up: only its listing failed.
    assert.equal(entry().connection.state.kind, 'running');
  });
});

fault('one hanging server does not hold up another', async () => {
  await withCatalog({ slow: faulty('hang-on-list', { timeout: 15000 }), s: faulty('ok') }, async ({ catalog }) => {
    const slowReady = catalog.ready('slow');
    const result = await getLine(catalog, 's.hello name=Ada');
    assert.equal(catalog.server('slow')!.loading, true, 'the slow server is still listing');
    assert.deepEqual(textParts(result.result), [{ kind: 'text', text: 'Hello, Ada!' }]);
    await catalog.server('slow')!.connection.stop();
    await slowReady;
  });
});

fault('garbage on stdout before the first answer', async () => {
  await withCatalog({ s: faulty('garbage-before') }, async ({ catalog, entry, log }) => {
    await catalog.ready();
    assert.equal(entry().listError, undefined);
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['hello', 'echo'],
    );
    assert.ok(
      log().lines.some(l => l.level === 'warn' && l.message.startsWith('s: Unexpected token')),
      'the garbage is logged as a warning',
    );
  });
});

fault('garbage on stdout between messages', async () => {
  await withCatalog({ s: faulty('garbage-between') }, async ({ catalog }) => {
    for (const name of ['Ada', 'Grace']) {
      const r = await getLine(catalog, `s.hello name=${name}`);
      assert.deepEqual(textParts(r.result), [{ kind: 'text', text: `Hello, ${name}!` }]);
    }
  });
});

fault('malformed prompts in a page', async () => {
  await withCatalog({ s: faulty('malformed-prompt') }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.equal(entry().listError, undefined);
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['good_one', 'good_two'],
    );
    assert.deepEqual(entry().warnings, [
      's sent a malformed prompt ({"name":42}); it was skipped',
      's sent a malformed prompt ({"description":"no name"}); it was skipped',
      's sent a malformed prompt ("just a string"); it was skipped',
    ]);
  });
});

fault('duplicate prompt names on one server', async () => {
  await withCatalog({ s: faulty('duplicate-names') }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.deepEqual(
      entry().prompts.map(p => `${p.prompt.name}: ${p.prompt.description}`),
      ['dup: first', 'other: undefined'],
    );
    assert.deepEqual(entry().warnings, ['s lists the prompt "dup" more than once; the first one is used']);
  });
});

fault('the same prompt name on two servers', async () => {
  await withCatalog({ a: faulty('ok'), b: faulty('ok') }, async ({ catalog }) => {
    await catalog.ready();
    assert.equal(
      (await rejection(getLine(catalog, 'hello name=Ada'))).message,
      '"hello" is offered by several servers; use one of: a.hello, b.hello',
    );
    assert.equal((await getLine(catalog, 'b.hello name=Ada'))?.prompt.server.id, 'b');
  });
});

fault('names that sanitise alike (a/b, a b, a_b)', async () => {
  await withCatalog({ s: faulty('hostile-names') }, async ({ catalog, entry }) => {
    await catalog.ready();
    const byName = () =>
      Object.fromEntries(
        entry()
          .prompts.filter(p => p.prompt.name.startsWith('a'))
          .map(p => [p.prompt.name, p.invocationName]),
      );
    // The literal a_b keeps its name; the others get a suffix in a fixed order, not by list position.
    assert.deepEqual(byName(), { 'a/b': 's.a_b-3', 'a b': 's.a_b-2', a_b: 's.a_b' });
    assert.deepEqual(entry().warnings, []);
    for (const [name, invocation] of Object.entries(byName()))
      assert.equal((await catalog.findPrompt(invocation)).prompt.name, name);
    // A re-list gives every prompt the same name again.
    await catalog.refresh();
    assert.deepEqual(byName(), { 'a/b': 's.a_b-3', 'a b': 's.a_b-2', a_b: 's.a_b' });
  });
});

fault('look-alike prompt name (mixed scripts)', async () => {
  await withCatalog({ s: faulty('hostile-names') }, async ({ catalog, entry }) => {
    await catalog.ready();
    const marked = entry()
      .prompts.filter(p => p.mixedScripts)
      .map(p => [p.prompt.name, p.mixedScripts]);
    assert.deepEqual(marked, [['d\u0435ploy', ['Latin', 'Cyrillic']]]);
  });
});

fault('protocol error flood (unknown progress tokens and response ids)', async () => {
  await withCatalog({ s: faulty('protocol-noise') }, async ({ catalog, entry, log }) => {
    await catalog.ready();
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['hello', 'echo'],
    );
    const warnings = log().lines.filter(l => l.level === 'warn');
    assert.ok(
      warnings.some(l =>
        /^s: Received a (progress notification for an unknown token|response for an unknown message ID)/.test(
          l.message,
        ),
      ),
    );
    assert.ok(
      warnings.some(
        l => l.message === 's: more than 50 protocol errors a second: the rest of this second is not shown',
      ),
    );
    assert.ok(warnings.length < 500, `${warnings.length} warnings logged for 6,000 stray messages`);
    assert.ok(warnings.every(l => l.message.length <= 4000));
  });
});

fault('1,500 pages', async () => {
  await withCatalog({ s: faulty('many-pages') }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.equal(entry().listError?.message, 's sent more than 1000 pages of prompts; the rest was not read');
    assert.equal(entry().prompts.length, 1000, 'the pages read are kept');
  });
});

fault('repeated page cursor', async () => {
  await withCatalog({ s: faulty('repeated-cursor') }, async ({ catalog, entry }) => {
    await catalog.ready();
    assert.equal(entry().listError?.message, 's repeated the page cursor "again"; listing stopped');
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['page_1', 'page_2'],
    );
  });
});

fault('list_changed storm (1,000 in a second)', async () => {
  await withCatalog({ s: faulty('storm') }, async ({ catalog, entry, log, stderr }) => {
    await catalog.ready();
    await waitFor(() => /sent 1000 list_changed/.test(stderr()), 'the storm');
    await waitFor(
      () => log().sentMethods('prompts/list').length >= 2 && !entry().loading,
      'the re-list after the storm',
    );
    const stats = await getLine(catalog, 's.stats');
    const text = (toTranscript(stats.result).messages[0].parts[0] as { text: string }).text;
    const calls = Number(/prompts\/list calls: (\d+)/.exec(text)?.[1]);
    assert.ok(calls >= 2 && calls <= 3, `1,000 notifications cost ${calls - 1} re-list(s), not 1,000`);
  });
});

fault('message larger than 32 MB', async () => {
  assert.equal(
    await listError(faulty('huge-list')),
    's sent a message larger than 32 MB during listing prompts; the connection was closed',
  );
});

fault('stderr flood (20 MB)', async () => {
  await withCatalog({ s: faulty('stderr-flood') }, async ({ catalog, log, stderr }) => {
    const r = await getLine(catalog, 's.hello name=Ada');
    assert.deepEqual(textParts(r.result), [{ kind: 'text', text: 'Hello, Ada!' }]);
    await waitFor(() => /the rest of this second is not shown/.test(stderr()), 'the flood notice');
    // Mid-flood, requests still go through.
    assert.deepEqual(textParts((await getLine(catalog, 's.echo text=during')).result), [
      { kind: 'text', text: 'during' },
    ]);
    const lines = log().lines.filter(l => l.message.startsWith('[stderr] '));
    assert.ok(
      lines.every(l => l.message.length <= 4009),
      'each line is capped at 4,000 characters',
    );
    assert.ok(lines.length < 5000, `${lines.length} stderr lines logged for ~100,000 written`);
  });
});

// ---- stdio: getting a prompt ----

fault('exits during get', async () => {
  const err = await getError(faulty('exit-on-get'));
  assert.equal(
    err.message,
    's closed the connection during prompt "hello" (last stderr: [faulty exit-on-get] exiting on prompts/get)',
  );
  assert.equal(err.kind, 'server');
});

fault('hangs on get', async () => {
  await withCatalog({ s: faulty('hang-on-get', SHORT) }, async ({ catalog, stderr }) => {
    const err = await rejection(getLine(catalog, 's.hello name=Ada'));
    assert.equal(err.message, 's did not answer prompt "hello" within 1 s');
    // The SDK tells the server it gave up.
    await waitFor(() => /cancelled \d+/.test(stderr()), 'notifications/cancelled at the server');
  });
});

fault('answer under a wrong id', async () => {
  assert.equal((await getError(faulty('wrong-id', SHORT))).message, 's did not answer prompt "hello" within 1 s');
});

fault('invalid params error (-32602)', async () => {
  const err = await getError(faulty('error-invalid-params'));
  assert.equal(err.message, 's rejected prompt "hello": Missing required argument: name');
  assert.equal(err.kind, 'input');
});

fault('internal error (-32603)', async () => {
  const err = await getError(faulty('error-internal'));
  assert.equal(err.message, 's failed on prompt "hello": database is locked');
  assert.equal(err.kind, 'server');
});

fault('invalid result shape', async () => {
  assert.equal(
    (await getError(faulty('bad-result'))).message,
    's sent an invalid answer to prompt "hello": messages: Invalid input: expected array, received string',
  );
});

fault('server-sent sampling, roots and elicitation requests', async () => {
  await withCatalog({ s: faulty('server-requests') }, async ({ catalog }) => {
    const r = await getLine(catalog, 's.echo');
    // Questions are answered (here nothing can ask the user: cancel); sampling and roots are not offered.
    assert.deepEqual(textParts(r.result), [
      {
        kind: 'text',
        text: 'sampling/createMessage: error -32601; roots/list: error -32601; elicitation/create: cancel',
      },
    ]);
  });
});

fault('reply nested 100,000 levels deep', async () => {
  await withCatalog({ s: faulty('deep') }, async ({ catalog, entry, log }) => {
    const r = await getLine(catalog, 's.hello name=Ada');
    // A malformed prompt nested as deep costs a warning, not the listing.
    assert.deepEqual(
      entry().prompts.map(p => p.prompt.name),
      ['hello', 'echo'],
    );
    assert.deepEqual(entry().warnings, [
      `s sent a malformed prompt (${('{"name":' + '{"a":'.repeat(20)).slice(0, 80)}); it was skipped`,
    ]);
    assert.equal((toTranscript(r.result).messages[0].parts[0] as { text: string }).text, 'deep inside');
    // The trace holds the reply too (JSON.stringify alone throws at this depth).
    assert.ok(
      log().lines.some(
        l =>
          l.level === 'trace' &&
          l.message.startsWith('<- {"jsonrpc":"2.0","id":') &&
          l.message.includes('"deep inside","_meta":{"a":{"a":'),
      ),
    );
  });
});

// ---- stdio: completion ----

fault('more than 100 completions', async () => {
  await withCatalog({ s: faulty('many-completions') }, async ({ catalog }) => {
    const result = await completeArgument(await catalog.findPrompt('s.hello'), 'name', '', {});
    assert.equal(result.values.length, 100);
    assert.equal(result.values[99], 'v099');
    assert.equal(result.hasMore, true, 'the cut values are more to come');
  });
});

fault('exits during complete', async () => {
  await withCatalog({ s: faulty('exit-on-complete') }, async ({ catalog }) => {
    const hello = await catalog.findPrompt('s.hello');
    assert.equal(
      (await rejection(completeArgument(hello, 'name', 'A', {}))).message,
      's closed the connection during completion of "name" (last stderr: [faulty exit-on-complete] exiting on completion/complete)',
    );
  });
});

fault('hangs on complete', async () => {
  await withCatalog({ s: faulty('hang-on-complete', SHORT) }, async ({ catalog }) => {
    const hello = await catalog.findPrompt('s.hello');
    assert.equal(
      (await rejection(completeArgument(hello, 'name', 'A', {}))).message,
      's did not answer completion of "name" within 1 s',
    );
  });
});

fault('environment: SDK defaults, proxy, certificate and locale variables, plus the configured env only', async () => {
  process.env.MCP_PROMPTS_SHOULD_NOT_LEAK = 'secret-from-the-host';
  try {
    await withCatalog({ s: faulty('env', { env: { CONFIGURED: 'yes' } }) }, async ({ catalog }) => {
      const r = await getLine(catalog, 's.env');
      const names = (textParts(r.result)[0].text as string).split(' ');
      const allowed = new Set([
        ...Object.keys(getDefaultEnvironment()),
        ...inheritedNames(hostPlatform()),
        'CONFIGURED',
      ]);
      assert.ok(names.includes('CONFIGURED'));
      // Node itself may add a few of its own at start-up; nothing of the host's comes through.
      assert.deepEqual(
        names.filter(n => !allowed.has(n) && !/^(NODE_|UV_|LC_)/.test(n)),
        [],
      );
      assert.ok(!names.includes('MCP_PROMPTS_SHOULD_NOT_LEAK'));
    });
  } finally {
    delete process.env.MCP_PROMPTS_SHOULD_NOT_LEAK;
  }
});

// ---- content ----

async function contentParts(name: string): Promise<Part[]> {
  let parts: Part[] = [];
  await withCatalog({ s: faulty('content') }, async ({ catalog }) => {
    const r = await getLine(catalog, `s.${name}`);
    parts = JSON.parse(JSON.stringify(toTranscript(r.result).messages.flatMap(m => m.parts))) as Part[];
  });
  // Whatever is wrong with one part, the rest of the prompt arrives.
  assert.deepEqual(parts.at(-1), { kind: 'text', text: 'still here' });
  return parts.slice(0, -1);
}

fault('unknown content type', async () => {
  assert.deepEqual(await contentParts('unknown-type'), [
    { kind: 'invalid', contentType: 'hologram', reason: 'unsupported content type "hologram"' },
  ]);
});

fault('message without content', async () => {
  assert.deepEqual(await contentParts('missing-content'), [
    { kind: 'invalid', contentType: 'none', reason: 'a message without content' },
  ]);
});

fault('invalid base64', async () => {
  assert.deepEqual(await contentParts('bad-base64'), [
    { kind: 'invalid', contentType: 'image', reason: 'image data is not valid base64' },
  ]);
});

fault('mimeType that lies', async () => {
  assert.deepEqual(await contentParts('lying-mime'), [
    { kind: 'invalid', contentType: 'image', reason: 'image claims to be image/png but its data is image/gif' },
  ]);
});

fault('20 MB image', async () => {
  assert.deepEqual(await contentParts('huge-image'), [
    { kind: 'invalid', contentType: 'image', reason: 'image is too large (20.0 MB, limit 10 MB)' },
  ]);
});

fault('SVG image', async () => {
  assert.deepEqual(await contentParts('svg-image'), [
    { kind: 'invalid', contentType: 'image', reason: 'image type "image/svg+xml" is not supported' },
  ]);
});

fault('HTML comment opener in text', async () => {
  const parts = await contentParts('html-comment');
  const markdown = transcriptToMarkdown(
    { messages: [{ role: 'user', parts: [...parts, { kind: 'text', text: 'still here' }] }] },
    { labels: { user: 'User', assistant: 'Assistant', forAssistant: '', notShown: r => r } },
  );
  // As an entity, the opener is text: no preview hides the rest of the transcript behind it.
  assert.equal(
    markdown,
    '### User\n\n&lt;!-- everything after this comment opener is hidden in a preview\n\nstill here\n',
  );
});

fault('line-wrapped base64 image', async () => {
  const [part] = await contentParts('wrapped-image');
  assert.equal(part.kind, 'image');
  // Normalised: a data: URI with line breaks would not render.
  assert.equal(
    part.kind === 'image' && part.data,
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  );
});

fault('path traversal in a resource URI', async () => {
  const [part] = await contentParts('traversal-resource');
  assert.equal(part.kind === 'resource' && part.fileName, 'passwd.txt');
});

fault('HTML resource', async () => {
  const [part] = await contentParts('html-resource');
  assert.equal(
    part.kind === 'resource' && part.fileName,
    'page.html.txt',
    'never saved under a name a viewer would render',
  );
});

// ---- HTTP ----

async function httpListError(status: string, minStartupMs?: number): Promise<string | undefined> {
  const server = await L.startFaultyHttp(status);
  try {
    return await listError({ url: server.url, ...SHORT }, minStartupMs);
  } finally {
    await server.close();
  }
}

fault('HTTP 401', async () => {
  assert.equal(await httpListError('401'), 's needs authorization (HTTP 401): add a token to its "headers"');
});

fault('HTTP 403', async () => {
  assert.equal(await httpListError('403'), 's refused access (HTTP 403): check the token in its "headers"');
});

fault('HTTP 404 (after trying legacy SSE)', async () => {
  assert.equal(await httpListError('404'), 's has no MCP endpoint at this URL (HTTP 404)');
});

fault('HTTP 500', async () => {
  assert.equal(await httpListError('500'), 's answered HTTP 500: {"error":"status 500 from the faulty server"}');
});

fault('HTTP answer that is not MCP', async () => {
  assert.equal(await httpListError('http-html'), 's did not answer as an MCP server (it sent text/html)');
});

fault('HTTP server that never answers', async () => {
  assert.equal(await httpListError('http-hang', STARTUP_FLOOR_1S), 's did not answer startup within 1 s');
});

fault('HTTP connection refused', async () => {
  assert.equal(
    await listError({ url: `http://127.0.0.1:${await L.freePort()}/mcp` }),
    's failed on startup: connection refused',
  );
});

fault('HTTP server killed mid-request', async () => {
  const server = await L.startFaultyHttp('hang-on-get');
  try {
    await withCatalog(
      { s: { url: server.url } },
      async ({ catalog, entry }) => {
        const pending = rejection(getLine(catalog, 's.hello name=Ada'));
        await waitFor(() => /not answering prompts\/get/.test(server.stderr()), 'the request at the server');
        server.signal('SIGKILL');
        // Well before the 20 s timeout: the broken response is the signal, HTTP has no onclose. The read
        // is sent once more on a fresh connection (retry-closed-connection.ts), which meets no server: refused,
        // or reset when it reaches the listening socket before the kernel has closed it after the kill.
        assert.match((await pending).message, /^s failed on prompt "hello": (connection refused|read ECONNRESET)$/);
        assert.equal(entry().connection.state.kind, 'error');
      },
      FAST_RESTART,
    );
  } finally {
    await server.close();
  }
});

fault('HTTP server gone while idle', async () => {
  const server = await L.startFaultyHttp('ok');
  try {
    await withCatalog(
      { s: { url: server.url } },
      async ({ catalog, entry }) => {
        await catalog.ready();
        await server.close();
        assert.equal(
          (await rejection(getLine(catalog, 's.hello name=Ada'))).message,
          's failed on prompt "hello": connection refused',
        );
        assert.equal(entry().connection.state.kind, 'error');
      },
      FAST_RESTART,
    );
  } finally {
    await server.close();
  }
});

fault('legacy SSE server', async () => {
  const server: RunningServer = await L.startHttpFixture('paginated', { mode: 'sse' });
  try {
    await withCatalog(
      { s: { type: 'http', url: server.url.replace(/\/sse$/, '/mcp') } },
      async ({ catalog, entry }) => {
        await catalog.ready();
        assert.equal(entry().connection.info?.transport, 'sse');
        assert.equal(entry().prompts.length, 23);
      },
    );
  } finally {
    await server.close();
  }
});

// ---- crashes and restarts ----

fault('crash during get, then restart', async () => {
  await withCatalog(
    { s: L.fixtureCommand('crashing') },
    async ({ catalog, entry }) => {
      const first = await getLine(catalog, 's.hello');
      const pid = /pid (\d+)/.exec(JSON.stringify(first.result))?.[1];
      const err = await rejection(getLine(catalog, 's.crash'));
      assert.equal(
        err.message,
        's closed the connection during prompt "crash" (last stderr: [crashing] crash requested: exiting with code 1)',
      );
      await waitFor(() => entry().connection.state.kind === 'running', 'the automatic restart');
      const again = await getLine(catalog, 's.hello');
      assert.notEqual(/pid (\d+)/.exec(JSON.stringify(again.result))?.[1], pid, 'a new process answers');
    },
    FAST_RESTART,
  );
});

fault('crash loop: gives up after 5 crashes', async () => {
  const marker = path.join(tempDir(), 'refuse-start');
  await withCatalog(
    { s: { ...L.fixtureCommand('crashing'), env: { CRASHING_MARKER: marker } } },
    async ({ catalog, entry, log }) => {
      await rejection(getLine(catalog, 's.crash'));
      const message = 's crashed 5 times in 1 minutes; it stays stopped until you restart it';
      await waitFor(() => stateError(entry().connection.state)?.message === message, 'giving up');
      assert.equal(
        log().lines.filter(l => l.message.startsWith('Restarting s in')).length,
        4,
        'backoff restarts before giving up',
      );
      // No further attempts on use: the same message at once.
      assert.equal((await rejection(getLine(catalog, 's.hello'))).message, message);
      // The user fixes the cause and restarts: it works again.
      fs.rmSync(marker);
      await entry().connection.restart();
      assert.match(JSON.stringify((await getLine(catalog, 's.hello')).result), /Hello from crashing/);
    },
    { ...FAST_RESTART, maxDelayMs: 100 },
  );
});

// ---- cancellation ----

fault('cancel during get', async () => {
  await withCatalog({ s: faulty('hang-on-get') }, async ({ catalog, stderr }) => {
    const abort = new AbortController();
    const pending = rejection(getLine(catalog, 's.hello name=Ada', { signal: abort.signal }));
    await waitFor(() => /not answering prompts\/get \(id (\d+)\)/.exec(stderr()), 'the request at the server');
    const id = /not answering prompts\/get \(id (\d+)\)/.exec(stderr())![1];
    abort.abort();
    const err = await pending;
    assert.equal(err.message, 's: prompt "hello" was cancelled');
    assert.equal(err.kind, 'cancelled');
    await waitFor(() => stderr().includes(`cancelled ${id}`), 'notifications/cancelled for that request at the server');
  });
});

fault('cancel during complete', async () => {
  await withCatalog({ s: faulty('hang-on-complete') }, async ({ catalog, stderr }) => {
    const hello = await catalog.findPrompt('s.hello');
    const abort = new AbortController();
    const pending = rejection(completeArgument(hello, 'name', 'A', {}, abort.signal));
    await waitFor(() => /not answering completion\/complete \(id (\d+)\)/.exec(stderr()), 'the request at the server');
    const id = /not answering completion\/complete \(id (\d+)\)/.exec(stderr())![1];
    abort.abort();
    assert.equal((await pending).kind, 'cancelled');
    await waitFor(() => stderr().includes(`cancelled ${id}`), 'notifications/cancelled for that request at the server');
  });
});

fault('stop while initialize hangs', async () => {
  await withCatalog({ s: faulty('hang-on-initialize') }, async ({ catalog, entry }) => {
    const ready = catalog.ready();
    await waitFor(() => entry().connection.state.kind === 'starting', 'the start');
    await entry().connection.stop();
    await ready;
    assert.equal(entry().connection.state.kind, 'stopped');
    // The start ended as cancelled; a stop is no listing failure (the status bar would count it as failing).
    assert.equal(entry().listError, undefined);
  });
});

test('docs/fault-matrix.md lists every case', () => {
  const table = fs.readFileSync(path.join(ROOT, 'docs', 'fault-matrix.md'), 'utf8');
  const missing = titles.filter(t => !table.includes(`| ${t} |`));
  assert.deepEqual(missing, [], 'rows missing from docs/fault-matrix.md');
  assert.ok(titles.length >= 40, `${titles.length} cases`);
});

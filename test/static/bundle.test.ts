// What the shipped bundles hold (issue 15: dist/extension.js at most 450 KB, with the MCP SDK in a second
// bundle loaded with the first connection; issue 27: that bundle shared by the extension and the CLI, so
// the SDK and zod ship once). Reads the build `node esbuild.mjs` just made, its metafiles
// (out/*.meta.json) and the names dist/protocol.js serves (out/protocol-names.json). Whether activation
// really does without the second bundle is test/e2e/cached-after-restart.js (in prompt-lists.e2e.js), in the real host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sources } from './sources';

const root = path.resolve(__dirname, '..', '..', '..');
const MAX_BYTES = 450 * 1024;

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

function inputs(bundle: 'extension' | 'cli' | 'protocol' | 'server'): string[] {
  const meta = JSON.parse(fs.readFileSync(path.join(root, 'out', `${bundle}.meta.json`), 'utf8')) as Metafile;
  return Object.keys(meta.outputs[`dist/${bundle}.js`].inputs);
}

/** The packages that live in dist/protocol.js only. */
const PROTOCOL_PACKAGES =
  /node_modules\/(@modelcontextprotocol\/(client|core)|zod|eventsource|eventsource-parser|cross-spawn|pkce-challenge)\//;

test(`dist/extension.js is at most ${MAX_BYTES / 1024} KB`, () => {
  const bytes = fs.statSync(path.join(root, 'dist', 'extension.js')).size;
  assert.ok(bytes <= MAX_BYTES, `dist/extension.js is ${(bytes / 1024).toFixed(1)} KB`);
});

test('the MCP client, its schemas and zod are in dist/protocol.js alone: the extension and the CLI share it', () => {
  for (const bundle of ['extension', 'cli'] as const) {
    assert.deepEqual(
      inputs(bundle).filter(i => PROTOCOL_PACKAGES.test(i)),
      [],
      `dist/${bundle}.js bundles none of them`,
    );
    // The stand-in that loads the second bundle is there instead, one per package.
    assert.deepEqual(
      inputs(bundle)
        .filter(i => i.startsWith('lazy-protocol:'))
        .sort(),
      [
        'lazy-protocol:@modelcontextprotocol/client',
        'lazy-protocol:@modelcontextprotocol/client/ext/skills',
        'lazy-protocol:@modelcontextprotocol/client/stdio',
        'lazy-protocol:@modelcontextprotocol/core',
        'lazy-protocol:@modelcontextprotocol/core/ext/skills',
        'lazy-protocol:zod/v4',
      ],
      `dist/${bundle}.js`,
    );
  }
  const protocol = inputs('protocol');
  for (const p of ['@modelcontextprotocol/client', '@modelcontextprotocol/core', 'zod'])
    assert.ok(
      protocol.some(i => i.includes(`node_modules/${p}/`)),
      `${p} is in dist/protocol.js`,
    );
});

test('the MCP server package is in dist/server.js alone: the CLI loads it for `serve`, the extension never', () => {
  const serverPackage = /node_modules\/@modelcontextprotocol\/server\//;
  for (const bundle of ['extension', 'cli', 'protocol'] as const)
    assert.deepEqual(
      inputs(bundle).filter(i => serverPackage.test(i)),
      [],
      `dist/${bundle}.js bundles none of it`,
    );
  assert.deepEqual(
    inputs('extension').filter(i => i.startsWith('lazy-server:')),
    [],
    'the extension does not even load it',
  );
  assert.deepEqual(
    inputs('cli')
      .filter(i => i.startsWith('lazy-server:'))
      .sort(),
    ['lazy-server:@modelcontextprotocol/server', 'lazy-server:@modelcontextprotocol/server/stdio'],
  );
  const server = inputs('server');
  assert.ok(
    server.some(i => serverPackage.test(i)),
    'the server package is in dist/server.js',
  );
  assert.ok(!server.some(i => /node_modules\/ajv\//.test(i)), 'without ajv (src/cli/server-shims.ts)');
  // Every name the CLI's stand-ins ask for is served.
  const { keys, names } = JSON.parse(fs.readFileSync(path.join(root, 'out', 'server-names.json'), 'utf8')) as {
    keys: Record<string, string>;
    names: Record<string, string[]>;
  };
  const script = `const b = require(${JSON.stringify(path.join(root, 'dist', 'server.js'))});
    const names = ${JSON.stringify(names)}, keys = ${JSON.stringify(keys)};
    process.stdout.write(JSON.stringify(Object.entries(names).flatMap(([p, ns]) => ns.filter(n => b[keys[p]]?.[n] === undefined))));`;
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })), []);
  assert.ok(names['@modelcontextprotocol/server'].includes('Server'));
});

test('dist/protocol.js serves every name the stand-ins ask for, and only the SDK code they reach', () => {
  const { keys, names } = JSON.parse(fs.readFileSync(path.join(root, 'out', 'protocol-names.json'), 'utf8')) as {
    keys: Record<string, string>;
    names: Record<string, string[]>;
  };
  // Loaded in a child: it is what the extension host and the CLI require.
  const script = `const b = require(${JSON.stringify(path.join(root, 'dist', 'protocol.js'))});
    const names = ${JSON.stringify(names)}, keys = ${JSON.stringify(keys)};
    const missing = Object.entries(names).flatMap(([p, ns]) => ns.filter(n => b[keys[p]]?.[n] === undefined).map(n => p + ' ' + n));
    process.stdout.write(JSON.stringify({ missing, client: typeof b.client.Client }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    missing: string[];
    client: string;
  };
  assert.deepEqual(out.missing, []);
  assert.equal(out.client, 'function');
  assert.ok(names['@modelcontextprotocol/client'].includes('Client'));
  assert.ok(names['@modelcontextprotocol/client/ext/skills'].includes('SkillsClient'), 'and the skills client');
  assert.ok(names['zod/v4'].includes('object'), 'the members of `z` are read too');
  // An export no source uses stays out (the OAuth client-credentials flow needs jose; we never call it).
  assert.ok(!inputs('protocol').some(i => i.includes('node_modules/jose/')), 'jose is not bundled');
});

test('dist/cli.js starts without dist/protocol.js until a server is asked something', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-prompts-cli-alone-'));
  try {
    fs.copyFileSync(path.join(root, 'dist', 'cli.js'), path.join(dir, 'cli.js'));
    const usage = execFileSync(process.execPath, [path.join(dir, 'cli.js'), 'help'], { cwd: dir, encoding: 'utf8' });
    assert.match(usage, /mcp-prompts list/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** `script` run by node in a child, with dist/protocol.js required as `b`; what it writes, as JSON. */
function withProtocol<T>(script: string): T {
  const load = `const b = require(${JSON.stringify(path.join(root, 'dist', 'protocol.js'))});\n`;
  return JSON.parse(execFileSync(process.execPath, ['-e', load + script], { encoding: 'utf8' })) as T;
}

const shipped = (bundle: 'extension' | 'protocol') => fs.readFileSync(path.join(root, 'dist', `${bundle}.js`), 'utf8');

test("zod's JSON Schema output is left out of dist/protocol.js (scripts/unreached-code.mjs); parsing and a schema's limits are not", () => {
  const zod = inputs('protocol')
    .filter(i => /zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/.test(i))
    .map(i => i.replace(/^(zod-without-json-schema:)?.*node_modules\//, '$1'))
    .sort();
  // The stand-ins, and of the real modules only the processors' `aggregateChecks` (what `minLength` reads).
  assert.deepEqual(zod, [
    'zod-without-json-schema:zod/v4/core/json-schema-processors.js',
    'zod-without-json-schema:zod/v4/core/to-json-schema.js',
    'zod/v4/core/json-schema-processors.js',
  ]);
  // Each processor's message about what JSON Schema cannot say was there (16 of them) and is gone.
  assert.doesNotMatch(shipped('protocol'), /cannot be represented in JSON Schema/);
  const out = withProtocol<Record<string, unknown>>(`const z = b.zod;
    const s = z.string().min(2).max(5);
    let thrown = '';
    try { z.object({ a: s }).toJSONSchema(); } catch (e) { thrown = e.message; }
    process.stdout.write(JSON.stringify({
      parsed: z.object({ a: s, n: z.number() }).safeParse({ a: 'abc', n: 1 }).success,
      refused: z.object({ a: s }).safeParse({ a: 'x' }).error?.issues[0].code,
      limits: [s.minLength, s.maxLength],
      standard: s['~standard'].validate('abc'),
      thrown,
    }));`);
  assert.deepEqual(out, {
    parsed: true,
    refused: 'too_small',
    limits: [2, 5],
    standard: { value: 'abc' },
    thrown: 'MCP Prompts leaves out JSON Schema output of zod',
  });
});

test("the SDK's server-side values and the Client's tool methods are left out of dist/protocol.js; what the client reads is not", () => {
  const text = shipped('protocol');
  // The server's HTTP validation table, its result builder, the spec-type lists and the tool-header scan.
  for (const gone of [
    /SEP-2243/,
    /inputRequired\(\) requires/,
    /"ToolUseContentSchema"/,
    /x-mcp-header is only permitted/,
  ])
    assert.doesNotMatch(text, gone);
  const out = withProtocol<Record<string, string>>(`const client = new b.client.Client({ name: 't', version: '1' }, {
      jsonSchemaValidator: { getValidator() { throw new Error('no'); } },
    });
    Promise.all(['listTools', 'callTool'].map(m => client[m]({ name: 'x' }).then(() => 'answered', e => e.message)))
      .then(([listTools, callTool]) => process.stdout.write(JSON.stringify({ listTools, callTool })));`);
  assert.deepEqual(out, {
    listTools: 'MCP Prompts does not bundle Client.listTools',
    callTool: 'MCP Prompts does not bundle Client.callTool',
  });
  // What the Client reads of them (serverInfo from server/discover, through isSpecType) is proven against
  // a 2026-07-28 server in test/integration/cli-eras.test.ts.
});

test("zod's uncalled methods are left out of dist/protocol.js, and no bundle that loads it calls one", async () => {
  const url = pathToFileURL(path.join(root, 'scripts', 'unreached-code.mjs')).href;
  const { zodMethodsRead } = (await import(url)) as { zodMethodsRead: (text: string) => string[] };
  // The guard esbuild.mjs runs on each bundle sees a call, and finds none in what was built.
  assert.deepEqual(zodMethodsRead('s.nullable().email()'), ['nullable', 'email']);
  assert.deepEqual(zodMethodsRead('[t, ...gt(x)]'), [], 'a spread of a variable named like a method calls nothing');
  for (const bundle of ['extension', 'protocol', 'cli'])
    assert.deepEqual(zodMethodsRead(fs.readFileSync(path.join(root, 'dist', `${bundle}.js`), 'utf8')), [], bundle);
  // The schema classes only those methods made are gone with them, and so are util's unread functions.
  for (const gone of [/\$ZodNullable/, /\$ZodReadonly/, /\$ZodCheckLowerCase/, /ZodBase64URL/, /Invalid hex string/])
    assert.doesNotMatch(shipped('protocol'), gone);
  const out = withProtocol<Record<string, unknown>>(`const z = b.zod;
    const s = z.string(), n = z.number();
    const has = (v, ms) => ms.filter(m => typeof v[m] === 'function');
    const o = z.object({ a: s.url().optional(), t: s.startsWith('x').max(3).optional() }).extend({ n: n.int().nonnegative() });
    process.stdout.write(JSON.stringify({
      left: has(s, ['email', 'uuid', 'nullable', 'safeParseAsync']).concat(has(n, ['gt', 'positive'])),
      kept: has(s, ['optional', 'min', 'max', 'url', 'regex', 'startsWith', 'refine', 'transform', 'pipe', 'default', 'catch', 'describe', 'or']),
      parsed: o.safeParse({ a: 'https://x.test/', n: 1 }).success,
      refused: [o.safeParse({ a: 'no url', n: 1 }), o.safeParse({ t: 'xyzw', n: 1 }), o.safeParse({ n: -1 })].map(r => r.error?.issues[0].code),
      strict: z.object({}).strict().safeParse({ x: 1 }).success,
    }));`);
  assert.deepEqual(out, {
    left: [],
    kept: [
      'optional',
      'min',
      'max',
      'url',
      'regex',
      'startsWith',
      'refine',
      'transform',
      'pipe',
      'default',
      'catch',
      'describe',
      'or',
    ],
    parsed: true,
    refused: ['invalid_format', 'too_big', 'too_small'],
    strict: false,
  });
});

test("zod's z.iso and z.coerce keep in dist/protocol.js only the members the SDK reads", () => {
  // ISO time and duration, bigint and date: their classes are gone.
  for (const gone of [/\$ZodISODuration/, /\$ZodISOTime/, /\$ZodBigInt/, /\$ZodDate/])
    assert.doesNotMatch(shipped('protocol'), gone);
  // What is read still checks: a content block's `lastModified` is `z.iso.datetime`.
  const out = withProtocol<
    unknown[]
  >(`const block = lastModified => ({ type: 'text', text: 'x', annotations: { lastModified } });
    const C = b.core.ContentBlockSchema;
    process.stdout.write(JSON.stringify([C.safeParse(block('2026-07-28T10:00:00Z')).success, C.safeParse(block('yesterday')).success]));`);
  assert.deepEqual(out, [true, false]);
});

test("the SDK's schemas the client never reads are left out of dist/protocol.js", () => {
  // The token exchange response of cross-app access, a flow we never start.
  assert.doesNotMatch(shipped('protocol'), /urn:ietf:params:oauth:token-type:id-jag/);
  // What the client reads (results, notifications, server requests, OAuth metadata) is proven against real
  // servers by the CLI's integration tests, which run dist/cli.js on dist/protocol.js.
});

test('the shipped bundles are ASCII as esbuild writes them, keep the license notices, and leave out unread enums', () => {
  for (const bundle of ['extension', 'protocol'] as const)
    // ASCII: as many UTF-8 bytes as characters.
    assert.equal(Buffer.byteLength(shipped(bundle)), shipped(bundle).length, `dist/${bundle}.js is ASCII`);
  assert.match(shipped('protocol'), /\/\*! Bundled license information:[\s\S]*content-type[\s\S]*MIT Licensed/);
  // jsonc-parser's CharacterCodes (`lineFeed`, `carriageReturn`, …): its own code has the numbers inlined.
  assert.doesNotMatch(shipped('extension'), /carriageReturn/);
});

test("no source calls what dist/protocol.js leaves out: the Client's tool methods, zod's JSON Schema output", async () => {
  const url = pathToFileURL(path.join(root, 'scripts', 'unreached-code.mjs')).href;
  const { CLIENT_TOOL_METHODS } = (await import(url)) as { CLIENT_TOOL_METHODS: string[] };
  assert.ok(CLIENT_TOOL_METHODS.includes('callTool'));
  const call = new RegExp(`\\.(${[...CLIENT_TOOL_METHODS, 'toJSONSchema'].join('|')})\\b`);
  const calling = sources(path.join(root, 'src')).filter(f => call.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(calling, []);
});

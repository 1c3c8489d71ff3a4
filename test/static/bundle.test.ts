// What the shipped bundles hold (issue 15: dist/extension.js at most 450 KB, with the MCP SDK in a second
// bundle loaded with the first connection; issue 27: that bundle shared by the extension and the CLI, so
// the SDK and zod ship once). Reads the build `node esbuild.mjs` just made, its metafiles
// (out/*.meta.json) and the names dist/protocol.js serves (out/protocol-names.json). Whether activation
// really does without the second bundle is test/e2e/lazy-protocol.e2e.js, in the real host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const MAX_BYTES = 450 * 1024;

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

function inputs(bundle: 'extension' | 'cli' | 'protocol'): string[] {
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

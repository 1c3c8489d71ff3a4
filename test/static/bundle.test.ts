// What dist/extension.js holds (issue 15: at most 450 KB, and the MCP SDK in a second bundle loaded
// with the first connection). Reads the build `node esbuild.mjs` just made and its metafile
// (out/extension.meta.json). Whether activation really does without the second bundle is
// test/e2e/lazy-protocol.e2e.js, in the real host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const MAX_BYTES = 450 * 1024;

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

function extensionInputs(): string[] {
  const meta = JSON.parse(fs.readFileSync(path.join(root, 'out', 'extension.meta.json'), 'utf8')) as Metafile;
  return Object.keys(meta.outputs['dist/extension.js'].inputs);
}

test(`dist/extension.js is at most ${MAX_BYTES / 1024} KB`, () => {
  const bytes = fs.statSync(path.join(root, 'dist', 'extension.js')).size;
  assert.ok(bytes <= MAX_BYTES, `dist/extension.js is ${(bytes / 1024).toFixed(1)} KB`);
});

test('the MCP client and its transports are not in dist/extension.js, but in dist/protocol.js', () => {
  const inExtension = extensionInputs().filter(i =>
    /node_modules\/(@modelcontextprotocol\/client|eventsource|eventsource-parser|cross-spawn|pkce-challenge)\//.test(i),
  );
  assert.deepEqual(inExtension, []);
  // The stand-in that loads the second bundle is there instead, for each package entry.
  assert.deepEqual(
    extensionInputs()
      .filter(i => i.startsWith('lazy-protocol:'))
      .sort(),
    [
      'lazy-protocol:@modelcontextprotocol/client',
      'lazy-protocol:@modelcontextprotocol/client/ext/skills',
      'lazy-protocol:@modelcontextprotocol/client/stdio',
    ],
  );
  const protocol = fs.readFileSync(path.join(root, 'dist', 'protocol.js'), 'utf8');
  assert.match(protocol, /elicitation\/create/, 'the SDK client is in dist/protocol.js');
  assert.match(protocol, /SkillVerificationError/, 'and its skills client');
});

// The npm package, which carries the `mcp-prompts` CLI: packed by `npm pack` as npm would publish it,
// unpacked into a folder with no node_modules anywhere above it, and run as its `bin` against a real
// server. It holds the CLI, the protocol bundle it shares with the extension and the server package
// `serve` loads, nothing else of ours.
// Needs `node esbuild.mjs` first (dist/ is what is packed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, launch, runNode, tempDir } from './helpers';

const run = promisify(execFile);

test('npm pack: the CLI and the protocol bundle, and the CLI runs from the unpacked package', async () => {
  const dir = tempDir('mcp-prompts-npm-');
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, timeout: 120_000 });
    const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    assert.deepEqual(packed.files.map(f => f.path).sort(), [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/cli.js',
      'dist/protocol.js',
      'dist/server.js',
      'package.json',
    ]);
    await run('tar', ['-xzf', path.join(dir, packed.filename), '-C', dir]);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package', 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const bin = path.join(dir, 'package', manifest.bin['mcp-prompts']);
    assert.match(fs.readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/);

    const { fixtureCommand } = await launch();
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'mcp.json'), JSON.stringify({ servers: { rich: fixtureCommand('rich') } }));
    const env = { XDG_CACHE_HOME: path.join(dir, 'cache') };
    const list = await runNode([bin, 'list', '--config', 'mcp.json'], { cwd: work, env, what: 'packed cli list' });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /rich\.code_review code\* language/);
    const get = await runNode(
      [bin, 'get', 'rich.code_review', 'code=x = 1', 'language=python', '--config', 'mcp.json'],
      {
        cwd: work,
        env,
        what: 'packed cli get',
      },
    );
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /Please review this python:\n\n```python\nx = 1\n```/);

    // `serve` loads the MCP server package from dist/server.js, beside it in the package.
    const client = new Client({ name: 'npm-package-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'serve', '--config', 'mcp.json'],
        cwd: work,
        env: { ...(process.env as Record<string, string>), ...env },
        stderr: 'pipe',
      }),
    );
    try {
      assert.deepEqual(
        (await client.listPrompts()).prompts.map(p => p.name),
        ['rich_content', 'code_review'],
      );
    } finally {
      await client.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

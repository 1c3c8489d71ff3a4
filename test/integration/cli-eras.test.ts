// The CLI remembers each server's protocol era between runs, in the user's cache folder (XDG_CACHE_HOME
// here): the second `mcp-prompts list` sends no `server/discover` probe to a 2026 server and starts no
// throw-away probe process for a 2025 one, so a repeated run costs one process per server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, runCli, tempDir } from './helpers';

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

test('a second CLI run reuses the remembered eras: no server/discover, no probe process', async () => {
  const { modernCommand } = await launch();
  const dir = tempDir('mcp-cli-eras-');
  try {
    const wire = path.join(dir, 'wire');
    const pids = path.join(dir, 'pids');
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        servers: {
          modern: { ...modernCommand(), env: { MODERN_WIRE_LOG: wire } },
          old: {
            command: process.execPath,
            args: [path.resolve('test/fixtures/cacheable.mjs')],
            env: { CACHEABLE_PIDS: pids },
          },
        },
      }),
    );
    const env = { XDG_CACHE_HOME: path.join(dir, 'cache') };
    const run = async () => {
      const r = await runCli(['list', '--json', '--config', config], { env });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { server: string }[]).map(p => p.server).sort();
    };

    const first = await run();
    assert.equal(lines(wire).filter(m => m === 'server/discover').length, 1, 'the first run probes the 2026 server');
    assert.equal(lines(pids).length, 2, 'the first run probes the 2025 server on a throw-away process');

    assert.deepEqual(await run(), first);
    assert.equal(lines(wire).filter(m => m === 'server/discover').length, 1, 'no probe in the second run');
    assert.equal(lines(pids).length, 3, 'one process for the second run');
    assert.ok(fs.readdirSync(path.join(dir, 'cache', 'mcp-prompts')).includes('eras.json'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('get --json on a 2026-07-28 server prints every field it sent: resultType and _meta too', async () => {
  const { modernCommand } = await launch();
  const dir = tempDir('mcp-cli-eras-');
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { modern: modernCommand() } }));
    const r = await runCli(['get', 'modern.echo', 'text=hi', '--json', '--verbose', '--config', config]);
    assert.equal(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as Record<string, unknown>;
    // The answer as the trace shows it arrived (the SDK takes resultType off once it has read it).
    const answer = r.stderr
      .split('\n')
      .filter(l => l.startsWith('<- '))
      .map(l => JSON.parse(l.slice(3)) as { result?: Record<string, unknown> })
      .find(m => m.result?.messages)?.result;
    assert.ok(answer, r.stderr);
    assert.deepEqual(printed, answer);
    assert.equal(printed.resultType, 'complete');
    assert.deepEqual(Object.keys(printed).sort(), ['_meta', 'messages', 'resultType']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

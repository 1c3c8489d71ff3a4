// The CLI remembers each server's protocol era between runs, in the user's cache folder (XDG_CACHE_HOME
// here): the second `mcp-prompts list` sends a 2026 server no `server/discover` and no initialize.
// Every run costs one process per server, the first too (docs/protocol.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, runCli, tempDir } from './helpers';

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
/** The requests a server got, leaving out the stream of list changes (opened on every 2026 connect). */
const requests = (file: string) => lines(file).filter(m => m !== 'subscriptions/listen');

test('a second CLI run reuses the remembered eras: no server/discover; one process per server in every run', async () => {
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
    assert.deepEqual(
      requests(wire),
      ['initialize', 'server/discover', 'prompts/list'],
      'the 2026 server refuses initialize',
    );
    assert.equal(lines(pids).length, 1, 'the first run starts the 2025 server once');

    assert.deepEqual(await run(), first);
    assert.deepEqual(requests(wire).slice(3), ['prompts/list'], 'the remembered 2026 era: no probe, no initialize');
    assert.equal(lines(pids).length, 2, 'one process for the second run');
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

test("the shipped bundle reads a 2026-07-28 server's serverInfo from server/discover: stdio first and remembered, and HTTP", async () => {
  // dist/protocol.js leaves out the SDK's spec-type table and reads `isSpecType.Implementation` as the
  // schema it stands for (scripts/unreached-code.mjs): the identity must come through every way in.
  const { modernCommand, startModernHttp } = await launch();
  const dir = tempDir('mcp-cli-eras-');
  const http = await startModernHttp();
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ servers: { modern: modernCommand(), web: { type: 'http', url: http.url } } }),
    );
    const env = { XDG_CACHE_HOME: path.join(dir, 'cache') };
    for (const run of ['first', 'remembered']) {
      const r = await runCli(['list', '--verbose', '--config', config], { env });
      assert.equal(r.code, 0, r.stderr);
      for (const id of ['modern', 'web'])
        assert.match(
          r.stderr,
          new RegExp(`^${id} is running: modern-demo 2\\.0\\.0, protocol 2026-07-28$`, 'm'),
          `${id}, ${run}`,
        );
    }
  } finally {
    await http.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

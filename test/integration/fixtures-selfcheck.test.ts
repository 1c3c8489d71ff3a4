// The fixture servers as a client we did not write sees them: test/fixtures/selfcheck.mjs drives every
// fixture over stdio, Streamable HTTP and legacy SSE with the v1 SDK's own client (and server-everything
// beside them), so no fixture leans on a quirk of our client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir } from './helpers';

test('every fixture server answers a raw v1 SDK client over stdio, Streamable HTTP and SSE', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    resolve => {
      const child = execFile(
        process.execPath,
        [path.join(ROOT, 'test', 'fixtures', 'selfcheck.mjs')],
        { cwd: ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
        (_err, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
      );
    },
  );
  assert.equal(code, 0, `selfcheck failed:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
  assert.match(stdout, /^selfcheck OK: \d+ checks/m);
});

test('the selfcheck’s “nothing left running” finds a live child with ps, without any ps (from /proc), and fails when ps fails', () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const dir = tempDir();
  try {
    const module = pathToFileURL(path.join(ROOT, 'test', 'fixtures', 'lib', 'children.mjs')).href;
    const script = `const { childrenOf } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(childrenOf(${process.pid})));`;
    const childrenWith = (PATH: string) =>
      spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH } });
    const found = (PATH: string) => {
      const run = childrenWith(PATH);
      assert.equal(run.status, 0, run.stderr);
      return (JSON.parse(run.stdout) as string[]).filter(c => c.startsWith(`${child.pid} `));
    };
    assert.equal(found(process.env.PATH ?? '').length, 1, 'ps (procps here)');
    // No ps at all: the old `ps --ppid` check found nothing and passed.
    fs.mkdirSync(path.join(dir, 'none'));
    assert.equal(found(path.join(dir, 'none')).length, 1, 'no ps on PATH');
    // A ps that refuses (macOS's refused `--ppid`): an error, not an empty list.
    fs.mkdirSync(path.join(dir, 'refusing'));
    fs.writeFileSync(path.join(dir, 'refusing', 'ps'), '#!/bin/sh\necho "ps: illegal option" >&2\nexit 1\n', {
      mode: 0o755,
    });
    assert.notEqual(childrenWith(`${path.join(dir, 'refusing')}:/bin:/usr/bin`).status, 0);
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

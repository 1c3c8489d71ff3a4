// "Output of a command…" on real processes through the real shell: the value, the cap, Cancel ending
// the whole process group (a grandchild too), a failing command, and output that is not UTF-8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { displayCommand, runCommandOutput } from '../../src/core/run/requests/command-output';
import { MAX_SOURCE_BYTES } from '../../src/core/run/requests/value-sources';
import { hostPlatform, platformOf } from '../../src/core/platform';
import { processRunning, tempDir, waitFor } from './helpers';

/** These commands are POSIX shell: on Windows they are skipped, and say why (the Windows plan is unit-tested). */
const posixOnly = {
  skip: process.platform === 'win32' && 'POSIX shell commands; the Windows plan is in test/unit/platforms.test.ts',
};
const host = hostPlatform();

test('stdout is the value, run in the given folder, trailing line breaks dropped', posixOnly, async () => {
  const dir = tempDir();
  try {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'first\nsecond ü\n');
    const out = await runCommandOutput({ platform: host, command: 'cat a.txt; pwd', cwd: dir });
    assert.deepEqual(out, { value: `first\nsecond ü\n${fs.realpathSync(dir)}` });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('output above the cap is refused with the cap stated, and the endless command is ended', posixOnly, async () => {
  const out = await runCommandOutput({ platform: host, command: 'yes', cwd: process.cwd(), maxBytes: 64 * 1024 });
  assert.deepEqual(out, { problem: 'The output of yes is larger than the limit of 64.0 KB; it was stopped.' });
  const atCap = await runCommandOutput({
    platform: host,
    command: `head -c ${MAX_SOURCE_BYTES} /dev/zero | tr '\\0' a`,
    cwd: process.cwd(),
  });
  assert.equal('value' in atCap && atCap.value.length, MAX_SOURCE_BYTES, 'exactly the default cap is accepted');
  const above = await runCommandOutput({
    platform: host,
    command: `head -c ${MAX_SOURCE_BYTES + 1} /dev/zero | tr '\\0' a`,
    cwd: process.cwd(),
  });
  assert.deepEqual(above, {
    problem: `The output of head -c ${MAX_SOURCE_BYTES + 1} /dev/zero | tr '\\0' a is larger than the limit of 256.0 KB; it was stopped.`,
  });
});

test('Cancel ends the whole process group, a grandchild included', posixOnly, async () => {
  const dir = tempDir();
  try {
    const controller = new AbortController();
    // The shell starts sh, which starts sleep: sleep is the command's grandchild.
    const pending = runCommandOutput({
      platform: host,
      command: "sh -c 'sleep 300 & echo $! > gc.pid; echo $$ > child.pid; wait'",
      cwd: dir,
      signal: controller.signal,
    });
    const readPid = (name: string) => {
      try {
        return Number(fs.readFileSync(path.join(dir, name), 'utf8')) || 0;
      } catch {
        return 0;
      }
    };
    await waitFor(() => readPid('gc.pid') > 0 && readPid('child.pid') > 0, 'the grandchild started');
    const pids = [readPid('gc.pid'), readPid('child.pid')];
    assert.ok(pids.every(processRunning));
    controller.abort();
    const out = await pending;
    assert.equal('problem' in out && out.cancelled, true);
    await waitFor(() => pids.every(p => !processRunning(p)), 'the child and the grandchild ended', 5000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a background grandchild holding stdout does not keep a finished command open, and does not outlive it',
  posixOnly,
  async () => {
    const dir = tempDir();
    try {
      const started = Date.now();
      const out = await runCommandOutput({
        platform: host,
        command: 'sleep 300 & echo $! > gc.pid; echo done',
        cwd: dir,
      });
      assert.deepEqual(out, { value: 'done' });
      assert.ok(Date.now() - started < 20000);
      const gc = Number(fs.readFileSync(path.join(dir, 'gc.pid'), 'utf8'));
      await waitFor(() => !processRunning(gc), 'the background grandchild ended', 5000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a non-zero exit names the command, the code and the first stderr line; stderr on success is a warning',
  posixOnly,
  async () => {
    assert.deepEqual(
      await runCommandOutput({
        platform: host,
        command: 'echo partial; echo "fatal: not a git repository" >&2; exit 3',
        cwd: process.cwd(),
      }),
      {
        problem:
          'echo partial; echo "fatal: not a git repository" >&2; exit 3 exited with code 3: fatal: not a git repository',
      },
    );
    assert.deepEqual(await runCommandOutput({ platform: host, command: 'exit 2', cwd: process.cwd() }), {
      problem: 'exit 2 exited with code 2.',
    });
    assert.deepEqual(
      await runCommandOutput({ platform: host, command: 'echo value; echo careful >&2', cwd: process.cwd() }),
      {
        value: 'value',
        warning: 'echo value; echo careful >&2 wrote to stderr: careful',
      },
    );
    const missing = await runCommandOutput({ platform: host, command: 'pwd', cwd: '/nonexistent/folder' });
    assert.match('problem' in missing ? missing.problem : '', /^pwd could not start: .*ENOENT/);
  },
);

test(
  'output that is not UTF-8 (or binary) is refused; stderr that is not UTF-8 still gives a readable message',
  posixOnly,
  async () => {
    assert.deepEqual(await runCommandOutput({ platform: host, command: "printf 'caf\\351'", cwd: process.cwd() }), {
      problem: "The output of printf 'caf\\351' is not UTF-8 text.",
    });
    assert.deepEqual(await runCommandOutput({ platform: host, command: "printf 'a\\000b'", cwd: process.cwd() }), {
      problem: "The output of printf 'a\\000b' is not UTF-8 text.",
    });
    const bad = await runCommandOutput({
      platform: host,
      command: "printf 'caf\\351 failed' >&2; exit 1",
      cwd: process.cwd(),
    });
    assert.equal(
      'problem' in bad && bad.problem,
      "printf 'caf\\351 failed' >&2; exit 1 exited with code 1: caf\ufffd failed",
    );
  },
);

test(
  'Windows, with a stand-in for cmd.exe: the shell is given chcp 65001 first, then the command, and its exit code counts',
  posixOnly,
  async () => {
    const dir = tempDir();
    try {
      // Node runs a shell named `cmd` as `cmd /d /s /c "…"` on Windows and `cmd -c …` here: this one
      // records what it was given, then runs what follows the prelude with /bin/sh.
      const given = path.join(dir, 'given.txt');
      fs.writeFileSync(
        path.join(dir, 'cmd'),
        `#!/bin/sh\nprintf '%s' "$2" > '${given}'\nexec /bin/sh -c "\${2#*& }"\n`,
        { mode: 0o755 },
      );
      const windows = platformOf(
        'win32',
        { PATH: `${dir}:${process.env.PATH}`, ComSpec: 'cmd', SystemRoot: 'C:\\Win' },
        dir,
      );
      const out = await runCommandOutput({ platform: windows, command: "printf 'caf\\303\\251\\r\\n'", cwd: dir });
      assert.deepEqual(out, { value: 'café' });
      assert.equal(
        fs.readFileSync(given, 'utf8'),
        `"C:\\Win\\System32\\chcp.com" 65001 >nul 2>nul & printf 'caf\\303\\251\\r\\n'`,
      );
      assert.deepEqual(await runCommandOutput({ platform: windows, command: 'exit 4', cwd: dir }), {
        problem: 'exit 4 exited with code 4.',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('the consent line shows the command on one line, controls and bidi overrides visible', () => {
  assert.equal(displayCommand('cat a\u202e.txt\nrm -rf ~\t'), 'cat a\\u202e.txt\\x0arm -rf ~\\x09');
  assert.equal(displayCommand('git diff --stat'), 'git diff --stat');
});

// What differs by platform, on real processes here (Linux): Stop ends a server behind a wrapper script
// (the shape of npx and uvx on Windows, where cmd.exe runs the .cmd file), by the plan of the platform
// it runs on; the CLI starts servers as VS Code does (`${/}`, `${pathSeparator}`, `~`, a relative cwd,
// a bare command from PATH only, an env PATH appended, proxy and locale variables passed on), reads an
// mcp.json saved by Windows PowerShell, and runs `npx -y <package>` as users write it. The Windows and
// macOS branches of the same rules run in test/unit/platforms.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { ROOT, launch, runCli, tempDir, testCatalog, waitFor } from './helpers';
import { platformOf } from '../../src/core/platform';
import { endProcess } from '../../src/core/process-tree';

const STUBBORN = path.join(ROOT, 'test', 'fixtures', 'stubborn.mjs');
const RUN_MJS = path.join(ROOT, 'test', 'fixtures', 'run.mjs');
const EVERYTHING = '@modelcontextprotocol/server-everything';
const windows = process.platform === 'win32';

/** Each process with its parent and state, from the ps of macOS and Linux alike. */
function processes(): Map<number, { ppid: number; zombie: boolean }> {
  const out = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'stat='], { encoding: 'utf8' });
  const table = new Map<number, { ppid: number; zombie: boolean }>();
  for (const line of out.split('\n')) {
    const [pid, ppid, stat] = line.trim().split(/\s+/);
    if (Number(pid) > 0) table.set(Number(pid), { ppid: Number(ppid), zombie: (stat ?? '').startsWith('Z') });
  }
  return table;
}

const running = (pid: number) => {
  const p = processes().get(pid);
  return !!p && !p.zombie;
};

/**
 * A shell script that runs the stubborn server (which outlives its stdin; given `STUBBORN_PID_FILE:
 * pidFile` it writes its pid there). No `exec`: the shell stays the server's parent, as cmd.exe stays the
 * parent of what a .cmd file runs.
 */
function stubbornBehindWrapper(): { dir: string; pidFile: string; wrapper: string } {
  const dir = tempDir();
  const wrapper = path.join(dir, 'server.sh');
  fs.writeFileSync(wrapper, `#!/bin/sh\n"${process.execPath}" "${STUBBORN}"\n`, { mode: 0o755 });
  return { dir, pidFile: path.join(dir, 'server.pid'), wrapper };
}

test(
  'Stop ends the real server behind a wrapper script, not only the wrapper',
  { skip: windows && 'ps is not on Windows; the taskkill plan is checked in test/unit/platforms.test.ts' },
  async () => {
    const { dir, pidFile, wrapper } = stubbornBehindWrapper();
    const { catalog, entry } = testCatalog({ wrapped: { command: wrapper, env: { STUBBORN_PID_FILE: pidFile } } });
    let server = 0;
    let shell = 0;
    try {
      await catalog.ready();
      assert.deepEqual(
        entry('wrapped').prompts.map(p => p.prompt.name),
        ['hello'],
      );
      await waitFor(
        () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '',
        'the server wrote its pid',
      );
      server = Number(fs.readFileSync(pidFile, 'utf8'));
      shell = processes().get(server)?.ppid ?? 0;
      assert.equal(processes().get(shell)?.ppid, process.pid, 'the wrapper is our child, the server its child');
      await entry('wrapped').connection.stop();
      // Before: the SDK's SIGTERM ended the wrapper and the server lived on, its stdin closed. It gets
      // VS Code's 10 s after its stdin closes, then SIGTERM.
      await waitFor(() => !running(server) && !running(shell), 'the server and its wrapper ended', 30000);
    } finally {
      await catalog.dispose();
      if (server && running(server)) process.kill(server, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('the CLI starts a server as VS Code does: ${/} and ${pathSeparator}, ~ as the home folder, cwd under the workspace', async () => {
  const ws = tempDir();
  const home = tempDir('mcp-prompts-home-');
  const elsewhere = tempDir();
  try {
    // A server script in a folder of the workspace and one in the home folder; each runs the `rich` fixture.
    const script = `await import(${JSON.stringify(pathToFileURL(RUN_MJS).href)});\n`;
    fs.mkdirSync(path.join(ws, 'srv'));
    fs.writeFileSync(path.join(ws, 'srv', 'server.mjs'), script);
    fs.writeFileSync(path.join(home, 'server.mjs'), script);
    fs.mkdirSync(path.join(ws, '.vscode'));
    const node = process.execPath;
    const servers = {
      separators: { command: node, args: ['${workspaceFolder}${/}srv${pathSeparator}server.mjs', 'rich'] },
      tilde: { command: node, args: ['~/server.mjs', 'rich'] },
      relative: { command: node, args: ['./server.mjs', 'rich'], cwd: 'srv' },
    };
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
    const result = await runCli(['list', '--config', path.join(ws, '.vscode', 'mcp.json'), '--json'], {
      cwd: elsewhere,
      env: { HOME: home },
    });
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
    const rows = JSON.parse(result.stdout) as { server: string; name: string }[];
    assert.deepEqual([...new Set(rows.map(r => r.server))], ['separators', 'tilde', 'relative']);
    assert.ok(rows.some(r => r.server === 'relative' && r.name === 'code_review'));
  } finally {
    for (const d of [ws, home, elsewhere]) fs.rmSync(d, { recursive: true, force: true });
  }
});

test('a server written as users write it, npx -y <package>, lists and answers through the CLI', async () => {
  const ws = tempDir();
  try {
    fs.mkdirSync(path.join(ws, '.vscode'));
    // The package is a devDependency: npx finds it in this repository and fetches nothing.
    const entry = { command: 'npx', args: ['-y', EVERYTHING, 'stdio'], cwd: ROOT };
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: entry } }));
    const config = path.join(ws, '.vscode', 'mcp.json');
    const list = await runCli(['list', '--config', config], { timeoutMs: 60000 });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^everything\n {2}everything\.simple-prompt/m);
    const get = await runCli(['get', 'everything.args-prompt', 'city=Paris', '--config', config], { timeoutMs: 60000 });
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /Paris/);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test(
  'Stop ends the tree by the plan of the platform the server runs on: taskkill /T /F on Windows, signals elsewhere',
  { skip: windows && 'the wrapper is a /bin/sh script' },
  async () => {
    const { dir, pidFile, wrapper } = stubbornBehindWrapper();
    const spawnTree = async () => {
      fs.rmSync(pidFile, { force: true });
      // Its own process group, so the stand-in for taskkill /T can end the whole tree.
      const child = spawn(wrapper, [], {
        env: { ...process.env, STUBBORN_PID_FILE: pidFile },
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
      });
      await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', 'the server serves');
      return { child, server: Number(fs.readFileSync(pidFile, 'utf8')) };
    };
    const ran: { command: string; args: string[] }[] = [];
    const groups: number[] = [];
    try {
      const onWindows = await spawnTree();
      groups.push(onWindows.child.pid!);
      await endProcess(
        onWindows.child,
        platformOf('win32', { SystemRoot: 'D:\\Win' }, 'C:\\Users\\u'),
        200,
        async run => {
          ran.push(run);
          process.kill(-onWindows.child.pid!, 'SIGKILL');
        },
      );
      assert.deepEqual(ran, [
        { command: 'D:\\Win\\System32\\taskkill.exe', args: ['/pid', String(onWindows.child.pid), '/T', '/F'] },
      ]);
      await waitFor(() => !running(onWindows.server), 'taskkill ended the server too');
      // On Linux (and macOS): no command of the stand-in runs; ps finds the tree and signals end it.
      const onLinux = await spawnTree();
      groups.push(onLinux.child.pid!);
      await endProcess(onLinux.child, platformOf('linux', {}, '/home/u'), 200, async run => {
        ran.push(run);
      });
      assert.equal(ran.length, 1);
      await waitFor(() => !running(onLinux.server) && !running(onLinux.child.pid!), 'the server and its wrapper ended');
    } finally {
      for (const group of groups) {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          /* ended */
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** The PATH of a user here with node on it, and `extra` entries first. */
const pathWith = (...extra: string[]) => [...extra, path.dirname(process.execPath), '/usr/bin', '/bin'].join(':');

/** A workspace with `.vscode/mcp.json` holding `servers`. */
function workspace(servers: Record<string, unknown>): { ws: string; config: string } {
  const ws = tempDir();
  fs.mkdirSync(path.join(ws, '.vscode'));
  const config = path.join(ws, '.vscode', 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({ servers }));
  return { ws, config };
}

test(
  'a bare command runs from PATH only: a `node` in the working folder does not run, even with `.` or an empty entry in PATH',
  { skip: windows && 'the planted program is a /bin/sh script' },
  async () => {
    const { ws, config } = workspace({ rich: { command: 'node', args: [RUN_MJS, 'rich'] } });
    const marker = path.join(ws, 'planted-ran');
    try {
      // A repository's program named like yours, in the folder the server runs from.
      fs.writeFileSync(path.join(ws, 'node'), `#!/bin/sh\ntouch '${marker}'\nexit 3\n`, { mode: 0o755 });
      const list = await runCli(['list', '--config', config], { env: { PATH: pathWith('.', '') } });
      assert.equal(fs.existsSync(marker), false, 'the workspace folder’s node ran');
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^rich\n/m);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  },
);

test('an env PATH entry is added to the PATH you have, as VS Code does: a bare command of yours is still found', async () => {
  const { ws, config } = workspace({
    rich: { command: 'node', args: [RUN_MJS, 'rich'], env: { PATH: '/opt/no-such-tool/bin' } },
  });
  try {
    // Before, the entry's PATH replaced yours: `node` was not found.
    const list = await runCli(['list', '--config', config], { env: { PATH: pathWith() } });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^rich\n/m);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('proxy, CA-certificate, locale and SSH-agent variables reach the server, as in VS Code; a token of yours does not', async () => {
  const { faultyCommand } = await launch();
  const { ws, config } = workspace({ s: faultyCommand('env') });
  const passed = {
    HTTPS_PROXY: 'http://proxy.corp:8080',
    HTTP_PROXY: 'http://proxy.corp:8080',
    NO_PROXY: 'localhost,.corp',
    https_proxy: 'http://proxy.corp:8080',
    no_proxy: 'localhost',
    SSL_CERT_FILE: '/etc/ssl/corp.pem',
    SSL_CERT_DIR: '/etc/ssl/certs',
    LANG: 'de_DE.UTF-8',
    LC_ALL: 'de_DE.UTF-8',
    SSH_AUTH_SOCK: '/tmp/agent.sock',
  };
  try {
    const get = await runCli(['get', 's.env', '--config', config], { env: { ...passed, GITHUB_TOKEN: 'ghp_secret' } });
    assert.equal(get.code, 0, get.stderr);
    const names = get.stdout.trim().split(/\s+/);
    assert.deepEqual(
      Object.keys(passed).filter(n => !names.includes(n)),
      [],
    );
    assert.ok(!names.includes('GITHUB_TOKEN'));
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('the CLI reads an mcp.json saved by Windows PowerShell 5.1: a UTF-8 byte-order mark and CRLF', async () => {
  const ws = tempDir();
  try {
    fs.mkdirSync(path.join(ws, '.vscode'));
    const config = path.join(ws, '.vscode', 'mcp.json');
    const text = JSON.stringify({ servers: { rich: { command: process.execPath, args: [RUN_MJS, 'rich'] } } }, null, 2);
    fs.writeFileSync(config, `\uFEFF${text.replace(/\n/g, '\r\n')}\r\n`);
    // Before: `invalid JSON (InvalidSymbol at offset 0)`, exit 2.
    const list = await runCli(['list', '--config', config]);
    assert.equal(list.stderr, '');
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^rich\n/m);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

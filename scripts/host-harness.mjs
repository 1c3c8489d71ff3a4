// Library for tests against a real VS Code: the VS Code 1.139 server from the npm package code-server
// (run on Node 24, see host.mjs), driven through Debian's chromium with playwright-core.
//
//   const host = await startHost({ workspace });          // fresh dirs under .vscode-test/run-*/
//   const browser = await launchBrowser();
//   const { page } = await openWorkbench(browser, host, { extensionDevelopmentPaths: [ext], folder: workspace });
//   ... finally { await browser.close(); await host.stop(); }
//
// or, for a mocha suite inside the extension host: `await runExtensionTests({ extensionPath, testsPath, workspace })`.
//
// Only ONE extension under development can be loaded through the workbench URL (the web workbench keeps its
// payload in a Map, so a second `extensionDevelopmentPath` replaces the first). Further extensions, like the
// test-only fake model, are installed into the host's extensions dir: `startHost({ installExtensions: [dir] })`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { node24, serverMain, chromiumPath, cacheDir } from './host.mjs';
import { freePort, processRunning } from '../test/processes.js';

export { freePort };

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const fakeModelPath = path.join(root, 'test', 'fake-model');
export const artifactsDir = path.join(root, '.artifacts');
export const screenshotsDir = path.join(artifactsDir, 'screenshots');
/** Env var naming the JSON file test/host/index.js writes its mocha result to. */
export const HOST_RESULT_ENV = 'MCP_PROMPTS_HOST_RESULT';

const SECOND = 1000;
/**
 * Console messages of the workbench that say nothing about our tests (no network, no GitHub account, no
 * agent host here). Everything else is shown. MCP_PROMPTS_HOST_VERBOSE=1 shows everything.
 */
const NOISE = [
  /^Creating a socket \(/,
  /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[(AccountPolicyGate|AgentHost[^\]]*|ChatModelSelection|DefaultAccount)\]/,
  /^Resolv(ing|ed) connection token/,
  /^Creation of workbench contribution/,
  /Timed out waiting for authentication provider/,
  /getaddrinfo (ENOTFOUND|EAI_AGAIN)/,
  /^Canceled(: Canceled)*\s*(\n|$)/,
];
const VERBOSE = !!process.env.MCP_PROMPTS_HOST_VERBOSE;

const DEFAULT_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never', // run dirs lie inside this repository
  'chat.mcp.autostart': 'never',
};

function pause(ms) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

/** Polls `check` (sync or async; truthy result ends the wait) every `interval` ms until `timeout`. */
export async function waitUntil(check, { timeout = 120 * SECOND, interval = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await pause(interval);
  }
}

/** Deletes run dirs of processes that are gone, keeping the newest `keep`. */
export function pruneRunDirs(keep = 10) {
  let dirs;
  try {
    dirs = fs
      .readdirSync(cacheDir)
      .filter(d => /^run-\d{8}T\d{6}-\d+-/.test(d))
      .sort();
  } catch {
    return;
  }
  for (const d of dirs.slice(0, Math.max(0, dirs.length - keep))) {
    if (!processRunning(Number(d.split('-')[2]))) fs.rmSync(path.join(cacheDir, d), { recursive: true, force: true });
  }
}

let runCounter = 0;
/** A fresh directory .vscode-test/run-<timestamp>-<pid>-<n>[-label]/ for one host. */
export function makeRunDir(label = '') {
  const ts = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const dir = path.join(
    cacheDir,
    `run-${ts}-${process.pid}-${++runCounter}${label ? '-' + label.replace(/[^\w.-]+/g, '_') : ''}`,
  );
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// ---- process groups: every group we start is killed on exit, Ctrl-C or SIGTERM --------------------------

const liveGroups = new Set();
const groupTempDirs = new Map(); // pgid -> dirs removed once the group is gone
let handlersInstalled = false;

function removeTempDirs(pgid) {
  for (const dir of groupTempDirs.get(pgid) || []) fs.rmSync(dir, { recursive: true, force: true });
  groupTempDirs.delete(pgid);
}

/**
 * A short-pathed temp dir (for TMPDIR: VS Code puts its IPC sockets there, and a socket path must stay under
 * 108 bytes). Give it to spawnGroup({ tempDirs }) so it is removed with the group.
 */
export function makeShortTempDir(prefix = 'mcpp-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Whether a process of the group still runs. On Linux an exited one that is not reaped yet (a zombie: an
 * orphan waits for PID 1, which here reaps about 1.5 s late) does not count; it holds nothing but its pid.
 */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  return process.platform !== 'linux' || runningInGroup(pgid);
}

function runningInGroup(pgid) {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After the command's closing parenthesis: state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* already gone */
  }
}

function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
    for (const pgid of [...groupTempDirs.keys()]) {
      try {
        removeTempDirs(pgid);
      } catch {
        /* best effort */
      }
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    // The wait's failure is caught inside: the exit handler SIGKILLs what is left.
    process.on(
      sig,
      () =>
        void (async () => {
          process.stderr.write(`\n[host] ${sig}: stopping ${liveGroups.size} VS Code process group(s)\n`);
          const groups = [...liveGroups];
          for (const pgid of groups) signalGroup(pgid, 'SIGTERM');
          try {
            await waitUntil(() => groups.every(g => !groupAlive(g)), {
              timeout: 5 * SECOND,
              what: 'process groups to end',
            });
          } catch {
            /* exit handler SIGKILLs */
          }
          process.exit(sig === 'SIGINT' ? 130 : 143);
        })(),
    );
  }
}

/**
 * Spawns `command args` detached (its own process group) with output appended to `logFile`.
 * Returns { child, pgid, exited: Promise<code>, stop() } where stop() kills the whole group:
 * SIGTERM, then SIGKILL when anything of the group is still alive after `graceMs`; then `tempDirs` are removed.
 */
export function spawnGroup(command, args, { env, cwd, logFile, graceMs = 5 * SECOND, tempDirs = [] } = {}) {
  installExitHandlers();
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(command, args, { detached: true, cwd, env, stdio: ['ignore', out, out] });
  if (typeof out === 'number') fs.closeSync(out);
  const pgid = child.pid;
  if (!pgid) throw new Error(`could not start ${command}`);
  liveGroups.add(pgid);
  if (tempDirs.length) groupTempDirs.set(pgid, tempDirs);
  let exitCode = null;
  const exited = new Promise(resolve =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolve(exitCode);
    }),
  );
  child.on('error', () => {
    /* reported through exit / the wait loops */
  });
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      signalGroup(pgid, 'SIGTERM');
      try {
        await waitUntil(() => !groupAlive(pgid), {
          timeout: graceMs,
          interval: 100,
          what: `process group ${pgid} to end`,
        });
      } catch {
        signalGroup(pgid, 'SIGKILL');
        await waitUntil(() => !groupAlive(pgid), {
          timeout: 10 * SECOND,
          interval: 100,
          what: `process group ${pgid} to die after SIGKILL`,
        });
      }
      liveGroups.delete(pgid);
      removeTempDirs(pgid);
    })());
  return { child, pgid, exited, hasExited: () => exitCode !== null, stop };
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Env for a host: ours plus XDG_* and COPILOT_HOME (where VS Code 1.140 keeps the user's portable
 * mcp-config.json) under `dir`, without variables of a VS Code this may be running inside: no user file
 * of the machine's reaches a test.
 */
export function hostEnv(dir, extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k.startsWith('npm_')) continue;
    env[k] = v;
  }
  for (const [k, sub] of [
    ['XDG_CONFIG_HOME', 'config'],
    ['XDG_DATA_HOME', 'data'],
    ['XDG_CACHE_HOME', 'cache'],
    ['XDG_STATE_HOME', 'state'],
  ]) {
    env[k] = path.join(dir, 'xdg', sub);
    fs.mkdirSync(env[k], { recursive: true });
  }
  // In a home folder of its own, as ~/.copilot is: the extension watches the folder above it for the
  // Copilot CLI's folder to appear, and `dir` holds server.log, which a trace-level watcher would write to
  // on every event it logs there.
  fs.mkdirSync(path.join(dir, 'home'), { recursive: true });
  env.COPILOT_HOME = path.join(dir, 'home', '.copilot');
  return { ...env, ...extra };
}

/**
 * Copies an unpacked extension folder into `extensionsDir` as <publisher>.<name>-<version> and records it
 * in the dir's extensions.json. (Seen: the server also finds a copied folder by scanning when extensions.json
 * does not exist yet, and then writes that file itself; writing the entry here works either way.)
 */
export function installExtensionFolder(extensionDir, extensionsDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const relativeLocation = `${id}-${manifest.version}`;
  const target = path.join(extensionsDir, relativeLocation);
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(extensionDir, target, { recursive: true, filter: src => !/[/\\](node_modules|\.git)$/.test(src) });
  const listFile = path.join(extensionsDir, 'extensions.json');
  let list = [];
  try {
    list = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  } catch {
    /* first one */
  }
  list = list.filter(e => e.identifier?.id?.toLowerCase() !== id.toLowerCase());
  list.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, path: target, scheme: 'file' },
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), pinned: true, source: 'vsix' },
  });
  fs.writeFileSync(listFile, JSON.stringify(list));
  return { id, location: target, manifest };
}

/**
 * Starts the VS Code server with fresh user/server/extension dirs under .vscode-test/run-<ts>/.
 * @param {object} o
 * @param {string} [o.workspace]      folder to open later (created when missing; default <runDir>/workspace)
 * @param {(dir:string)=>any} [o.prepareWorkspace] fills the workspace before the server starts
 * @param {number} [o.port]             default: a free port
 * @param {object} [o.userSettings]     merged over quiet defaults into User/settings.json
 * @param {boolean} [o.quietDefaults]   false: no default settings (no tips, no update checks, ...)
 * @param {string} [o.extensionsDir]    default: <runDir>/extensions
 * @param {string[]} [o.installExtensions] unpacked extension folders to install into extensionsDir (those
 *                                      declaring enabledApiProposals get --enable-proposed-api)
 * @param {object} [o.env]              extra env for the server and so for the extension host
 * @param {boolean} [o.workspaceTrust]  false (default) passes --disable-workspace-trust
 * @param {string} [o.label]            suffix of the run dir name
 * @param {string[]} [o.extraArgs]
 * @returns {Promise<{port:number, url:string, base:string, authority:string, workspace:string, runDir:string, logFile:string,
 *   userDataDir:string, extensionsDir:string, pid:number, remoteUri(p:string):string, stop():Promise<void>}>}
 */
export async function startHost({
  port,
  workspace,
  prepareWorkspace,
  userSettings = {},
  quietDefaults = true,
  extensionsDir,
  installExtensions = [],
  env = {},
  workspaceTrust = false,
  label = '',
  extraArgs = [],
  timeout = 120 * SECOND,
} = {}) {
  const started = Date.now();
  const runDir = makeRunDir(label);
  const userDataDir = path.join(runDir, 'user-data');
  const serverDataDir = path.join(runDir, 'server-data');
  extensionsDir ??= path.join(runDir, 'extensions');
  workspace ??= path.join(runDir, 'workspace');
  const logFile = path.join(runDir, 'server.log');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(serverDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  if (prepareWorkspace) await prepareWorkspace(workspace);
  // Without trust the window trusts everything: say so in the setting too, as a person who switched it
  // off has it (workspace-defined servers still ask for consent: test/e2e/consent.js answers them).
  const trustOff = workspaceTrust ? {} : { 'security.workspace.trust.enabled': false };
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...(quietDefaults ? DEFAULT_USER_SETTINGS : {}), ...trustOff, ...userSettings }, null, 2),
  );
  const proposedApi = [];
  for (const dir of installExtensions) {
    const { id, manifest } = installExtensionFolder(dir, extensionsDir);
    if (manifest.enabledApiProposals?.length) proposedApi.push(id); // e.g. the fake model's default participant
  }
  if (!fs.existsSync(serverMain))
    throw new Error(`VS Code server missing (${serverMain}); run: node scripts/host.mjs setup`);

  port ??= await freePort();
  const args = [
    serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    // The extension host gets the environment built above, not one read from a login shell (`bash -i -l`
    // sourcing the home folder's profile): the same on every machine, and up to 0.6 s sooner per window.
    '--force-disable-user-env',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    userDataDir,
    '--server-data-dir',
    serverDataDir,
    '--extensions-dir',
    extensionsDir,
    ...proposedApi.flatMap(id => ['--enable-proposed-api', id]),
    ...extraArgs,
  ];
  const tmp = makeShortTempDir('mcpp-host-');
  const group = spawnGroup(node24, args, {
    env: hostEnv(runDir, { TMPDIR: tmp, ...env }),
    cwd: runDir,
    logFile,
    tempDirs: [tmp],
  });
  const authority = `127.0.0.1:${port}`;
  const host = {
    port,
    authority,
    url: `http://${authority}`,
    base: `vscode-remote://${authority}`,
    workspace,
    runDir,
    logFile,
    userDataDir,
    serverDataDir,
    extensionsDir,
    pid: group.pgid,
    exited: group.exited,
    remoteUri: p => `vscode-remote://${authority}${path.resolve(p).split(path.sep).map(encodeURIComponent).join('/')}`,
    stop: group.stop,
    startupMs: 0,
  };
  try {
    await waitUntil(
      async () => {
        if (group.hasExited())
          throw new Error(
            `VS Code server exited (${await group.exited}) before answering. Log ${logFile}:\n${tail(logFile)}`,
          );
        try {
          return (await fetch(`${host.url}/version`, { signal: AbortSignal.timeout(5 * SECOND) })).ok;
        } catch {
          return false;
        }
      },
      { timeout, interval: 100, what: `VS Code server on port ${port} (log ${logFile})` },
    );
  } catch (e) {
    await group.stop();
    throw e;
  }
  host.startupMs = Date.now() - started;
  return host;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Debian's chromium, headless, with its XDG dirs (crash reports, dconf, caches) under .vscode-test/browser/
 * instead of the home folder. Close it in `finally` (playwright also kills it when this process exits).
 */
export async function launchBrowser({ headless = true, args = [] } = {}) {
  const env = hostEnv(path.join(cacheDir, 'browser'));
  return chromium.launch({
    executablePath: chromiumPath,
    headless,
    env,
    args: [...CHROMIUM_ARGS, ...args],
    timeout: 120 * SECOND,
  });
}

/**
 * URL of the workbench for `folder` that loads the extension under development (and optionally runs its tests).
 * Only one extensionDevelopmentPath takes effect in the web workbench, so more than one is an error here.
 */
export function workbenchUrl(
  host,
  { extensionDevelopmentPaths = [], extensionTestsPath, folder, workspaceFile, skipWelcome = true } = {},
) {
  const devPaths = [extensionDevelopmentPaths].flat().filter(Boolean);
  if (devPaths.length > 1) {
    throw new Error(
      'the web workbench loads only ONE extensionDevelopmentPath (its payload is a Map); ' +
        'install the others with startHost({ installExtensions: [...] })',
    );
  }
  const payload = devPaths.map(p => ['extensionDevelopmentPath', host.remoteUri(p)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', host.remoteUri(extensionTestsPath)]);
  if (skipWelcome) payload.push(['skipWelcome', 'true']);
  const query = [];
  // A .code-workspace file opens instead of the folder (`workspaceFile`: absolute path on the host).
  if (workspaceFile) query.push(`workspace=${encodeURIComponent(path.resolve(workspaceFile))}`);
  else if (folder) query.push(`folder=${encodeURIComponent(path.resolve(folder))}`);
  if (payload.length) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${host.url}/${query.length ? '?' + query.join('&') : ''}`;
}

/** Formats one console message (codeAutomationLog call or page console); returns null for noise. */
export function formatExtHostLog(type, args) {
  // The page console styles messages: "%c INFO color: #33f text". Keep the level, drop the styling.
  const text = util
    .format(...(Array.isArray(args) ? args : [args]))
    .replace(/%c/g, '')
    .replace(/\s*color:\s*#[0-9a-fA-F]{3,8};?/g, '');
  const level = /^\s*(INFO|WARN|ERR|TRACE|DEBUG)\s+/.exec(text);
  const body = level ? text.slice(level[0].length) : text;
  if (!VERBOSE && NOISE.some(re => re.test(body))) return null;
  return level ? `${level[1]} ${body}` : body;
}

/**
 * Opens a new page on the workbench. `onLog(text, type)` receives the extension host's console (noise
 * filtered), `onExit(code)` the exit code of an extensionTestsPath run.
 * @returns {Promise<{context, page, url:string}>}
 */
export async function openWorkbench(
  browser,
  host,
  {
    extensionDevelopmentPaths = [],
    extensionTestsPath,
    folder,
    workspaceFile,
    viewport = { width: 1400, height: 900 },
    onLog,
    onExit,
    waitForWorkbench = true,
    timeout = 120 * SECOND,
  } = {},
) {
  const url = workbenchUrl(host, { extensionDevelopmentPaths, extensionTestsPath, folder, workspaceFile });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  if (onLog) {
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = formatExtHostLog(type, args);
      if (text !== null) onLog(text, type);
    });
  }
  if (onExit) await page.exposeFunction('codeAutomationExit', code => onExit(code));
  await page.goto(url, { timeout });
  if (waitForWorkbench) await page.locator('.monaco-workbench').first().waitFor({ timeout });
  return { context, page, url };
}

/** Saves a PNG under .artifacts/screenshots/ and returns its path. */
export async function saveScreenshot(page, name) {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Runs the mocha entry `testsPath` (exports run()) inside the extension host of a fresh host with
 * `extensionPath` under development. Extension host console goes to `log` (stdout by default).
 * The test entry gets env MCP_PROMPTS_HOST_RESULT=<resultFile> to write its counts to.
 * @returns {Promise<number>} exit code (0 = all passed; 124 = timed out)
 */
export async function runExtensionTests({
  extensionPath,
  testsPath,
  workspace,
  prepareWorkspace,
  userSettings,
  env = {},
  installExtensions = [fakeModelPath],
  workspaceTrust = false,
  resultFile,
  timeout = 15 * 60 * SECOND,
  log = line => process.stdout.write(line + '\n'),
  label = 'mocha',
  timings,
} = {}) {
  const t0 = Date.now();
  let host, browser, page;
  try {
    host = await startHost({
      workspace,
      prepareWorkspace,
      userSettings,
      installExtensions,
      workspaceTrust,
      label,
      env: { ...(resultFile ? { [HOST_RESULT_ENV]: resultFile } : {}), ...env },
    });
    if (timings) timings.serverUp = Date.now() - t0;
    browser = await launchBrowser();
    let exit;
    const exited = new Promise(resolve => (exit = resolve));
    ({ page } = await openWorkbench(browser, host, {
      extensionDevelopmentPaths: [extensionPath],
      extensionTestsPath: testsPath,
      folder: host.workspace,
      onLog: text => log(text.replace(/\n$/, '')),
      onExit: code => exit(code),
    }));
    if (timings) timings.workbench = Date.now() - t0;
    let timer,
      finished = false;
    const serverDied = host.exited.then(c => {
      if (!finished) log(`[host] VS Code server exited (${c}) during the tests; log ${host.logFile}`);
      return 1;
    });
    const pageCrashed = new Promise(resolve =>
      page.on('crash', () => {
        log('[host] the workbench page crashed');
        resolve(1);
      }),
    );
    const code = await Promise.race([
      exited,
      serverDied,
      pageCrashed,
      new Promise(resolve => (timer = setTimeout(() => resolve(124), timeout))),
    ]);
    finished = true;
    clearTimeout(timer);
    if (code === 124) {
      log(`[host] extension tests timed out after ${timeout} ms`);
      try {
        log(`[host] screenshot: ${await saveScreenshot(page, `${label}-timeout`)}`);
      } catch {
        /* page gone */
      }
    }
    if (timings) timings.total = Date.now() - t0;
    return typeof code === 'number' ? code : 1;
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (host) await host.stop();
  }
}

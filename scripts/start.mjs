#!/usr/bin/env node
// `npm start`: MCP Prompts in a real VS Code (code-server 4.139 = VS Code 1.139) in the browser, on a demo
// workspace whose .vscode/mcp.json configures the demo server (demo/server.mjs: code review, commit message,
// explain the selection, write tests with a question mid-prompt) next to the files of demo/workspace/ (a
// Python file and a diff) to try them on. Installs the VS Code host on first use (scripts/host.mjs setup), then dist/mcp-prompts.vsix and
// the demo echo model (demo/echo-model: chat needs a model, and this one is labelled "Demo echo model — not
// an AI") into a persistent profile under .vscode-test/start/, which opens the MCP Prompts view and the
// walkthrough on its first start, and keeps serving until Ctrl-C, which stops the whole process group.
//
// usage: node scripts/start.mjs [--port N] [--vsix file] [--profile dir] [--no-demo-model] [--with-fake-model]
//   --port             default: env PORT, else 8080
//   --vsix             default: dist/mcp-prompts.vsix (built by `npm run package`)
//   --profile          default: .vscode-test/start (kept between starts; a new one starts "first" again)
//   --no-demo-model    leave the demo echo model out (chat then says "Language model unavailable")
//   --with-fake-model  also install test/fake-model, the tests' deterministic model
import fs from 'node:fs';
import path from 'node:path';
import { node24, codeServerBin, cacheDir, setup } from './host.mjs';
import {
  root,
  fakeModelPath,
  hostEnv,
  installExtensionFolder,
  makeShortTempDir,
  spawnGroup,
  waitUntil,
} from './host-harness.mjs';

const USAGE = 'node scripts/start.mjs [--port N] [--vsix file] [--profile dir] [--no-demo-model] [--with-fake-model]';
/** The demo's language model: echoes what it receives and says it is not an AI. */
const demoModelPath = path.join(root, 'demo', 'echo-model');

function parseArgs(argv) {
  const o = {
    port: Number(process.env.PORT || 8080),
    vsix: path.join(root, 'dist', 'mcp-prompts.vsix'),
    profile: path.join(cacheDir, 'start'),
    demoModel: true,
    fakeModel: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--port') o.port = Number(value());
    else if (a === '--vsix') o.vsix = path.resolve(value());
    else if (a === '--profile') o.profile = path.resolve(value());
    else if (a === '--no-demo-model') o.demoModel = false;
    else if (a === '--with-fake-model') o.fakeModel = true;
    else fail(`unknown argument ${a}\nusage: ${USAGE}`);
  }
  if (!Number.isInteger(o.port) || o.port <= 0 || o.port > 65535) fail(`invalid port ${o.port}`);
  return o;
}

function fail(message) {
  console.error(`start: ${message}`);
  process.exit(1);
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Adds the keys of `defaults` that the (persistent, user-editable) settings file does not set yet. */
function addDefaultSettings(file, defaults) {
  let settings = {};
  if (fs.existsSync(file)) {
    try {
      settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return;
    } // comments etc.: the user's file, leave it
  }
  const missing = Object.keys(defaults).filter(k => !(k in settings));
  if (!missing.length) return;
  for (const k of missing) settings[k] = defaults[k];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/** The demo workspace: its mcp.json regenerated (an absolute path into this checkout), and the files of
 * demo/workspace/ to try the prompts on, copied once (a person may edit them). */
function writeDemoWorkspace(dir) {
  const server = path.join(root, 'demo', 'server.mjs');
  const servers = { demo: { type: 'stdio', command: 'node', args: [server] } };
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2) + '\n');
  const files = path.join(root, 'demo', 'workspace');
  for (const name of fs.readdirSync(files)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) fs.copyFileSync(path.join(files, name), file);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(opts.vsix))
    fail(`${path.relative(process.cwd(), opts.vsix) || opts.vsix} not found: build it first (npm run package)`);
  if (!fs.existsSync(codeServerBin) || !fs.existsSync(node24)) {
    console.log('start: installing the VS Code host (once, a few minutes)');
    try {
      setup();
    } catch (e) {
      fail(`installing the VS Code host failed: ${e.message}`);
    }
  }

  const dir = opts.profile;
  const userDataDir = path.join(dir, 'user-data');
  const extensionsDir = path.join(dir, 'extensions');
  const workspace = path.join(dir, 'demo-workspace');
  const logFile = path.join(dir, 'code-server.log');
  const configFile = path.join(dir, 'config.yaml');
  fs.mkdirSync(extensionsDir, { recursive: true });
  addDefaultSettings(path.join(userDataDir, 'User', 'settings.json'), {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'git.openRepositoryInParentFolders': 'never', // the demo workspace lies inside this repository
    // As --disable-workspace-trust below: the demo trusts its own workspace (its server still asks once
    // before it starts, as every server a workspace defines does).
    'security.workspace.trust.enabled': false,
  });
  // An explicit config keeps code-server from generating a password config under XDG_CONFIG_HOME.
  fs.writeFileSync(configFile, `bind-addr: 127.0.0.1:${opts.port}\nauth: none\ncert: false\n`);
  writeDemoWorkspace(workspace);

  // code-server's launcher is `#!/usr/bin/env node` and needs Node 24: run it with node24, also first on PATH.
  // TMPDIR: VS Code's IPC sockets go to a temp dir removed with the process group instead of piling up in /tmp.
  const envWithTmp = tmp =>
    hostEnv(dir, { PATH: `${path.dirname(node24)}${path.delimiter}${process.env.PATH}`, TMPDIR: tmp });
  const codeServer = fs.realpathSync(codeServerBin);
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  console.log(`start: installing ${path.relative(root, opts.vsix)} into ${path.relative(root, extensionsDir)}`);
  fs.writeFileSync(logFile, '');
  const installTmp = makeShortTempDir('mcpp-install-');
  const install = spawnGroup(node24, [codeServer, ...common, '--force', '--install-extension', opts.vsix], {
    env: envWithTmp(installTmp),
    logFile,
    tempDirs: [installTmp],
  });
  const installCode = await install.exited;
  await install.stop();
  if (installCode !== 0) fail(`installing the vsix failed (exit ${installCode}):\n${tail(logFile)}`);

  const extraArgs = [];
  if (opts.demoModel) {
    const { id } = installExtensionFolder(demoModelPath, extensionsDir);
    console.log(`start: installed ${id} (model "Demo echo model — not an AI": it echoes, it is not an AI)`);
  }
  if (opts.fakeModel) {
    const { id } = installExtensionFolder(fakeModelPath, extensionsDir);
    extraArgs.push('--enable-proposed-api', id);
    console.log(`start: installed test-only ${id} (model "Fake Echo")`);
  }

  const tmp = makeShortTempDir('mcpp-start-');
  const server = spawnGroup(
    node24,
    [
      codeServer,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${opts.port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      ...extraArgs,
      workspace,
    ],
    { env: envWithTmp(tmp), logFile, tempDirs: [tmp] },
  );
  try {
    await waitUntil(
      async () => {
        if (server.hasExited())
          fail(
            `code-server exited (${await server.exited}) before it answered; is port ${opts.port} free? Log ${logFile}:\n${tail(logFile)}`,
          );
        try {
          return (await fetch(`http://127.0.0.1:${opts.port}/healthz`, { signal: AbortSignal.timeout(5000) })).ok;
        } catch {
          return false;
        }
      },
      { timeout: 120000, what: `code-server on port ${opts.port}` },
    );
  } catch (e) {
    await server.stop();
    fail(`${e.message}\n${tail(logFile)}`);
  }
  console.log(`MCP Prompts is running: http://127.0.0.1:${opts.port}/?folder=${encodeURI(workspace)}`);
  console.log(`(log ${path.relative(process.cwd(), logFile)}; Ctrl-C stops it)`);
  const code = await server.exited;
  await server.stop();
  console.error(`start: code-server exited (${code}). Log ${logFile}:\n${tail(logFile)}`);
  process.exit(typeof code === 'number' && code !== 0 ? code : 1);
}

main().catch(e => fail(e.stack || String(e)));

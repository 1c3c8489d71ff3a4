#!/usr/bin/env node
// Runs the tests that need a real VS Code (host from scripts/host.mjs), one host at a time:
//   (a) the mocha suite test/host/*.test.js inside the extension host (test/host/index.js),
//   (b) every UI test test/e2e/*.e2e.js, each with its own fresh host and browser.
// Prints `ok <test>` / `FAIL <test>: <reason>` per test and ends with exactly one line
// `host: N passed, N failed, N skipped`. Exit code 1 on any failure.
//
// usage: node scripts/run-host-tests.mjs [--extension <dir>] [--workspace <dir>] [--only host|e2e] [e2e-name ...]
//   --extension  extension under development (default: the repo root; its `main` must be built)
//   --workspace  folder to copy as the mocha suite's workspace (default: test/workspace.mjs makeWorkspace())
//   --only       run only the mocha suite or only the UI tests (the skipped part is named in the output)
//   e2e-name     run only these UI tests (file names without .e2e.js)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as H from './host-harness.mjs';
import { serverMain, cacheDir } from './host.mjs';

const require = createRequire(import.meta.url);
const { root } = H;

function parseArgs(argv) {
  const o = { extension: root, workspace: undefined, only: undefined, names: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--extension') o.extension = path.resolve(value());
    else if (a === '--workspace') o.workspace = path.resolve(value());
    else if (a === '--only') o.only = value();
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else o.names.push(a);
  }
  if (o.only && !['host', 'e2e'].includes(o.only)) throw new Error('--only takes host or e2e');
  return o;
}

const results = []; // { name, ok, reason }
/** Mocha tests marked pending (skipped): counted apart, never as passed. */
let pending = 0;
function record(name, ok, reason = '') {
  results.push({ name, ok, reason });
  console.log(ok ? `ok ${name}` : `FAIL ${name}: ${String(reason).split('\n')[0]}`);
}
const secs = ms => `${(ms / 1000).toFixed(1)} s`;

/** Problems that make every test meaningless: reported as one failure each instead of a crash. */
function preconditions(extension) {
  const problems = [];
  if (!fs.existsSync(serverMain))
    problems.push(`VS Code host not installed (${serverMain}); run: node scripts/host.mjs setup`);
  const manifestFile = path.join(extension, 'package.json');
  if (!fs.existsSync(manifestFile)) {
    problems.push(`no extension at ${extension} (package.json missing)`);
    return problems;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  if (
    manifest.main &&
    !fs.existsSync(path.resolve(extension, manifest.main)) &&
    !fs.existsSync(path.resolve(extension, manifest.main + '.js'))
  ) {
    problems.push(`extension not built: ${path.resolve(extension, manifest.main)} missing (run the build first)`);
  }
  return problems;
}

async function workspacePreparer(opts) {
  if (opts.workspace) {
    if (!fs.existsSync(opts.workspace)) throw new Error(`--workspace ${opts.workspace} does not exist`);
    console.log(`[host] workspace: copy of ${opts.workspace}`);
    return dir => fs.cpSync(opts.workspace, dir, { recursive: true });
  }
  const helper = path.join(root, 'test', 'workspace.mjs');
  if (fs.existsSync(helper)) {
    const { makeWorkspace } = await import(pathToFileURL(helper).href);
    console.log('[host] workspace: test/workspace.mjs makeWorkspace()');
    return dir => {
      makeWorkspace(dir);
    };
  }
  console.log('[host] workspace: empty folder (no test/workspace.mjs)');
  return undefined;
}

async function runMochaSuite(opts) {
  const testsPath = path.join(root, 'test', 'host', 'index.js');
  const resultFile = path.join(cacheDir, 'results', `host-mocha-${Date.now()}-${process.pid}.json`);
  fs.mkdirSync(path.dirname(resultFile), { recursive: true });
  const timings = {};
  console.log(
    `[host] mocha suite in the extension host: ${path.relative(root, testsPath)} (extension ${opts.extension})`,
  );
  let code;
  try {
    code = await H.runExtensionTests({
      extensionPath: opts.extension,
      testsPath,
      resultFile,
      timings,
      label: 'mocha',
      prepareWorkspace: await workspacePreparer(opts),
      log: line => process.stdout.write(`  | ${line.replace(/\n/g, '\n  | ')}\n`),
    });
  } catch (e) {
    record('host suite', false, `host did not run: ${e.message}`);
    return;
  }
  console.log(
    `[host] mocha suite exit code ${code}; server up ${secs(timings.serverUp ?? 0)}, workbench ${secs(timings.workbench ?? 0)}, total ${secs(timings.total ?? 0)}`,
  );
  let result;
  try {
    result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    fs.rmSync(resultFile);
  } catch {
    /* reported below */
  }
  if (!result) {
    record(
      'host suite',
      false,
      code === 124
        ? 'timed out before mocha finished'
        : `no mocha result (exit code ${code}); test/host/index.js did not run or crashed`,
    );
    return;
  }
  for (const t of result.tests) {
    if (t.state === 'passed') record(`host: ${t.title}`, true);
    else if (t.state === 'failed') record(`host: ${t.title}`, false, (t.error || '').split('\n')[0]);
    else {
      pending++;
      console.log(`pending host: ${t.title}`);
    }
  }
  if (result.tests.length === 0) record('host suite', false, 'mocha found no tests');
  if (code !== 0 && result.failures === 0)
    record('host suite', false, `extension host exited with code ${code} although every test passed`);
}

async function runUiTests(opts) {
  const dir = path.join(root, 'test', 'e2e');
  let files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter(f => f.endsWith('.e2e.js'))
        .sort()
    : [];
  if (opts.names.length) {
    const unknown = opts.names.filter(n => !files.includes(`${n}.e2e.js`));
    for (const n of unknown) record(`e2e ${n}`, false, `no test/e2e/${n}.e2e.js`);
    files = files.filter(f => opts.names.includes(f.replace(/\.e2e\.js$/, '')));
  }
  const { runE2E } = require(path.join(dir, 'harness.js'));
  for (const file of files) {
    const name = file.replace(/\.e2e\.js$/, '');
    console.log(`[host] e2e ${name}`);
    let fn;
    try {
      fn = require(path.join(dir, file));
    } catch (e) {
      record(`e2e ${name}`, false, `cannot load: ${e.message}`);
      continue;
    }
    if (typeof fn !== 'function') {
      record(`e2e ${name}`, false, 'module.exports is not a function');
      continue;
    }
    const r = await runE2E(name, fn, { extensionPath: opts.extension });
    if (r.ok) record(`e2e ${name} (${secs(r.ms)})`, true);
    else {
      if (r.error?.stack)
        console.log(
          r.error.stack
            .split('\n')
            .slice(0, 8)
            .map(l => `  | ${l}`)
            .join('\n'),
        );
      record(
        `e2e ${name}`,
        false,
        `${r.error?.message || r.error}${r.screenshot ? ` (screenshot ${path.relative(root, r.screenshot)})` : ''}`,
      );
    }
  }
  if (files.length === 0 && !opts.names.length) console.log('[host] no test/e2e/*.e2e.js found');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  H.pruneRunDirs(10);
  const problems = preconditions(opts.extension);
  for (const p of problems) record('precondition', false, p);
  if (!problems.length) {
    if (opts.only === 'e2e') console.log('[host] mocha suite not run (--only e2e)');
    else await runMochaSuite(opts);
    if (opts.only === 'host') console.log('[host] UI tests not run (--only host)');
    else await runUiTests(opts);
  }
  if (results.length === 0) record('host tests', false, 'no tests ran');
  const passed = results.filter(r => r.ok).length;
  const failed = results.length - passed;
  console.log(`[host] done in ${secs(Date.now() - t0)}`);
  console.log(`host: ${passed} passed, ${failed} failed, ${pending} skipped`);
  return failed === 0 ? 0 : 1;
}

main().then(
  code => process.exit(code),
  e => {
    console.error(e.stack || e);
    console.log('host: 0 passed, 1 failed, 0 skipped');
    process.exit(1);
  },
);

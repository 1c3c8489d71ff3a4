#!/usr/bin/env node
// `npm test`: the build and the .vsix, then the real VS Code host tests and browser-driven UI tests, with
// beside them, one at a time: type-check, lint, dead code and format check, static checks, unit tests (pure),
// the integration tests (real MCP servers, the CLI) and the official MCP conformance suite's client
// scenarios. Ends with one line `N passed, N failed, N skipped` over all of them.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const skipHost = process.argv.includes('--no-host');
let passed = 0;
let failed = 0;
/**
 * Skipped node:test tests, conformance scenarios of flows we do not offer (expected failures) and pending
 * host tests: reported, never counted as passed.
 */
let skipped = 0;

/** On Windows npx is npx.cmd, which Node starts only through a shell. */
const needsShell = cmd => process.platform === 'win32' && cmd === 'npx';

function step(name, cmd, args, opts = {}) {
  const started = Date.now();
  process.stdout.write(`\n=== ${name}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: needsShell(cmd), ...opts });
  process.stdout.write(
    `=== ${name}: ${r.status === 0 ? 'ok' : `exit ${r.status ?? r.signal}`} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  return r;
}

/** Like step(), but streams the output live while keeping it for the summary line. */
function streamed(name, cmd, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n=== ${name}\n`);
  return new Promise(resolve => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout.on('data', d => {
      stdout += d;
      process.stdout.write(d);
    });
    child.on('close', (status, signal) => {
      process.stdout.write(
        `=== ${name}: ${status === 0 ? 'ok' : `exit ${status ?? signal}`} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
      resolve({ status, stdout });
    });
  });
}

function count(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`FAIL ${name}\n`);
  }
}

/** Runs a command beside other work, its output kept; `shown` prints it whole, with the step's closing line. */
function captured(cmd, args) {
  const started = Date.now();
  return new Promise(resolve => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: needsShell(cmd) });
    let out = '';
    child.stdout.on('data', d => (out += d));
    child.stderr.on('data', d => (out += d));
    child.on('close', status => resolve({ status, out, seconds: (Date.now() - started) / 1000 }));
  });
}

function shown(name, { status, out, seconds }) {
  process.stdout.write(
    `\n=== ${name}\n${out}=== ${name}: ${status === 0 ? 'ok' : `exit ${status}`} (${seconds.toFixed(1)} s)\n`,
  );
}

/** node --test over one folder, with a TAP copy of the output to count from. */
function nodeTestArgs(dir, tapFile, concurrency) {
  return [
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    dir,
  ];
}

/** Each test of a TAP file counts; a run that failed with no failed test counts once. */
function countTap(name, tapFile, status) {
  const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
  const p = Number(/^# pass (\d+)/m.exec(tap)?.[1] ?? 0);
  const f = Number(/^# fail (\d+)/m.exec(tap)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(tap)?.[1] ?? 0);
  passed += p;
  failed += f;
  skipped += Number(/^# skipped (\d+)/m.exec(tap)?.[1] ?? 0) + Number(/^# todo (\d+)/m.exec(tap)?.[1] ?? 0);
  if (status !== 0 && f === 0) count(`${name} run`, false);
}

/** A runner's closing line `<label>: N passed, N failed, N skipped` counts; a failed run without one counts once. */
function countSummary(name, label, { status, out }) {
  const m = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?`, 'm').exec(out ?? '');
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
    skipped += Number(m[3] ?? 0);
  }
  if (!m || (status !== 0 && Number(m[2]) === 0)) count(`${name} run`, false);
}

fs.mkdirSync('out', { recursive: true });
const built = step('build', 'node', ['esbuild.mjs', '--tests']).status === 0;
count('build', built);
// The host tests and the .vsix they install in `start` run the production bundles: packed before them.
const setup = skipHost ? undefined : step('VS Code host setup', 'node', ['scripts/host.mjs', 'setup']);
if (setup) count('host setup', setup.status === 0);
if (!skipHost && built) count('package', step('package .vsix', 'npm', ['run', 'package', '--silent']).status === 0);

/**
 * The checks that only read the tree, one at a time beside the host tests (which leave part of the second
 * core idle while a page renders or a server answers); with --no-host, or without a build, on their own.
 * Each prints its output whole when it ends.
 */
const CHECKS = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']],
  ['lint (eslint)', 'npx', ['eslint', '.']],
  ['dead code (knip)', 'npx', ['knip']],
  ['format check (prettier)', 'npx', ['prettier', '--check', '.']],
];
const TESTS = [
  ['static checks (sources, manifest, README, l10n, package)', 'out/test/static/', 'out/static.tap', 2],
  ['unit tests (pure)', 'out/test/unit/', 'out/unit.tap', 2],
  ['integration tests (real MCP servers, the CLI)', 'out/test/integration/', 'out/integration.tap', 1],
];
async function checksAndTests({ conformance }) {
  for (const [name, cmd, args] of CHECKS) {
    const run = await captured(cmd, args);
    shown(name, run);
    count(name, run.status === 0);
  }
  if (!built) return;
  for (const [name, dir, tapFile, concurrency] of TESTS) {
    const run = await captured('node', nodeTestArgs(dir, tapFile, concurrency));
    shown(name, run);
    countTap(name, tapFile, run.status);
  }
  if (conformance) {
    // The official conformance suite needs Node >= 22: the host setup installed Node 24 for it.
    const name = 'MCP conformance suite, client scenarios (our core as the client)';
    const run = await captured('node', ['test/conformance/run.mjs']);
    shown(name, run);
    countSummary(name, 'conformance', run);
  }
}

const hostReady = !skipHost && built && setup.status === 0;
const beside = checksAndTests({ conformance: hostReady });
if (hostReady) {
  // start.e2e.js packs as `npm start` does, unless the .vsix was packed from this tree just now.
  const host = await streamed('real VS Code host and UI tests', 'node', ['scripts/run-host-tests.mjs'], {
    MCP_PROMPTS_VSIX_PACKED: '1',
  });
  countSummary('host tests', 'host', { status: host.status, out: host.stdout });
}
await beside;
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed ? 1 : 0;

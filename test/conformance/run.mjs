#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios (npm package @modelcontextprotocol/conformance,
// pinned) against our core (out/test/conformance/client.js, built by `node esbuild.mjs --tests`): every
// client scenario the 2026-07-28 revision requires (`--requirements 2026-07-28`, with the extension ones it
// runs unscored) and the MCP Skills extension scenarios (SEP-2640), in two passes:
// - parallel: every scenario at once, as the suite runs by default: its own parallel mode for the
//   revision (`client --requirements 2026-07-28`) with the Skills scenarios started beside it (no suite
//   of the suite holds just them);
// - alone: each scenario we must pass, one at a time per worker (two workers).
// The suite needs Node >= 22: it runs on the Node 24 that `scripts/host.mjs setup` installs; our client
// runs on the Node that runs this script (the extension's minimum, 20).
//   node test/conformance/run.mjs [--node24 PATH] [--alone | --parallel] [scenario ...]
// Prints one line per scenario and pass, and ends with `conformance: N passed, N failed, N skipped`. A
// scenario in EXPECTED_FAILURES is counted as skipped when it fails (a flow we do not offer, never as a
// pass) and fails the run when it passes (a stale entry); any other scenario that fails, in either pass,
// fails the run. Expected failures are judged in the parallel pass (every scenario runs there).
// Output: out/conformance/<scenario>.log (alone), out/conformance/parallel-*.log.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24 as defaultNode24 } from '../../scripts/host.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const client = path.join(root, 'out', 'test', 'conformance', 'client.js');
const outDir = path.join(root, 'out', 'conformance');
const REVISION = '2026-07-28';
/**
 * The client's time per scenario. All at once, one process of the suite serves every scenario on one
 * core: on a busy 2-core machine (load 20) a first answer took more than the suite's default 30 s, so
 * both this bound and our client's per-request timeout (client.ts) are 120 s. A failing scenario ends
 * at once; only a hang waits that long.
 */
const CLIENT_TIMEOUT_MS = 120000;

const TOOLS_ONLY = 'MCP Prompts reads prompts and skills and never calls tools';
/** Scenarios of flows MCP Prompts does not offer, each with the reason. Nothing else may fail. */
export const EXPECTED_FAILURES = {
  tools_call: `calls a tool: ${TOOLS_ONLY}`,
  'sep-2322-client-request-state': `echoes request state through a tools/call that answers input_required: ${TOOLS_ONLY} (its prompts/get answers input_required the same way: test/integration/questions.test.ts)`,
  'http-custom-headers': `mirrors tool parameters into Mcp-Param-* headers of a tools/call (SEP-2243): ${TOOLS_ONLY}`,
  'http-invalid-tool-headers': `lists tools and calls the valid one: ${TOOLS_ONLY}`,
  'json-schema-ref-no-deref': `lists tools with a network $ref in their input schema: ${TOOLS_ONLY}`,
  'json-schema-2020-12-preservation': `keeps a tool's JSON Schema 2020-12 input schema as it came: ${TOOLS_ONLY}`,
  'auth/scope-step-up': `asks for more scopes on tools/call (its handshake and tools/list are open): ${TOOLS_ONLY}, so it never meets the step-up`,
  'auth/basic-cimd':
    'expects a URL client id (client ID metadata document, SEP-991): MCP Prompts has no https home for such a document and registers dynamically',
  'auth/client-credentials-jwt':
    'machine-to-machine client_credentials with private_key_jwt: MCP Prompts signs a person in through the browser',
  'auth/client-credentials-basic':
    'machine-to-machine client_credentials grant: MCP Prompts signs a person in through the browser',
  'auth/enterprise-managed-authorization':
    'enterprise-managed authorization (ID-JAG token exchange): not offered; a person signs in through the browser',
  'auth/wif-jwt-bearer': 'workload identity federation (a JWT bearer grant from a workload): not offered',
  'auth/dpop': 'DPoP-bound tokens (SEP-1932): not offered; MCP Prompts uses bearer tokens',
  'auth/dpop-nonce': 'DPoP-bound tokens with a server nonce (SEP-1932): not offered',
};

const argv = process.argv.slice(2);
const n24 = argv.includes('--node24') ? argv[argv.indexOf('--node24') + 1] : defaultNode24;
const only = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--node24');
const passes = argv.includes('--alone')
  ? ['alone']
  : argv.includes('--parallel')
    ? ['parallel']
    : ['parallel', 'alone'];

function fail(message) {
  process.stdout.write(`${message}\nconformance: 0 passed, 1 failed, 0 skipped\n`);
  process.exit(1);
}
if (!fs.existsSync(n24)) fail(`conformance: Node 24 not found at ${n24} (run: node scripts/host.mjs setup)`);
if (!fs.existsSync(cli)) fail('conformance: @modelcontextprotocol/conformance is not installed (run: npm ci)');
if (!fs.existsSync(client))
  fail('conformance: out/test/conformance/client.js is missing (run: node esbuild.mjs --tests)');

/** `conformance list …` as text. */
function list(args) {
  const r = spawnSync(n24, [cli, 'list', ...args], { encoding: 'utf8' });
  if (r.status !== 0) fail(`conformance: \`conformance list ${args.join(' ')}\` failed: ${r.stderr}`);
  return r.stdout;
}

/** The client scenarios the revision requires: those it scores and the unscored ones its run includes. */
function requiredScenarios() {
  const required = list(['--requirements', REVISION]);
  const scored = [...(required.split(/^Client scenarios.*$/m)[1] ?? '').split(/^\S/m)[0].matchAll(/^\s+-\s+(\S+)/gm)];
  const unscored = [...required.matchAll(/^\s+-\s+(\S+) \[client\]/gm)];
  return [...new Set([...scored, ...unscored].map(m => m[1]))];
}

/** The MCP Skills client scenarios (SEP-2640): what a host does with a server's skills. */
function skillsScenarios() {
  return [...list(['--client']).matchAll(/^\s+-\s+(sep-2640-client-\S+) \[extension\]/gm)].map(m => m[1]);
}

const required = only.length ? [] : requiredScenarios();
const skills = only.length ? [] : skillsScenarios();
const scenarios = only.length ? only : [...required, ...skills];
for (const name of Object.keys(EXPECTED_FAILURES)) {
  if (!only.length && !scenarios.includes(name))
    process.stdout.write(`note: expected failure ${name} is not a scenario of this suite version\n`);
}
// Each run's results alone: the suite adds a folder per scenario and run.
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const logName = name => path.join(outDir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.log`);
// The suite splits --command on spaces and runs it through a shell.
const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;

/** Runs the suite with `args`; resolves its exit status and output, also written to `logFile`. */
function suite(args, logFile, killAfterMs) {
  return new Promise(resolve => {
    const out = fs.createWriteStream(logFile);
    const child = spawn(n24, [cli, 'client', ...args, '--command', command, '--timeout', String(CLIENT_TIMEOUT_MS)], {
      cwd: outDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let text = '';
    const keep = d => {
      text += d;
      out.write(d);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', status => {
      clearTimeout(timer);
      out.end();
      resolve({ status, text });
    });
  });
}

/** One scenario alone; passed when the suite says so (exit 0: no failed check, no warning, client exit 0). */
async function alone(name, logFile = logName(name)) {
  const { status, text } = await suite(['--scenario', name], logFile, 2 * CLIENT_TIMEOUT_MS);
  const summary = /Passed: (\d+\/\d+, \d+ failed, \d+ warnings)/.exec(text)?.[1] ?? 'no result';
  const failedChecks = [...text.matchAll(/^\s+- (.+)$/gm)]
    .map(m => m[1])
    .filter(l => !l.includes('/'))
    .slice(0, 3);
  return { name, ok: status === 0, summary, failedChecks, logFile };
}

/** The suite's parallel run of the revision's scenarios: each one of its summary, passed when marked ✓. */
async function parallelRequired() {
  const logFile = path.join(outDir, 'parallel-requirements.log');
  const { text } = await suite(
    ['--requirements', REVISION, '-o', path.join(outDir, 'parallel-requirements')],
    logFile,
    3 * CLIENT_TIMEOUT_MS,
  );
  const summary = text.split(/^=== SUITE SUMMARY ===$/m)[1] ?? '';
  return [...summary.matchAll(/^([✓✗]) (\S+): (.+)$/gm)].map(m => ({
    name: m[2],
    ok: m[1] === '✓',
    summary: m[3],
    failedChecks: [],
    logFile,
  }));
}

let passed = 0;
let failed = 0;
let skipped = 0;
/** Counts one result of `pass` against EXPECTED_FAILURES and prints its line. */
function judge(pass, r) {
  const expected = EXPECTED_FAILURES[r.name];
  const where = `${r.name} [${pass}]`;
  if (expected && !r.ok) {
    skipped++;
    process.stdout.write(`skip ${where} (expected failure: ${expected})\n`);
  } else if (r.ok && !expected) {
    passed++;
    process.stdout.write(`ok   ${where} (${r.summary})\n`);
  } else {
    failed++;
    process.stdout.write(
      expected
        ? `FAIL ${where}: passes now; remove it from EXPECTED_FAILURES in test/conformance/run.mjs\n`
        : `FAIL ${where} (${r.summary})${r.failedChecks.length ? `: ${r.failedChecks.join('; ')}` : ''}; see ${path.relative(root, r.logFile)}\n`,
    );
  }
}

if (passes.includes('parallel') && !only.length) {
  const started = Date.now();
  const [requiredRun, ...skillsRuns] = await Promise.all([
    parallelRequired(),
    ...skills.map(s => alone(s, logName(`parallel-${s}`))),
  ]);
  const results = new Map([...requiredRun, ...skillsRuns].map(r => [r.name, r]));
  for (const name of scenarios) {
    const r = results.get(name) ?? {
      name,
      ok: false,
      summary: 'not run in parallel mode',
      failedChecks: [],
      logFile: '',
    };
    judge('parallel', r);
  }
  process.stdout.write(`conformance parallel: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

if (passes.includes('alone')) {
  // Expected failures are judged in the parallel pass, which runs every scenario. A scenario spends
  // about half its time waiting (the suite's start and stop, the client's round trips): three at a time.
  const queue = scenarios.filter(s => only.length || !EXPECTED_FAILURES[s]);
  const workers = Math.max(1, Math.min(3, (os.availableParallelism?.() ?? 2) + 1));
  const started = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let name = queue.shift(); name; name = queue.shift()) judge('alone', await alone(name));
    }),
  );
  process.stdout.write(`conformance alone: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

process.stdout.write(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed ? 1 : 0;

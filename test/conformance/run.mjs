#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios (npm package @modelcontextprotocol/conformance)
// against our core (out/test/conformance/client.js, built by `node esbuild.mjs --tests`), one scenario at
// a time per worker. The suite needs Node >= 22: it runs on the Node 24 that `scripts/host.mjs setup`
// installs; our client runs on the Node that runs this script (the extension's minimum, 20).
//   node test/conformance/run.mjs [--node24 PATH] [scenario ...]
// Prints one line per scenario and ends with `conformance: N passed, N failed, N skipped`. A scenario in
// EXPECTED_FAILURES is counted as skipped when it fails (a flow we do not offer, never as a pass) and
// fails when it passes (a stale entry).
// Each scenario's output is in out/conformance/<scenario>.log.
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

/** Scenarios of flows MCP Prompts does not offer, each with the reason. Nothing else may fail. */
export const EXPECTED_FAILURES = {
  tools_call: 'calls a tool: MCP Prompts reads prompts only and never calls tools',
  'elicitation-sep1034-client-defaults':
    'asks its question from inside a tools/call: MCP Prompts never calls tools (it answers questions during prompts/get, completion and prompts/list: test/integration/questions.test.ts)',
  'sse-retry': 'times the resumption of a tools/call response stream: MCP Prompts never calls tools',
  'auth/scope-step-up':
    'asks for more scopes on tools/call (initialize and tools/list are open): MCP Prompts sends no tools request to this tools-only server',
  'auth/2025-03-26-oauth-metadata-backcompat':
    'serves authorization-server metadata at the server root whose issuer (/oauth) is not that address: the v2 SDK refuses it (RFC 8414 §3.3 issuer echo, a mix-up defence), as MCP Prompts does with any server',
  'auth/basic-cimd':
    'expects a URL client id (client ID metadata document, SEP-991): MCP Prompts has no hosted https metadata document and registers dynamically',
  'auth/client-credentials-jwt':
    'machine-to-machine client_credentials with private_key_jwt: MCP Prompts signs a person in through the browser',
  'auth/client-credentials-basic':
    'machine-to-machine client_credentials grant: MCP Prompts signs a person in through the browser',
  'auth/cross-app-access-complete-flow': 'enterprise cross-app access (ID-JAG token exchange, SEP-990): not offered',
};

const argv = process.argv.slice(2);
const n24 = argv.includes('--node24') ? argv[argv.indexOf('--node24') + 1] : defaultNode24;
const only = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--node24');

function fail(message) {
  process.stdout.write(`${message}\nconformance: 0 passed, 1 failed, 0 skipped\n`);
  process.exit(1);
}
if (!fs.existsSync(n24)) fail(`conformance: Node 24 not found at ${n24} (run: node scripts/host.mjs setup)`);
if (!fs.existsSync(cli)) fail('conformance: @modelcontextprotocol/conformance is not installed (run: npm ci)');
if (!fs.existsSync(client))
  fail('conformance: out/test/conformance/client.js is missing (run: node esbuild.mjs --tests)');

/** Client scenarios as the installed suite lists them (`conformance list`). */
function listScenarios() {
  const r = spawnSync(n24, [cli, 'list'], { encoding: 'utf8' });
  if (r.status !== 0) fail(`conformance: \`conformance list\` failed: ${r.stderr}`);
  const section = r.stdout.split(/^Client scenarios.*$/m)[1] ?? '';
  return [...section.matchAll(/^\s+-\s+(\S+)/gm)].map(m => m[1]);
}

const scenarios = only.length ? only : listScenarios();
for (const name of Object.keys(EXPECTED_FAILURES)) {
  if (!only.length && !scenarios.includes(name))
    process.stdout.write(`note: expected failure ${name} is not a scenario of this suite version\n`);
}
fs.mkdirSync(outDir, { recursive: true });

/** Runs one scenario; resolves true when the suite passed it (exit 0: no failed check, no warning, client exit 0). */
function runScenario(name) {
  return new Promise(resolve => {
    const logFile = path.join(outDir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.log`);
    const out = fs.createWriteStream(logFile);
    // The suite splits --command on spaces and runs it through a shell.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;
    const child = spawn(n24, [cli, 'client', '--scenario', name, '--command', command, '--timeout', '30000'], {
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
    const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
    child.on('close', status => {
      clearTimeout(timer);
      out.end();
      const summary = /Passed: (\d+\/\d+, \d+ failed, \d+ warnings)/.exec(text)?.[1] ?? 'no result';
      const failedChecks = [...text.matchAll(/^\s+- (.+)$/gm)]
        .map(m => m[1])
        .filter(l => !l.includes('/'))
        .slice(0, 3);
      resolve({ ok: status === 0, summary, failedChecks, logFile });
    });
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
const queue = [...scenarios];
const workers = Math.max(1, Math.min(4, os.availableParallelism?.() ?? 2));
await Promise.all(
  Array.from({ length: workers }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const r = await runScenario(name);
      const expected = EXPECTED_FAILURES[name];
      if (expected && !r.ok) {
        skipped++;
        process.stdout.write(`skip ${name} (expected failure: ${expected})\n`);
      } else if (r.ok && !expected) {
        passed++;
        process.stdout.write(`ok   ${name} (${r.summary})\n`);
      } else {
        failed++;
        process.stdout.write(
          expected
            ? `FAIL ${name}: passes now; remove it from EXPECTED_FAILURES in test/conformance/run.mjs\n`
            : `FAIL ${name} (${r.summary})${r.failedChecks.length ? `: ${r.failedChecks.join('; ')}` : ''}; see ${path.relative(root, r.logFile)}\n`,
        );
      }
    }
  }),
);
process.stdout.write(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed ? 1 : 0;

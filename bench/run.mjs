#!/usr/bin/env node
// `npm run bench`: speed and size of MCP Prompts, every figure against a baseline measured in the same
// run (medians; absolute times are context only). Builds the production bundles and the .vsix first,
// so every figure is of the code as it is. Tables on stdout, every figure in bench/results.json; ends
// with the targets missed, and exits 1 when any is (or a section failed), 0 when every target holds. A
// section that cannot run here (the real VS Code host is not installed) is skipped with one line
// saying how to run it.
//   node bench/run.mjs [--only=size,overhead,cold,typing,scale,activation,cache,connect,host-memory,ui-scale] [--quick]
// --quick: fewer repetitions (smoke test; figures are noisier).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildArgumentRows, buildCore } from './build.mjs';
import { BENCH, ROOT, printTable, reapChildren, runProcess } from './lib.mjs';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const only = argv
  .find(a => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
// The real-host memory section (its wait for the host lock, a host start, 1,000 runs) gets its own time;
// so do the per-call section, which measures until each method is decided (up to 6 minutes), and the
// scale, connect and cache sections, which measure until each ratio is decided (bench/ratio-cycles.mjs).
const LIMIT_S =
  600 +
  (!only || only.includes('overhead') ? 400 : 0) +
  (!only || only.includes('scale') ? 300 : 0) +
  (!only || only.includes('connect') ? 240 : 0) +
  (!only || only.includes('cache') ? 60 : 0) +
  (!only || only.includes('host-memory') ? 1200 : 0) +
  (!only || only.includes('ui-scale') ? 900 : 0);

const sections = [
  ['size', '6. Size (KB = 1024 bytes)', async () => (await import('./size.mjs')).run()],
  [
    'overhead',
    '1. Per-call overhead: core vs plain SDK Client (already connected)',
    async () => (await import('./overhead.mjs')).run({ quick }),
  ],
  [
    'cold',
    '2. Cold start: `node dist/cli.js list` vs bench/raw-list.mjs (plain SDK)',
    async () => (await import('./coldstart.mjs')).run({ reps: quick ? 3 : 12 }),
  ],
  [
    'typing',
    '4. Completion under typing (30 keystrokes at 40 ms a key, 10 at 120 ms; server delay 100 ms) and the work of each keystroke',
    async () => (await import('./typing.mjs')).run({ reps: quick ? 2 : 5 }),
  ],
  [
    'scale',
    '3. Scale: 20 stdio servers × 1,000 prompts',
    async () =>
      (await import('./scale.mjs')).run(
        quick ? { reps: 1, singles: 1, plan: { minCycles: 2, maxCycles: 2, budgetS: 0 } } : { reps: 5, singles: 5 },
      ),
  ],
  ['activation', '5. Activation', async () => (await import('./activation.mjs')).run()],
  ['cache', '7. Saved prompt lists, on demand', async () => (await import('./cache.mjs')).run({ quick })],
  [
    'connect',
    '8. Connect time per protocol era: core vs the raw v2 SDK Client (stdio spawns; HTTP servers already running)',
    async () => (await import('./connect.mjs')).run({ quick }),
  ],
  [
    'host-memory',
    '9. Memory over time in the real VS Code host: prompt runs with a 5 MB image (waits for /tmp/mcp-host.lock)',
    async () => (await import('./host-memory.mjs')).run({ quick }),
  ],
  [
    'ui-scale',
    '10. The real UI at 100 and 10,000 prompts: `@mcp /`, Run Prompt…, the sidebar (real VS Code host; waits for /tmp/mcp-host.lock)',
    async () => (await import('./ui-scale.mjs')).run({ quick }),
  ],
];

let finished = false;
async function abort(why, code) {
  if (finished) return;
  finished = true;
  console.error(`\nbench: ${why}`);
  const left = await reapChildren();
  if (left.length)
    console.error(`bench: killed ${left.length} leftover child process(es): ${left.map(p => p.pid).join(', ')}`);
  process.exit(code);
}
process.on('SIGINT', () => void abort('interrupted', 130));
process.on('SIGTERM', () => void abort('terminated', 143));
setTimeout(() => void abort(`time limit of ${LIMIT_S} s reached`, 1), LIMIT_S * 1000).unref();

const started = Date.now();
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  platform: `${os.platform()} ${os.release()}`,
  loadavgAtStart: os.loadavg(),
  quick,
  sections: {},
};
console.log(
  `MCP Prompts bench — ${results.date}, node ${results.node}, ${results.cpus} CPUs, load ${results.loadavgAtStart.map(l => l.toFixed(1)).join(' ')}${quick ? ' (--quick: noisy)' : ''}`,
);
console.log('Every ratio is ours / a baseline measured in this same run; medians; absolute figures are context.');
// The shipped bundles, from the code as it is: the CLI (cold start), the extension (the host) and the sizes use them.
const built = await runProcess(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, timeoutMs: 180000 });
if (built.code !== 0) {
  console.error(`bench: node esbuild.mjs --production failed (exit ${built.code}):\n${built.stderr}`);
  process.exit(1);
}
await buildCore();
await buildArgumentRows();
await (await import('esbuild')).stop();

const misses = [];
const skipped = [];
let errors = 0;
for (const [key, title, fn] of sections) {
  if (only && !only.includes(key)) continue;
  const t0 = Date.now();
  try {
    const r = await fn();
    if (r.skipped) {
      console.log(`\n## ${title}\n  SKIPPED: ${r.skipped}`);
      results.sections[key] = { skipped: r.skipped };
      skipped.push(key);
      continue;
    }
    printTable(`${title}  [${((Date.now() - t0) / 1000).toFixed(0)} s]`, r.rows, r.notes);
    results.sections[key] = { seconds: (Date.now() - t0) / 1000, ...r };
    for (const x of r.rows) if (x.miss) misses.push(`${key}: ${x.measure}: ${x.miss}`);
  } catch (err) {
    errors++;
    console.log(`\n## ${title}\n  FAILED: ${err instanceof Error ? err.stack : err}`);
    results.sections[key] = { error: String(err instanceof Error ? err.message : err) };
  }
  const left = await reapChildren();
  if (left.length)
    console.log(
      `  · warning: ${left.length} child process(es) still alive after this section, killed: ${left.map(p => `${p.pid} ${p.args.slice(0, 80)}`).join('; ')}`,
    );
}

results.seconds = (Date.now() - started) / 1000;
results.loadavgAtEnd = os.loadavg();
results.misses = misses;
results.skipped = skipped;
const rowsPassed = Object.values(results.sections).flatMap(s => s.rows ?? []);
const verdicts = rowsPassed.reduce((m, r) => ({ ...m, [r.verdict]: (m[r.verdict] ?? 0) + 1 }), {});
fs.writeFileSync(path.join(BENCH, 'results.json'), JSON.stringify(results, null, 1) + '\n');
console.log(
  `\n${Object.entries(verdicts)
    .map(([k, v]) => `${v} ${k}`)
    .join(
      ', ',
    )}${errors ? `, ${errors} section(s) FAILED` : ''}${skipped.length ? `, skipped: ${skipped.join(', ')}` : ''} — ${results.seconds.toFixed(0)} s, load ${results.loadavgAtEnd.map(l => l.toFixed(1)).join(' ')}`,
);
console.log(`results: ${path.relative(process.cwd(), path.join(BENCH, 'results.json')) || 'bench/results.json'}`);
if (misses.length) console.log(`\nMISSED ${misses.length} target(s):\n${misses.map(m => `  - ${m}`).join('\n')}`);
if (errors) console.log(`\n${errors} section(s) FAILED (above).`);
if (!misses.length && !errors) console.log('\nEvery target holds.');
finished = true;
process.exit(errors || misses.length ? 1 : 0);

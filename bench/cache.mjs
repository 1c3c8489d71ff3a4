// 7. Saved prompt lists, servers started on demand (mcpPrompts.startServers `onDemand`): 20 stdio
// servers × 1,000 prompts whose lists a first window saved. Each measurement in a fresh
// `node --expose-gc` process (this file with --child):
//  - activation → catalog complete: a new catalog over the saved lists until all 20,000 prompts are in it,
//    as the main thread's time on a CPU (the quietest quarter of the processes: the work is synchronous,
//    and on a loaded machine its wall time is mostly the wait for a CPU);
//  - processes spawned meanwhile (the fixture writes each start's pid to a file);
//  - heap after it, minus the heap of the same process with no servers;
//  - the first run of a prompt on a stopped server (start and get through the run path, the re-list alongside) vs the raw
//    SDK client doing spawn + connect + get from a script, as the CPU time of the process and its server
//    until the answer (bench/tree-cpu.mjs), in cycles with a second raw until decided (bench/ratio-cycles.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, loadCore, median, now, quantile, row, runProcess } from './lib.mjs';
import { serverStart } from './server-start.mjs';
import { decideRatio } from './ratio-cycles.mjs';
import { canMeasureTree, treeCpuMs } from './tree-cpu.mjs';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cacheable.mjs');
const SERVERS = 20;
const PROMPTS = 1000;

function servers(dir, n) {
  const out = {};
  for (let i = 0; i < n; i++)
    out[`s${i}`] = {
      command: process.execPath,
      args: [FIXTURE],
      env: { CACHEABLE_PIDS: path.join(dir, 'pids'), CACHEABLE_COUNT: String(PROMPTS) },
    };
  return out;
}

function pidCount(dir) {
  const f = path.join(dir, 'pids');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
}

function catalogOver(core, dir, n) {
  const cache = new core.PromptCache(new core.FolderStorage(path.join(dir, 'store')));
  const eras = new core.EraMemory(cache.eraStore());
  const catalog = new core.Catalog({
    start: 'eager',
    startServers: 'onDemand',
    cache,
    connection: () => ({ restart: false, eras }),
  });
  catalog.setServers(core.parseConfigObject({ servers: servers(dir, n) }, 'user').servers);
  return { catalog, cache };
}

async function waitUntil(check) {
  while (!check()) await new Promise(r => setTimeout(r, 5));
}

/** The first window: every server starts once, lists, and its list is saved. */
export async function fill(dir) {
  const core = loadCore();
  const { catalog, cache } = catalogOver(core, dir, SERVERS);
  await waitUntil(() => catalog.servers.every(e => e.prompts.length === PROMPTS && !e.cached && !e.loading));
  await cache.flush();
  await catalog.dispose();
}

/**
 * The main thread's time on a CPU and its time waiting for one (Linux: its schedstat, in ns), in ms; undefined
 * elsewhere. Loading the saved lists is synchronous work of that thread: what it runs is ours, what it
 * waits is the machine's other work.
 */
function mainThreadRun() {
  try {
    const [onCpu, wait] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: onCpu / 1e6, wait: wait / 1e6 };
  } catch {
    return undefined;
  }
}

function heapMB() {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function childMain(mode, dir) {
  const core = loadCore();
  if (mode === 'activate' || mode === 'empty') {
    const before = pidCount(dir);
    const run0 = mainThreadRun();
    const t0 = now();
    const { catalog } = catalogOver(core, dir, mode === 'empty' ? 0 : SERVERS);
    await waitUntil(() => catalog.prompts.length === (mode === 'empty' ? 0 : SERVERS * PROMPTS));
    const ms = now() - t0;
    const run1 = mainThreadRun();
    const heap = heapMB();
    const spawned = pidCount(dir) - before;
    await catalog.dispose();
    return {
      ms,
      heap,
      spawned,
      ...(run0 && run1 ? { runMs: run1.run - run0.run, waitMs: run1.wait - run0.wait } : {}),
    };
  }
  if (mode === 'first-run') {
    const { catalog } = catalogOver(core, dir, 1);
    const runner = new core.PromptRunner(catalog, core.memoryRecords());
    const cpu0 = treeCpuMs();
    const t0 = now();
    const out = await runner.run(await core.requestFromLine(catalog, 's0.p7 topic=bench'));
    const ms = now() - t0;
    const cpuMs = treeCpuMs() - cpu0;
    if (out.kind !== 'done') throw new Error(`run failed: ${String(out.error)}`);
    await catalog.dispose();
    return { ms, cpuMs };
  }
  if (mode === 'raw') {
    const cpu0 = treeCpuMs();
    const t0 = now();
    const client = new core.Client({ name: 'raw', version: '1' });
    await client.connect(
      new core.StdioClientTransport({
        command: process.execPath,
        args: [FIXTURE],
        ...serverStart({ CACHEABLE_COUNT: '1000' }),
      }),
    );
    const r = await client.getPrompt({ name: 'p7', arguments: { topic: 'bench' } });
    const ms = now() - t0;
    const cpuMs = treeCpuMs() - cpu0;
    if (!r.messages.length) throw new Error('raw get returned nothing');
    await client.close();
    return { ms, cpuMs };
  }
  throw new Error(`unknown mode ${mode}`);
}

async function child(mode, dir) {
  const r = await runProcess(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode, dir], {
    timeoutMs: 120000,
  });
  if (r.code !== 0) throw new Error(`cache ${mode} exited ${r.code}: ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** One first run (or the raw twin) in a fresh process: its CPU with its server's, or its wall time. */
async function firstRun(mode, dir) {
  const r = await child(mode, dir);
  return canMeasureTree ? { value: r.cpuMs, wall: r.ms } : r.ms;
}

export async function run({ quick = false } = {}) {
  const reps = quick ? 3 : 12;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-cache-'));
  try {
    await fill(dir);
    const act = [];
    const empty = [];
    for (let i = 0; i < reps; i++) {
      empty.push(await child('empty', dir));
      act.push(await child('activate', dir));
    }
    const first = await decideRatio(
      'first run on a stopped server (start, get; re-list of 1,000 alongside) vs raw SDK spawn + connect + get',
      { ours: () => firstRun('first-run', dir), raw: () => firstRun('raw', dir) },
      {
        bound: 1.2,
        what: canMeasureTree ? 'CPU of the client and the server it started, until the answer' : 'wall',
        ...(quick ? { minCycles: 2, maxCycles: 2, budgetS: 10 } : { minCycles: 6, maxCycles: 24, budgetS: 45 }),
      },
    );
    const heapDelta = median(act.map(a => a.heap)) - median(empty.map(a => a.heap));
    // The quietest quarter of the main thread's time on a CPU: the machine's other work only ever adds to it.
    const ran = act.every(a => a.runMs !== undefined);
    const ms = (xs, k) => `${median(xs.map(a => a[k])).toFixed(1)} ms`;
    return {
      rows: [
        row(
          `activation → catalog complete (${SERVERS} saved lists × ${PROMPTS} prompts)`,
          quantile(
            act.map(a => (ran ? a.runMs : a.ms)),
            0.25,
          ),
          undefined,
          'ms',
          { abs: 50 },
          `onDemand; lists read, MAC verified, every field checked; ${ran ? `the main thread's time on a CPU, quietest quarter of ${reps} fresh processes (median ${ms(act, 'runMs')}; wall ${ms(act, 'ms')}, of which waiting for a CPU ${ms(act, 'waitMs')})` : `wall, quietest quarter of ${reps} fresh processes (median ${ms(act, 'ms')})`}`,
        ),
        row('processes spawned meanwhile', Math.max(...act.map(a => a.spawned)), undefined, 'n', { abs: 0 }),
        row('heap over no servers', heapDelta, undefined, 'MB', { abs: 15 }, 'after gc, same process kind'),
        first.row,
      ],
      data: { act, empty, first: first.samples, heapDelta },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  childMain(process.argv[3], process.argv[4]).then(
    r => {
      console.log(JSON.stringify(r));
      process.exit(0);
    },
    err => {
      console.error(err instanceof Error ? err.stack : String(err));
      process.exit(1);
    },
  );
}

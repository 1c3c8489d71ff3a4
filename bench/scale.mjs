// 3. Scale: 20 stdio servers × 1,000 prompts through one Catalog against 20 plain SDK clients doing the
// same, each measurement in a fresh `node --expose-gc` process (bench/scale-child.mjs). Both protocol
// eras, each on a server's very first start (nothing known) and on every start after it (the era
// remembered, as the extension's storage and the CLI's cache folder keep it). Each ratio is decided on
// the CPU time, until every prompt is held, of the measuring process and the servers it started
// (bench/tree-cpu.mjs: the work the start costs this 2-core machine, which 20 Node processes keep busy;
// its wall time there is mostly the wait for a CPU), in cycles with a second raw run until decided
// (bench/ratio-cycles.mjs); the wall time of every run is printed beside it.
import path from 'node:path';
import { modernCommand, startHttpFixture } from '../test/fixtures/launch.mjs';
import { BENCH, loadCore, median, row, runProcess } from './lib.mjs';
import { decideRatio } from './ratio-cycles.mjs';
import { canMeasureTree } from './tree-cpu.mjs';

const SERVERS = 20;
const PROMPTS = 1000;
/** Cycles of ours, raw and raw′ per start (bench/ratio-cycles.mjs): at least, at most, and seconds. */
const PLAN = { minCycles: 4, maxCycles: 8, budgetS: 75 };

async function child(options) {
  const r = await runProcess(
    process.execPath,
    [
      '--expose-gc',
      path.join(BENCH, 'scale-child.mjs'),
      JSON.stringify({ servers: SERVERS, prompts: PROMPTS, pageSize: 100, ...options }),
    ],
    { timeoutMs: 90000 },
  );
  if (r.code !== 0) throw new Error(`scale-child ${JSON.stringify(options)} exited ${r.code}: ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** The era a 2026-07-28 server's first start leaves in the era memory: what every later start passes back. */
async function modernPrior() {
  const core = loadCore();
  const eras = new core.EraMemory();
  const [def] = core.parseConfigObject(
    { servers: { s: { ...modernCommand(), env: { MODERN_PROMPTS: String(PROMPTS) } } } },
    'workspace',
  ).servers;
  const connection = new core.ServerConnection(def, { restart: false, eras });
  await connection.connect();
  await connection.dispose();
  const prior = eras.get(core.eraKey(def));
  if (prior?.kind !== 'modern') throw new Error(`the 2026-07-28 fixture left ${JSON.stringify(prior)}`);
  return prior;
}

const STARTS = [
  ['2025-11-25 servers, first start', { era: 'legacy', remembered: false }, 'raw: the plain initialize handshake'],
  ['2025-11-25 servers, era remembered', { era: 'legacy', remembered: true }, 'raw: the plain initialize handshake'],
  [
    '2026-07-28 servers, first start',
    { era: 'modern', remembered: false },
    "raw: the SDK's negotiation (its probe on a throw-away second process)",
  ],
  ['2026-07-28 servers, era remembered', { era: 'modern', remembered: true }, 'raw: the remembered era as prior'],
];

export async function run({ reps = 3, singles = 5, plan = PLAN } = {}) {
  const prior = await modernPrior();
  const measured = [];
  const decided = [];
  for (const [label, options, rawSetup] of STARTS) {
    const o = { ...options, ...(options.era === 'modern' ? { prior } : {}) };
    const runs = { core: [], raw: [] };
    const measure = async side => {
      const r = await child({ mode: side, ...o });
      runs[side].push(r);
      return canMeasureTree ? { value: r.treeCpuMs, wall: r.loadMs } : r.loadMs;
    };
    const d = await decideRatio(
      `20 × 1,000 prompts, ${label}`,
      { ours: () => measure('core'), raw: () => measure('raw') },
      {
        bound: 1.2,
        ...plan,
        what: canMeasureTree ? 'CPU of the client and the servers it started, until every prompt is held' : 'wall',
        context: `setServers → the catalog holds every prompt, against 20 plain SDK clients connected and listed concurrently (${rawSetup}); one server process each on our side`,
      },
    );
    measured.push(runs);
    decided.push(d);
  }
  const one = [];
  for (let i = 0; i < singles; i++) one.push(await child({ mode: 'core', era: 'legacy', servers: 1 }));
  // The same load with the servers already running (Streamable HTTP): the client's part alone.
  const httpCore = [];
  const httpRaw = [];
  const running = [];
  try {
    for (let i = 0; i < SERVERS; i += 5)
      running.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () =>
            startHttpFixture('paginated', {
              env: { PAGINATED_COUNT: String(PROMPTS), PAGINATED_PAGE_SIZE: '100' },
              timeoutMs: 30000,
            }),
          ),
        )),
      );
    const urls = running.map(s => s.url);
    await child({ mode: 'raw', era: 'legacy', remembered: true, urls }); // warm-up: the servers' first requests are slow (JIT)
    for (let i = 0; i < Math.min(reps, 2); i++) {
      httpCore.push(await child({ mode: 'core', era: 'legacy', remembered: true, urls }));
      httpRaw.push(await child({ mode: 'raw', era: 'legacy', remembered: true, urls }));
    }
  } finally {
    await Promise.all(running.map(s => s.close()));
  }
  const m = (xs, k) => median(xs.map(x => x[k]));
  const runs = xs => xs.map(x => x.loadMs.toFixed(0)).join(', ');
  const [first2025] = measured;
  // The decided rows, then each one's wall time (the raw side's every run, raw′ included) as information.
  const rows = STARTS.flatMap(([label], i) => [
    decided[i].row,
    row(
      `20 × 1,000 prompts, ${label}: wall`,
      m(measured[i].core, 'loadMs'),
      m(measured[i].raw, 'loadMs'),
      'ms',
      undefined,
      `core ${runs(measured[i].core)} / raw ${runs(measured[i].raw)} ms`,
    ),
  ]);
  const mapping = m(
    first2025.core.map(x => ({ t: x.pickerMedianMs + x.treeMedianMs })),
    't',
  );
  rows.push(
    row(
      'one such server alone (2025-11-25, first start)',
      m(one, 'loadMs'),
      undefined,
      'ms',
      undefined,
      `connect + list 1,000 in a fresh process (${runs(one)} ms): on 2 cores, 20 servers cannot start as fast as one — each is a Node process that takes ~0.3 s of CPU to boot`,
    ),
    row(
      'same 20 × 1,000, servers already running (HTTP)',
      m(httpCore, 'loadMs'),
      m(httpRaw, 'loadMs'),
      'ms',
      undefined,
      `no spawns: connect + initialize + 10 pages each; baseline = 20 plain SDK Clients; core ${runs(httpCore)} / raw ${runs(httpRaw)} ms`,
    ),
    row(
      'client CPU during the 20-server first start (2025)',
      m(first2025.core, 'clientCpuMs'),
      m(first2025.raw, 'clientCpuMs'),
      'ms',
      undefined,
      'user+system CPU of the measuring process itself (servers excluded): what the core adds',
    ),
    row(
      're-list 20,000 prompts on running servers',
      m(first2025.core, 'relistMs'),
      m(first2025.raw, 'relistMs'),
      'ms',
      undefined,
      'catalog.refresh() vs every raw client listing all pages again, concurrently',
    ),
    row(
      'heap growth holding 20,000 prompts',
      m(first2025.core, 'heapGrowthMB'),
      m(first2025.raw, 'heapGrowthMB'),
      'MB',
      { abs: 60 },
      'heapUsed after/before, global.gc() twice each; baseline = the raw SDK clients holding the same prompts in arrays',
    ),
    row(
      'item mapping, 20,000 (the shipped picker + tree rows, core/view/picker-rows.ts + tree-items.ts)',
      mapping,
      undefined,
      'ms',
      { abs: 300 },
      `picker ${m(first2025.core, 'pickerMedianMs').toFixed(1)} + tree ${m(first2025.core, 'treeMedianMs').toFixed(1)} ms (median of 10 per process); first cold run ${m(
        first2025.core.map(x => ({ t: x.pickerFirstMs + x.treeFirstMs })),
        't',
      ).toFixed(0)} ms`,
    ),
  );
  return {
    rows,
    data: {
      starts: Object.fromEntries(STARTS.map(([label], i) => [label, measured[i]])),
      single: one,
      httpCore,
      httpRaw,
      modernPrior: prior,
    },
    notes: [
      'item mapping: src/core/view/picker-rows.ts pickerItems and tree-items.ts promptItem, the vscode-free rows src/ui/picker.ts and src/ui/tree.ts hand to VS Code (the last step, descriptor → vscode object, is not timed)',
    ],
  };
}

// 3. Scale: 20 paginated stdio servers × 1,000 prompts (100 per page) through one Catalog, each
// measurement in a fresh `node --expose-gc` process (bench/scale-child.mjs), runs interleaved:
// one server alone (the baseline), 20 servers through the core, 20 servers through plain SDK Clients.
import path from 'node:path';
import { startHttpFixture } from '../test/fixtures/launch.mjs';
import { BENCH, median, row, runProcess } from './lib.mjs';

async function child(mode, servers, urls) {
  const r = await runProcess(
    process.execPath,
    [
      '--expose-gc',
      path.join(BENCH, 'scale-child.mjs'),
      mode,
      String(servers),
      '1000',
      '100',
      ...(urls ? [urls.join(',')] : []),
    ],
    { timeoutMs: 60000 },
  );
  if (r.code !== 0) throw new Error(`scale-child ${mode} ${servers} exited ${r.code}: ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export async function run({ reps = 3, singles = 5 } = {}) {
  const one = [];
  const core = [];
  const raw = [];
  const warm = [];
  for (let i = 0; i < Math.max(reps, singles); i++) {
    if (i < singles) one.push(await child('core', 1));
    if (i < reps) core.push(await child('core', 20));
    if (i < reps) warm.push(await child('core-warm', 20));
    if (i < reps) raw.push(await child('raw', 20));
  }
  // The same load with the servers already running (Streamable HTTP): the client's part alone.
  const httpCore = [];
  const httpRaw = [];
  const running = [];
  try {
    for (let i = 0; i < 20; i += 5)
      running.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () =>
            startHttpFixture('paginated', {
              env: { PAGINATED_COUNT: '1000', PAGINATED_PAGE_SIZE: '100' },
              timeoutMs: 30000,
            }),
          ),
        )),
      );
    const urls = running.map(s => s.url);
    await child('raw', 20, urls); // warm-up: the servers' first requests are slow (JIT), not the client's
    for (let i = 0; i < Math.min(reps, 2); i++) {
      httpCore.push(await child('core', 20, urls));
      httpRaw.push(await child('raw', 20, urls));
    }
  } finally {
    await Promise.all(running.map(s => s.close()));
  }
  const m = (xs, k) => median(xs.map(x => x[k]));
  const single = m(one, 'loadMs');
  const load = m(core, 'loadMs');
  const rawLoad = m(raw, 'loadMs');
  const mapping = m(
    core.map(x => ({ t: x.pickerMedianMs + x.treeMedianMs })),
    't',
  );
  const mappingFirst = m(
    core.map(x => ({ t: x.pickerFirstMs + x.treeFirstMs })),
    't',
  );
  const rows = [
    row(
      '20 × 1,000 prompts: setServers → catalog holds 20,000',
      load,
      single,
      'ms',
      { ratio: 1.2 },
      `baseline = one such server alone (connect + list 1,000, fresh process, median of ${one.length}: ${one.map(x => x.loadMs.toFixed(0)).join(', ')} ms); core 20-server runs: ${core.map(x => x.loadMs.toFixed(0)).join(', ')} ms`,
    ),
    row(
      '20 × 1,000 prompts: absolute',
      load,
      rawLoad,
      'ms',
      { abs: 1500 },
      `baseline = 20 plain SDK Clients connected + listed concurrently (${raw.map(x => x.loadMs.toFixed(0)).join(', ')} ms)`,
    ),
    row(
      '20 × 1,000 prompts, era remembered (no version probe)',
      m(warm, 'loadMs'),
      rawLoad,
      'ms',
      { ratio: 1.2 },
      `each server's era seeded as the persisted era memory gives it on every start after a server's first (the line above is a server's very first start); baseline = the same 20 plain SDK Clients; core ${warm.map(x => x.loadMs.toFixed(0)).join(', ')} ms (vs the 1,500 ms target: ${m(warm, 'loadMs') <= 1500 ? 'within' : 'over'})`,
    ),
    row(
      'same 20 × 1,000, servers already running (HTTP)',
      m(httpCore, 'loadMs'),
      m(httpRaw, 'loadMs'),
      'ms',
      undefined,
      `no spawns: connect + initialize + 10 pages each; baseline = 20 plain SDK Clients; core ${httpCore.map(x => x.loadMs.toFixed(0)).join(', ')} / raw ${httpRaw.map(x => x.loadMs.toFixed(0)).join(', ')} ms (vs the 1,500 ms target: ${m(httpCore, 'loadMs') <= 1500 ? 'within' : 'over'})`,
    ),
    row(
      'client CPU during the 20-server load',
      m(core, 'clientCpuMs'),
      m(raw, 'clientCpuMs'),
      'ms',
      undefined,
      'user+system CPU of the bench process itself (servers excluded): what the core adds',
    ),
    row(
      're-list 20,000 prompts on running servers',
      m(core, 'relistMs'),
      m(raw, 'relistMs'),
      'ms',
      undefined,
      'catalog.refresh() vs every raw client listing all pages again, concurrently',
    ),
    row(
      'heap growth holding 20,000 prompts',
      m(core, 'heapGrowthMB'),
      m(raw, 'heapGrowthMB'),
      'MB',
      { abs: 60 },
      'heapUsed after/before, global.gc() twice each; baseline = the raw SDK clients holding the same prompts in arrays',
    ),
    row(
      'item mapping, 20,000 (the shipped picker + tree rows, core/view/items.ts)',
      mapping,
      undefined,
      'ms',
      { abs: 300 },
      `picker ${m(core, 'pickerMedianMs').toFixed(1)} + tree ${m(core, 'treeMedianMs').toFixed(1)} ms (median of 10 per process); first cold run ${mappingFirst.toFixed(0)} ms`,
    ),
  ];
  return {
    rows,
    data: {
      single: one,
      core,
      warm,
      raw,
      httpCore,
      httpRaw,
      singleMedianMs: single,
      loadMedianMs: load,
      rawLoadMedianMs: rawLoad,
      mappingMedianMs: mapping,
      mappingFirstMs: mappingFirst,
    },
    notes: [
      'item mapping: src/core/view/items.ts pickerItems and promptItem, the vscode-free rows src/ui/picker.ts and src/ui/tree.ts hand to VS Code (the last step, descriptor → vscode object, is not timed)',
    ],
  };
}

// 1. Per-call overhead: the core (Catalog + ServerConnection + PromptRunner.run / completeArgument, the
// path chat and CLI use) against plain SDK Client calls on an already-connected server of the same
// kind, in alternating blocks of calls, over stdio and Streamable HTTP; the client CPU per call decides.
import { getHeapStatistics } from 'node:v8';
import { fixtureCommand, startHttpFixture } from '../test/fixtures/launch.mjs';
import { ORDERS, loadCore, median, now, quantile, row, sleep } from './lib.mjs';

const PAGINATED_ENV = { PAGINATED_COUNT: '23', PAGINATED_PAGE_SIZE: '5' };
const CODE = 'def f(x): return x * 2';
const GET_LINE = `rich.code_review code="${CODE}" language=python`;
/** Our client CPU per call may exceed the raw SDK client's by this much (recent runs, the bounded result
 * store, a cancellable request and parsing are work the raw client does not do). */
const CPU_OVER_RAW_US = 50;
const FIXTURES = { pag: ['paginated', PAGINATED_ENV], rich: ['rich', {}], comp: ['completions', {}] };

// The baseline clients are the SDK's own Client and transports from the same bundle as the core (the SDK
// code the extension ships). With the node_modules copy instead, raw and raw′ would share one copy of the
// SDK and the core run another, JIT-warmed by a third of the calls: that alone cost the core 15–25% more client CPU.
async function rawStdio({ Client, StdioClientTransport }, name, env) {
  const { command, args } = fixtureCommand(name);
  const client = new Client({ name: 'bench-raw', version: '0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
  return client;
}
async function rawHttp({ Client, StreamableHTTPClientTransport }, url) {
  const client = new Client({ name: 'bench-raw', version: '0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function rawListAll(client) {
  const all = [];
  let cursor;
  do {
    const r = await client.listPrompts(cursor === undefined ? {} : { cursor });
    all.push(...r.prompts);
    cursor = r.nextCursor;
  } while (cursor !== undefined);
  return all;
}

const KEYS = ['core', 'raw', 'raw2'];
const settle = () => new Promise(resolve => setImmediate(resolve));

/**
 * Cycles of blocks: in each cycle core, raw and raw′ (a second plain client on its own server process /
 * session: the A/A noise floor) each make `block` calls in a row, in one of the orders in turn. A block's
 * client CPU (process.cpuUsage, with what its calls left for the next turn of the event loop) over its
 * calls is one sample; its span in time places the garbage collections (gcLog) that ran in it, and the
 * growth of the heap over a block without one is what its calls allocated.
 */
async function cycles(fns, { block, count, warmup, roundNo }, into) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  for (let c = 0; c < count; c++) {
    for (const k of ORDERS[c % ORDERS.length]) {
      await settle();
      const h0 = getHeapStatistics().used_heap_size;
      const c0 = process.cpuUsage();
      const t0 = now();
      for (let i = 0; i < block; i++) await fns[k]();
      await settle();
      const cpu = process.cpuUsage(c0);
      const t1 = now();
      const h1 = getHeapStatistics().used_heap_size;
      into[`${KEYS[k]}Wall`].push((t1 - t0) / block);
      into[`${KEYS[k]}Cpu`].push((cpu.user + cpu.system) / block);
      into[`${KEYS[k]}Span`].push([t0, t1, block, h1 - h0]);
    }
    into.round.push(roundNo);
  }
}

/** Every garbage collection of the section: its start (performance.now() time), pause (ms) and kind. */
const gcLog = [];
const gcObserver = new PerformanceObserver(list => {
  for (const e of list.getEntries()) gcLog.push([e.startTime, e.duration, e.detail?.kind ?? 0]);
});

/** The median pause of each kind of collection over the section, µs: a pause's own length is wall time, which the machine's other work stretches. */
function gcCost() {
  const byKind = {};
  for (const [, duration, kind] of gcLog) (byKind[kind] ??= []).push(duration * 1000);
  return Object.fromEntries(Object.entries(byKind).map(([kind, pauses]) => [kind, median(pauses)]));
}

/**
 * Garbage collection per byte allocated in an op's blocks (all three clients): the collections that began
 * in them, each at the median pause of its kind, over the bytes the blocks allocated (a block with a
 * collection in it counts its client's median allocation). Which block a collection falls in is chance
 * (the one that crossed V8's threshold); how much each client allocates is not.
 */
function gcPerByte(clients) {
  const cost = gcCost();
  let pauses = 0;
  let bytes = 0;
  for (const c of clients)
    c.spans.forEach(([t0, t1, block], i) => {
      for (const [start, , kind] of gcLog) if (start >= t0 && start < t1) pauses += cost[kind] ?? 0;
      bytes += (c.clean[i] ? c.alloc[i] : c.typical) * block;
    });
  return bytes > 0 ? pauses / bytes : 0;
}

/** Per block: bytes allocated per call, and whether no collection began in it (then that figure holds). */
function allocations(spans) {
  const alloc = spans.map(([, , block, grown]) => grown / block);
  const clean = spans.map(([t0, t1]) => !gcLog.some(([start]) => start >= t0 - 1 && start < t1 + 1));
  const kept = alloc.filter((_, i) => clean[i]);
  return { spans, alloc, clean, typical: kept.length ? median(kept) : 0 };
}

const OPS = [
  'prompts/list (23 prompts, 5 pages)',
  'prompts/get code_review (2 args)',
  'completion/complete pick_framework.framework',
];
/** Calls a block makes, per op: about 5–30 ms of one client's calls. */
const BLOCK = { stdio: [4, 16, 16], http: [2, 12, 12] };

/**
 * One round: fresh servers / sessions for the core and for the raw clients, and `cycles` of the ops still
 * undecided. Over stdio core and raw necessarily talk to different server processes, and on a busy machine
 * one process can be consistently faster than its twin: several rounds with fresh processes average that out.
 */
async function round(core, transport, ops, plan, samples) {
  const http = [];
  const raws = {};
  const raws2 = {};
  const servers = {};
  let catalog;
  try {
    for (const [id, [name, env]] of Object.entries(FIXTURES)) {
      if (transport === 'stdio') {
        const { command, args } = fixtureCommand(name);
        servers[id] = { command, args, env };
        raws[id] = await rawStdio(core, name, env);
        raws2[id] = await rawStdio(core, name, env);
      } else {
        // One server process, three sessions (core, raw, raw′): no process-to-process bias over HTTP.
        const s = await startHttpFixture(name, { env });
        http.push(s);
        servers[id] = { type: 'http', url: s.url };
        raws[id] = await rawHttp(core, s.url);
        raws2[id] = await rawHttp(core, s.url);
      }
    }
    const config = core.parseConfigObject({ servers }, 'workspace');
    catalog = new core.Catalog({ start: 'eager', connection: () => ({ restart: false }) });
    catalog.setServers(config.servers);
    await catalog.ready();
    for (const e of catalog.servers) if (e.listError) throw e.listError;
    const coreOps = coreCalls(core, catalog);
    const r1 = rawCalls(raws);
    const r2 = rawCalls(raws2);
    for (const k of ops) await cycles([coreOps[k], r1[k], r2[k]], { ...plan, block: BLOCK[transport][k] }, samples[k]);
  } finally {
    await catalog?.dispose();
    for (const c of [...Object.values(raws), ...Object.values(raws2)]) await c.close().catch(() => undefined);
    for (const s of http) await s.close();
  }
}

/** The plain client's three calls on `r` (one client per fixture). */
function rawCalls(r) {
  return [
    async () => {
      const all = await rawListAll(r.pag);
      if (all.length !== 23) throw new Error(`raw listed ${all.length}`);
    },
    async () => {
      const x = await r.rich.getPrompt({ name: 'code_review', arguments: { code: CODE, language: 'python' } });
      if (!x.messages.length) throw new Error('raw get: no messages');
    },
    async () => {
      const x = await r.comp.complete({
        ref: { type: 'ref/prompt', name: 'pick_framework' },
        argument: { name: 'framework', value: 'n' },
        context: { arguments: { language: 'typescript' } },
      });
      if (x.completion.values.length !== 2) throw new Error(`raw complete: ${x.completion.values}`);
    },
  ];
}

/** Ours: the path chat and the CLI take (a re-list, a run from a typed line with its result stored, a completion). */
function coreCalls(core, catalog) {
  const pick = catalog.resolve('comp.pick_framework').prompt;
  const pag = catalog.server('pag');
  const runner = new core.PromptRunner(catalog, core.memoryRecords());
  return [
    async () => {
      await catalog.refresh('pag');
      if (pag.prompts.length !== 23 || pag.listError) throw new Error(`core listed ${pag.prompts.length}`);
    },
    async () => {
      const d = await runner.run(await core.requestFromLine(catalog, GET_LINE));
      if (d.kind !== 'done' || !d.stored.result.result.messages?.length) throw new Error('core get: no messages');
    },
    async () => {
      const r = await core.completeArgument(pick, 'framework', 'n', { language: 'typescript' });
      if (r.values.length !== 2) throw new Error(`core complete: ${r.values}`);
    },
  ];
}

/** The quietest tenth of a client's blocks: the machine's other work only ever adds to a block's CPU. */
const QUIET = 0.1;
/** Rounds a verdict needs at least: the interval comes from resampling them. */
const MIN_ROUNDS = 4;

/**
 * One client's CPU per call over another's, from the cycles `idx`: the difference of their quiet blocks
 * (QUIET), which holds the work each call does without the other tenants' interference, plus their
 * garbage collection per call (bytes allocated per call, median of the blocks without a collection, at
 * the op's cost per byte), so that collections, which mostly fall outside the quiet tenth, count in full.
 */
function cpuOver(x, y, idx, perByte) {
  const q = xs =>
    quantile(
      idx.map(i => xs[i]),
      QUIET,
    );
  const allocated = c => median(idx.filter(i => c.clean[i]).map(i => c.alloc[i])) || c.typical;
  return q(x.cpu) - q(y.cpu) + (allocated(x) - allocated(y)) * perByte;
}

/**
 * `cpuOver` on all cycles, with a 95% interval from 1,000 resamples of the rounds (each with all its
 * cycles: the cycles of one round, on the same server processes, are not independent of each other);
 * seeded, so a run repeats.
 */
function withInterval(x, y, perByte, roundOf) {
  const byRound = new Map();
  roundOf.forEach((r, i) => byRound.set(r, [...(byRound.get(r) ?? []), i]));
  const rounds = [...byRound.values()];
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const boots = [];
  for (let b = 0; b < 1000; b++) {
    const idx = rounds.flatMap(() => rounds[Math.floor(random() * rounds.length)]);
    boots.push(cpuOver(x, y, idx, perByte));
  }
  boots.sort((a, b) => a - b);
  const all = roundOf.map((_, i) => i);
  return { estimate: cpuOver(x, y, all, perByte), low: boots[25], high: boots[974], n: all.length };
}

/**
 * The verdict on one op's samples: ours over raw and raw′ over raw (the A/A figure, which should be 0),
 * each with its 95% interval. The A/A figure is a bias this run cannot tell from ours, so it widens the
 * interval on both sides. PASS: the widened interval lies at or under the target; MISS: above it;
 * otherwise (UNDECIDED) the noise cannot decide.
 */
function decide(t, target = CPU_OVER_RAW_US) {
  const [core, raw, raw2] = KEYS.map(key => ({ cpu: t[`${key}Cpu`], ...allocations(t[`${key}Span`]) }));
  const perByte = gcPerByte([core, raw, raw2]);
  const over = withInterval(core, raw, perByte, t.round);
  const aa = withInterval(raw2, raw, perByte, t.round);
  const bias = Math.abs(aa.estimate);
  const low = over.low - bias;
  const high = over.high + bias;
  // Resampling fewer rounds than MIN_ROUNDS cannot show how much one round differs from the next.
  const enough = new Set(t.round).size >= MIN_ROUNDS;
  const verdict = !enough ? 'UNDECIDED' : high <= target ? 'PASS' : low > target ? 'MISS' : 'UNDECIDED';
  const gc = { core: core.typical * perByte, raw: raw.typical * perByte, raw2: raw2.typical * perByte };
  const kb = { core: core.typical / 1024, raw: raw.typical / 1024, raw2: raw2.typical / 1024 };
  const pairs = t.coreCpu.map((c, i) => c - t.rawCpu[i]);
  return { over, aa, low, high, verdict, gc, kb, medianPair: median(pairs) };
}

/**
 * Cycles a round of fresh servers makes per op; rounds at least and at most; seconds after which no new
 * round starts (an op still undecided then is reported so).
 */
const PLANS = {
  full: {
    stdio: { count: 16, warmup: 60, minRounds: 6, maxRounds: 16, budgetS: 120 },
    http: { count: 24, warmup: 40, minRounds: 4, maxRounds: 36, budgetS: 240 },
  },
  quick: {
    stdio: { count: 4, warmup: 10, minRounds: 4, maxRounds: 4, budgetS: 20 },
    http: { count: 4, warmup: 4, minRounds: 4, maxRounds: 4, budgetS: 20 },
  },
};

/** Rounds of fresh servers until every op's verdict is decided (after plan.minRounds) or the budget is spent. */
async function measure(core, transport, plan) {
  const samples = OPS.map(() => ({
    round: [],
    ...Object.fromEntries(KEYS.flatMap(k => ['Cpu', 'Wall', 'Span'].map(f => [k + f, []]))),
  }));
  const started = Date.now();
  const verdicts = [];
  let rounds = 0;
  let open = OPS.map((_, k) => k);
  while (open.length && rounds < plan.maxRounds) {
    const warmup = rounds === 0 ? plan.warmup : Math.ceil(plan.warmup / 3);
    await round(core, transport, open, { count: plan.count, warmup, roundNo: rounds }, samples);
    rounds++;
    // The round's garbage-collection entries are delivered on a later turn.
    await sleep(10);
    if (rounds < plan.minRounds) continue;
    // A method decided keeps the verdict it was decided on (its figures would drift with the other
    // methods' collections, which set the cost of a collection).
    for (const k of open) verdicts[k] = { ...decide(samples[k]), rounds };
    open = open.filter(k => verdicts[k].verdict === 'UNDECIDED');
    if ((Date.now() - started) / 1000 > plan.budgetS) break;
  }
  for (const k of open) verdicts[k] = { ...decide(samples[k]), rounds };
  return { samples, verdicts, seconds: (Date.now() - started) / 1000 };
}

const us = x => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

export async function run({ quick = false } = {}) {
  const core = loadCore();
  const rows = [];
  const data = {};
  gcLog.length = 0;
  gcObserver.observe({ entryTypes: ['gc'] });
  for (const transport of ['stdio', 'http']) {
    const plan = PLANS[quick ? 'quick' : 'full'][transport];
    const { samples, verdicts, seconds } = await measure(core, transport, plan);
    OPS.forEach((op, k) => {
      const t = samples[k];
      const d = verdicts[k];
      const { rounds } = d;
      const wall = { core: median(t.coreWall), raw: median(t.rawWall), raw2: median(t.raw2Wall) };
      const cpu = { core: median(t.coreCpu), raw: median(t.rawCpu), raw2: median(t.raw2Cpu) };
      const blocks = t.coreCpu.length;
      data[`${transport} ${op}`] = {
        verdict: d.verdict,
        overUs: d.over,
        aaUs: d.aa,
        wallMs: wall,
        cpuUs: cpu,
        blocks,
        block: BLOCK[transport][k],
        rounds,
        seconds,
        samples: t,
      };
      const label = `${transport === 'stdio' ? 'stdio' : 'HTTP '} ${op}`;
      // The target is our client's own work per call: CPU over the raw client's. Wall time also holds the
      // server's and the pipe's, which our code does not spend, so its ratio is shown as information.
      const r = row(
        `${label}: client CPU/call over raw`,
        d.over.estimate,
        undefined,
        'µs',
        { abs: CPU_OVER_RAW_US },
        `95% interval ${us(d.over.low)} to ${us(d.over.high)} µs; A/A raw′ − raw ${us(d.aa.estimate)} µs (${us(d.aa.low)} to ${us(d.aa.high)}); decided on ${us(d.low)} to ${us(d.high)} µs; ${blocks} blocks of ${BLOCK[transport][k]} calls each in ${rounds} batches of fresh servers; CPU/call (median block) ours ${cpu.core.toFixed(0)} / raw ${cpu.raw.toFixed(0)} / raw′ ${cpu.raw2.toFixed(0)} µs; allocated/call ours ${d.kb.core.toFixed(1)} / raw ${d.kb.raw.toFixed(1)} / raw′ ${d.kb.raw2.toFixed(1)} KB, its GC ${d.gc.core.toFixed(1)} / ${d.gc.raw.toFixed(1)} / ${d.gc.raw2.toFixed(1)} µs; median of the cycles' ours − raw (every block, the machine's load in it) ${us(d.medianPair)} µs`,
      );
      if (d.verdict === 'UNDECIDED') {
        r.verdict = 'UNDECIDED';
        r.miss = `the noise cannot decide: ${us(d.low)} to ${us(d.high)} µs holds the ${CPU_OVER_RAW_US} µs target (estimate ${us(d.over.estimate)} µs)`;
      } else if (d.verdict !== r.verdict) {
        // The median may sit under the target while the interval reaches over it: the interval decides.
        r.verdict = d.verdict;
        r.miss = d.verdict === 'MISS' ? `${us(d.low)} to ${us(d.high)} µs > ${CPU_OVER_RAW_US} µs` : undefined;
      }
      rows.push(
        r,
        row(
          `${label}: wall`,
          wall.core,
          wall.raw,
          'ms',
          undefined,
          `A/A raw′/raw ${(wall.raw2 / wall.raw).toFixed(2)}×; ours − raw ${((wall.core - wall.raw) * 1000).toFixed(0)} µs/call`,
        ),
      );
    });
  }
  gcObserver.disconnect();
  return {
    rows,
    data,
    notes: [
      "per op: cycles of three blocks back to back (ours, raw, raw′ = a second plain SDK client on its own server process over stdio, own session over HTTP), in every order in turn; a block's client CPU over its calls is one sample",
      "CPU/call over raw = the difference of the quietest tenth of each client's blocks (the machine's other work only adds to a block) plus the difference of their garbage collection per call (bytes allocated per call × the op's collection pauses per byte allocated); 95% interval from 1,000 resamples of the batches of fresh servers",
      'the verdict: that interval, widened on both sides by the A/A figure |raw′ over raw|: PASS when it lies at or under the target, MISS when over it, UNDECIDED (counted as missed) when it holds the target after the batches of fresh servers the budget allows',
      'ours = Catalog.refresh / PromptRunner.run(requestFromLine("rich.code_review code=… language=python")) (parse, resolve, get, result stored) / completeArgument on the bundled core; baseline = Client.listPrompts (all pages) / getPrompt / complete of the plain SDK Client from the same bundle',
    ],
  };
}

// 1. Per-call overhead: the core (Catalog + ServerConnection + PromptRunner.run / completeArgument, the
// path chat and CLI use) against plain SDK Client calls on an already-connected server of the same
// kind, interleaved call by call, over stdio and Streamable HTTP.
import { fixtureCommand, startHttpFixture } from '../test/fixtures/launch.mjs';
import { loadCore, median, now, row } from './lib.mjs';

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

/**
 * Every order of the three clients: a call runs faster right after a call down the same code path
 * (raw′ after raw, whose SDK code it shares), so each client must follow each other equally often. A
 * rotation (core, raw, raw′ → raw, raw′, core → …) put raw′ after raw two times in three, and made raw′
 * look 4–9% faster than its twin. In this sequence every client follows every other twice within the
 * orders and once across them (the last of one order, the first of the next), and never itself.
 */
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
];

/**
 * Interleaved timing of core, raw and raw′ (a second plain client on its own server process / session:
 * the A/A noise floor), in every order in turn. Wall ms and client CPU µs per call.
 */
async function interleave(fns, n, warmup, into) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const keys = ['core', 'raw', 'raw2'];
  for (let i = 0; i < n; i++) {
    for (const k of ORDERS[i % ORDERS.length]) {
      const c0 = process.cpuUsage();
      const t0 = now();
      await fns[k]();
      into[keys[k]].push(now() - t0);
      const c = process.cpuUsage(c0);
      into[`${keys[k]}Cpu`].push(c.user + c.system);
    }
  }
}

const OPS = [
  'prompts/list (23 prompts, 5 pages)',
  'prompts/get code_review (2 args)',
  'completion/complete pick_framework.framework',
];

/**
 * One round: fresh servers / sessions for the core and for the raw client, every op measured `n` times.
 * Over stdio core and raw necessarily talk to different server processes, and on a busy machine one
 * process can be consistently faster than its twin: several rounds with fresh processes average that out.
 */
async function round(core, transport, n, warmup, samples) {
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
        // One server process, two sessions (core and raw): no process-to-process bias over HTTP.
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
    const pick = catalog.resolve('comp.pick_framework').prompt;
    const pag = catalog.server('pag');
    const rawOps = r => [
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
    const runner = new core.PromptRunner(catalog, core.memoryRecords());
    const coreOps = [
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
    const r1 = rawOps(raws);
    const r2 = rawOps(raws2);
    for (let k = 0; k < OPS.length; k++) await interleave([coreOps[k], r1[k], r2[k]], n, warmup, samples[k]);
  } finally {
    await catalog?.dispose();
    for (const c of [...Object.values(raws), ...Object.values(raws2)]) await c.close().catch(() => undefined);
    for (const s of http) await s.close();
  }
}

export async function run({ calls = 240, warmup = 30, rounds = 4, httpRounds = 2 } = {}) {
  const core = loadCore();
  const rows = [];
  const data = {};
  for (const transport of ['stdio', 'http']) {
    const samples = OPS.map(() => ({ core: [], raw: [], raw2: [], coreCpu: [], rawCpu: [], raw2Cpu: [] }));
    const nRounds = transport === 'stdio' ? rounds : httpRounds;
    const per = Math.ceil(calls / nRounds);
    for (let r = 0; r < nRounds; r++)
      await round(core, transport, per, r === 0 ? warmup : Math.ceil(warmup / 3), samples);
    OPS.forEach((op, k) => {
      const t = samples[k];
      const mc = median(t.core);
      const mr = median(t.raw);
      const aa = median(t.raw2) / mr;
      data[`${transport} ${op}`] = {
        coreMedianMs: mc,
        rawMedianMs: mr,
        raw2MedianMs: median(t.raw2),
        aaRatio: aa,
        calls: t.core.length,
        rounds: nRounds,
        coreCpuMedianUs: median(t.coreCpu),
        rawCpuMedianUs: median(t.rawCpu),
        raw2CpuMedianUs: median(t.raw2Cpu),
        coreSamplesMs: t.core,
        rawSamplesMs: t.raw,
        raw2SamplesMs: t.raw2,
      };
      const label = `${transport === 'stdio' ? 'stdio' : 'HTTP '} ${op}`;
      const cpuOver = median(t.coreCpu) - median(t.rawCpu);
      // The target is our client's own work per call: CPU over the raw client's. Wall time also holds the
      // server's and the pipe's, which our code does not spend, so its ratio is shown as information.
      rows.push(
        row(
          `${label}: client CPU/call over raw`,
          cpuOver,
          undefined,
          'µs',
          { abs: CPU_OVER_RAW_US },
          `client CPU/call ours ${median(t.coreCpu).toFixed(0)} / raw ${median(t.rawCpu).toFixed(0)} / raw′ ${median(t.raw2Cpu).toFixed(0)} µs (raw′ − raw ${(median(t.raw2Cpu) - median(t.rawCpu)).toFixed(0)} µs: this run's noise)`,
        ),
        row(
          `${label}: wall`,
          mc,
          mr,
          'ms',
          undefined,
          `A/A raw′/raw ${aa.toFixed(2)}×; ours − raw ${((mc - mr) * 1000).toFixed(0)} µs/call; ${t.core.length} calls each in ${nRounds} rounds of fresh ${transport === 'stdio' ? 'server processes' : 'sessions'}`,
        ),
      );
    });
  }
  return {
    rows,
    data,
    notes: [
      "raw′ = a second plain SDK client (own server process over stdio, own session over HTTP) measured in the same rotation: raw′/raw is this run's noise floor for a ratio",
      'ours = Catalog.refresh / PromptRunner.run(requestFromLine("rich.code_review code=… language=python")) (parse, resolve, get, result stored) / completeArgument on the bundled core; baseline = Client.listPrompts (all pages) / getPrompt / complete of the plain SDK Client from the same bundle',
    ],
  };
}

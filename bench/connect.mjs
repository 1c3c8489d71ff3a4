// 7. Connect time per protocol era: the core's ServerConnection.connect() (spawn or first request,
// version negotiation, handshake) against the SDK's own v2 Client from the same bundle, interleaved.
// Servers: 2024-11-05 (`old-protocol`) and 2025-11-25 (`paginated`, v1 server package) fixtures, the
// 2026-07-28-only v2 server (`modern.mjs`) and the same as a dual-era server, over stdio (a process per
// connect) and Streamable HTTP (already running). Two lines per server:
//   first connect: no era known. Ours negotiates without a second process (docs/protocol.md). The raw
//                  client negotiates too (`auto`; over stdio its probe runs on a throw-away second
//                  process), except for a 2025 server over stdio, where it is the plain initialize a
//                  client written for that server does: one process, the start to beat;
//   era remembered: ours passes the remembered era (its era memory, which a later start in the same
//                  session has, and with a persisted memory every start after a server's first); the
//                  raw client gets the same as `prior`.
// Each ratio is decided by bench/ratio-cycles.mjs: ours, raw and a second raw (the A/A check) in cycles
// until the 1.2× target is decided; the raw side's stdio servers start as ours do (bench/server-start.mjs).
// The measure is the CPU time until connected (bench/tree-cpu.mjs): over stdio of this process and the
// servers it started (each connect starts with no server process left), over HTTP of this process and
// the running server (each connect starts once the server is idle). On this loaded 2-core machine a
// connect's wall time is mostly the wait for a CPU; it is printed beside.
import { fixtureCommand, modernCommand, startHttpFixture, startModernHttp } from '../test/fixtures/launch.mjs';
import { interleaved, loadCore, median, now, row, spread } from './lib.mjs';
import { serverStart } from './server-start.mjs';
import { decideRatio } from './ratio-cycles.mjs';
import { canMeasureTree, childrenGone, processCpuMs, processQuiet, treeCpuMs } from './tree-cpu.mjs';

/** The HTTP servers' processes, running throughout: not part of any stdio connect's CPU. */
const httpPids = new Set();

/**
 * The CPU a connect costs from here on: this process, the servers it starts and, over HTTP, what the
 * running server (`pid`) spends meanwhile. Starts once the last connect's processes are gone and the
 * server has finished what the last connect left it (a session's end).
 */
async function cpuMeter(pid) {
  await childrenGone(httpPids);
  const server = canMeasureTree ? pid : undefined; // no /proc: wall time decides, nothing to read
  if (server) await processQuiet(server);
  const spent = () => treeCpuMs(httpPids) + (server ? processCpuMs(server) : 0);
  const cpu0 = spent();
  return () => spent() - cpu0;
}

/**
 * Cycles of ours, raw and raw′ per ratio (bench/ratio-cycles.mjs): at least, at most, and seconds after
 * which no new cycle starts. An HTTP connect takes milliseconds, where one slow request on a busy machine
 * moves a short median: many more cycles, at a fraction of a stdio spawn's time.
 */
const PLANS = {
  full: {
    stdio: { minCycles: 6, maxCycles: 30, budgetS: 25 },
    http: { minCycles: 20, maxCycles: 300, budgetS: 15 },
  },
  quick: {
    stdio: { minCycles: 3, maxCycles: 3, budgetS: 10 },
    http: { minCycles: 10, maxCycles: 10, budgetS: 5 },
  },
};

/**
 * One connect + close by the raw client; returns ms to connected and the era it found. Its stdio server
 * starts as ours does (serverStart), unless `sdkEnv`: the SDK's default environment.
 */
async function rawConnect(core, server, prior, negotiate = true, sdkEnv = false, pid = undefined) {
  const client = new core.Client(
    { name: 'raw-connect', version: '0' },
    { capabilities: {}, ...(negotiate ? { versionNegotiation: { mode: 'auto' } } : {}) },
  );
  const transport =
    server.type === 'stdio'
      ? new core.StdioClientTransport({
          command: server.command,
          args: server.args,
          ...(sdkEnv ? { env: server.env } : serverStart(server.env)),
          stderr: 'ignore',
        })
      : new core.StreamableHTTPClientTransport(new URL(server.url));
  const cpuSince = await cpuMeter(pid);
  const t0 = now();
  await client.connect(transport, prior ? { prior } : {});
  const ms = now() - t0;
  const cpu = cpuSince();
  const era = client.getProtocolEra();
  const discover = client.getDiscoverResult();
  await client.close();
  return { ms, cpu, prior: era === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' }, era };
}

/** One connect + close by the core. */
async function oursConnect(core, def, eras, pid = undefined) {
  const connection = new core.ServerConnection(def, { restart: false, eras });
  const cpuSince = await cpuMeter(pid);
  const t0 = now();
  await connection.connect();
  const ms = now() - t0;
  const cpu = cpuSince();
  const info = connection.info;
  await connection.dispose();
  return { ms, cpu, era: info?.era, version: info?.protocolVersion };
}

export async function run({ quick = false } = {}) {
  const reps = quick ? 3 : 9;
  const core = loadCore();
  const running = [];
  const rows = [];
  const data = {};
  try {
    const httpLegacy = await startHttpFixture('paginated');
    running.push(httpLegacy);
    httpPids.add(httpLegacy.pid);
    const httpModern = await startModernHttp();
    running.push(httpModern);
    httpPids.add(httpModern.pid);
    const servers = [
      ['stdio 2024-11-05', { type: 'stdio', ...fixtureCommand('old-protocol') }],
      ['stdio 2025-11-25', { type: 'stdio', ...fixtureCommand('paginated') }],
      ['stdio 2026-07-28', { type: 'stdio', ...modernCommand() }],
      ['stdio dual-era', { type: 'stdio', ...modernCommand(), env: { MODERN_LEGACY: 'serve' } }],
      ['HTTP 2025-11-25', { type: 'http', url: httpLegacy.url }, httpLegacy.pid],
      ['HTTP 2026-07-28', { type: 'http', url: httpModern.url }, httpModern.pid],
    ];
    for (const [label, server, pid] of servers) {
      const [def] = core.parseConfigObject({ servers: { s: server } }, 'workspace').servers;
      // Warm-up (disk cache, JIT of both sides) and the memories each side passes back later.
      const warmEras = new core.EraMemory();
      const first = await oursConnect(core, def, warmEras);
      const rawFirst = await rawConnect(core, server);
      if (first.era !== rawFirst.era) throw new Error(`${label}: core found ${first.era}, raw ${rawFirst.era}`);
      // Over stdio a client written for a 2025 server does not negotiate, and costs one process: that is
      // the first start to beat. Over HTTP the raw client negotiates as ours must (no process either way).
      const negotiate = first.era === 'modern' || server.type !== 'stdio';
      const plan = PLANS[quick ? 'quick' : 'full'][server.type];
      // A connect is decided on the CPU time it costs: this process and the servers it starts (stdio), or
      // this process and the running server (HTTP). Its wall time on this loaded 2-core machine, where
      // client and server take turns on the CPUs, is shown beside it.
      const byCpu = canMeasureTree;
      const measured = r => (byCpu ? { value: r.cpu, wall: r.ms } : r.ms);
      const what = !byCpu
        ? 'wall'
        : pid
          ? 'CPU of the client and the running server, until connected'
          : 'CPU of the client and the server processes it started, until connected';
      const oursCold = async () => measured(await oursConnect(core, def, new core.EraMemory(), pid));
      const rawCold = async () => measured(await rawConnect(core, server, undefined, negotiate, false, pid));
      const oursWarm = async () => measured(await oursConnect(core, def, warmEras, pid));
      const rawWarm = async () => measured(await rawConnect(core, server, rawFirst.prior, true, false, pid));
      const cold = await decideRatio(
        `connect ${label}: first (negotiated)`,
        { ours: oursCold, raw: rawCold },
        {
          ...plan,
          bound: 1.2,
          what,
          context: `protocol ${first.version} (${first.era}); raw v2 Client (${negotiate ? 'auto' : 'plain initialize'})`,
        },
      );
      rows.push(cold.row);
      let warm;
      if (first.era === 'modern') {
        // A remembered 2026 era needs no request at all, on either side: what is timed is setting up the
        // client (ours adds the trace, the question handlers and the start of the listen stream).
        const [o, r] = await interleaved(plan.minCycles, [
          async () => (await oursConnect(core, def, warmEras)).ms,
          async () => (await rawConnect(core, server, rawFirst.prior)).ms,
        ]);
        warm = { ours: o, raw: r };
        rows.push(
          row(
            `connect ${label}: era remembered`,
            median(o),
            median(r),
            'ms',
            undefined,
            `ours with its era memory, raw with the same as prior; ours ${spread(o)}, raw ${spread(r)}; no request on either side`,
          ),
        );
      } else {
        const decided = await decideRatio(
          `connect ${label}: era remembered`,
          { ours: oursWarm, raw: rawWarm },
          { ...plan, bound: 1.2, what, context: 'ours with its era memory, raw with the same as prior' },
        );
        warm = decided.samples;
        rows.push(decided.row);
      }
      data[label] = { version: first.version, era: first.era, cold: cold.samples, warm };
    }
    // What this machine's environment costs a server's start, which the core passes on as VS Code does and
    // the SDK's default leaves out (a CA bundle in NODE_EXTRA_CA_CERTS: parsed before a Node server runs).
    const legacy = { type: 'stdio', ...fixtureCommand('paginated') };
    const wall = { passed: [], sdkDefault: [] };
    const start = async (walls, sdkEnv) => {
      const r = await rawConnect(core, legacy, undefined, false, sdkEnv);
      walls.push(r.ms);
      return canMeasureTree ? r.cpu : r.ms;
    };
    const [passed, sdkDefault] = await interleaved(reps, [
      () => start(wall.passed, false),
      () => start(wall.sdkDefault, true),
    ]);
    rows.push(
      row(
        "a server's start in the environment the core passes on vs the SDK's default",
        median(passed),
        median(sdkDefault),
        'ms',
        undefined,
        `the raw client, stdio 2025-11-25, ${canMeasureTree ? 'CPU of it and its server' : 'wall'} until connected; both sides above start their servers in the first (bench/server-start.mjs); ${spread(passed)} against ${spread(sdkDefault)}; wall ${spread(wall.passed)} against ${spread(wall.sdkDefault)}`,
      ),
    );
    data.environment = { passed, sdkDefault, wall };
  } finally {
    await Promise.all(running.map(s => s.close()));
  }
  return {
    rows,
    data,
    notes: [
      'connect = until the connection is usable (stdio: spawn included; HTTP: the server is already running); the close is not timed',
      'first connect over stdio: ours starts one process for any server (initialize first, server/discover on the same process when a 2026 server refuses it); the raw client negotiating a 2026 server probes on a throw-away second process',
    ],
  };
}

// 2. Cold start: `node dist/cli.js list --config <tmp>` (spawn CLI → spawn server → initialize → list all
// pages → close) against bench/raw-list.mjs doing the same on the plain SDK. Interleaved. Then per
// protocol era (a 2025-11-25 and a 2026-07-28-only server): the CLI's first start (nothing remembered:
// a fresh cache folder each run) and its start with the era remembered (the cache of an earlier run),
// against the raw client as it would be set up for that server (2025: the plain initialize; 2026: the
// SDK's negotiation, first, and the remembered era as `prior`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureCommand, modernCommand } from '../test/fixtures/launch.mjs';
import { BENCH, ROOT, canMeasureCpu, interleaved, median, row, runProcess, spread } from './lib.mjs';
import { serverStart } from './server-start.mjs';

/** raw-list.mjs hands its server the variables prefixed RAW_ENV_: the environment the core gives it. */
const rawServerEnv = env =>
  Object.fromEntries(Object.entries(serverStart(env).env).map(([k, v]) => [`RAW_ENV_${k}`, v]));

export async function run({ reps = 12 } = {}) {
  const cli = path.join(ROOT, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error('dist/cli.js missing (node esbuild.mjs)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-cold-'));
  try {
    const { command, args } = fixtureCommand('paginated');
    const env = { PAGINATED_COUNT: '23', PAGINATED_PAGE_SIZE: '5' };
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { pag: { command, args, env } } }));
    const rawEnv = { ...process.env, ...rawServerEnv(env) };
    const ours = () => runProcess(process.execPath, [cli, 'list', '--config', config], { cwd: dir, cpu: true });
    const raw = () =>
      runProcess(process.execPath, [path.join(BENCH, 'raw-list.mjs'), command, ...args], {
        env: rawEnv,
        cwd: dir,
        cpu: true,
      });
    const check = (r, who) => {
      const n = (r.stdout.match(/^ {2}\S/gm) ?? []).length;
      if (r.code !== 0 || n !== 23)
        throw new Error(`${who}: exit ${r.code}, ${n} prompts listed\n${r.stderr.slice(0, 500)}`);
    };
    check(await ours(), 'cli'); // warm the disk cache for both
    check(await raw(), 'raw-list');
    const o = [];
    const b = [];
    const oc = [];
    const bc = [];
    for (let i = 0; i < reps; i++) {
      const order =
        i % 2
          ? [
              [raw, b, bc, 'raw-list'],
              [ours, o, oc, 'cli'],
            ]
          : [
              [ours, o, oc, 'cli'],
              [raw, b, bc, 'raw-list'],
            ];
      for (const [fn, into, cpu, who] of order) {
        const r = await fn();
        check(r, who);
        into.push(r.ms);
        cpu.push(r.cpuMs);
      }
    }
    const mo = median(o);
    const mb = median(b);
    const rows = [
      row(
        'spawn + initialize + list 23 prompts (5 pages) + exit',
        mo,
        mb,
        'ms',
        { ratio: 1.2 },
        `wall clock; CLI min ${Math.min(...o).toFixed(0)} / max ${Math.max(...o).toFixed(0)} ms; raw min ${Math.min(...b).toFixed(0)} / max ${Math.max(...b).toFixed(0)} ms (min ratio ${(Math.min(...o) / Math.min(...b)).toFixed(2)}×); ${reps} interleaved runs each`,
      ),
    ];
    if (canMeasureCpu)
      rows.push(
        row(
          'CPU time of the same (client + server)',
          median(oc),
          median(bc),
          'ms',
          undefined,
          'user+system from /usr/bin/time (10 ms ticks), less sensitive to a busy machine than wall clock',
        ),
      );
    const eras = await eraRows(cli, dir, Math.max(3, Math.ceil(reps / 2)));
    rows.push(...eras.rows);
    return {
      rows,
      data: { cliMs: o, rawMs: b, cliCpuMs: oc, rawCpuMs: bc, cliMedianMs: mo, rawMedianMs: mb, eras: eras.data },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** First and remembered CLI starts per protocol era, each against the raw client set up for that server. */
async function eraRows(cli, dir, reps) {
  const servers = [
    ['2025-11-25', fixtureCommand('paginated'), {}],
    ['2026-07-28', modernCommand(), { RAW_NEGOTIATE: 'auto' }],
  ];
  const rows = [];
  const data = {};
  for (const [era, { command, args }, rawNegotiation] of servers) {
    const config = path.join(dir, `${era}.json`);
    fs.writeFileSync(config, JSON.stringify({ servers: { s: { command, args } } }));
    const warmCache = fs.mkdtempSync(path.join(dir, 'warm-'));
    const cliEnv = cache => ({ ...process.env, XDG_CACHE_HOME: cache });
    const ours = cache =>
      runProcess(process.execPath, [cli, 'list', '--config', config], { cwd: dir, env: cliEnv(cache) });
    const raw = extra =>
      runProcess(process.execPath, [path.join(BENCH, 'raw-list.mjs'), command, ...args], {
        env: { ...process.env, ...rawServerEnv({}), ...rawNegotiation, ...extra },
        cwd: dir,
      });
    const check = (r, who) => {
      if (r.code !== 0) throw new Error(`${who} (${era}): exit ${r.code}\n${r.stderr.slice(0, 500)}`);
      return r;
    };
    // Warm-up, and what each side remembers: the CLI's cache folder, the raw client's prior.
    check(await ours(warmCache), 'cli');
    const printed = check(await raw({ RAW_PRINT_PRIOR: '1' }), 'raw-list');
    const prior = /PRIOR (.*)/.exec(printed.stderr)?.[1] ?? '{"kind":"legacy"}';
    const [first, rawFirst, warm, rawWarm] = await interleaved(reps, [
      async () => check(await ours(fs.mkdtempSync(path.join(dir, 'cold-'))), 'cli').ms,
      async () => check(await raw({}), 'raw-list').ms,
      async () => check(await ours(warmCache), 'cli').ms,
      async () => check(await raw(era === '2025-11-25' ? {} : { RAW_PRIOR: prior }), 'raw-list').ms,
    ]);
    rows.push(
      row(
        `CLI list, ${era} server: first start`,
        median(first),
        median(rawFirst),
        'ms',
        { ratio: 1.2 },
        `nothing remembered, one server process; raw ${era === '2025-11-25' ? 'plain initialize' : 'SDK negotiation (its probe on a throw-away process)'}; ours ${spread(first)}, raw ${spread(rawFirst)}; ${reps} interleaved`,
      ),
      row(
        `CLI list, ${era} server: era remembered`,
        median(warm),
        median(rawWarm),
        'ms',
        { ratio: 1.2 },
        `the era from the cache of an earlier run; raw ${era === '2025-11-25' ? 'plain initialize' : 'the same era as prior'}; ours ${spread(warm)}, raw ${spread(rawWarm)}`,
      ),
    );
    data[era] = { first, rawFirst, warm, rawWarm };
  }
  return { rows, data };
}

// 2. Cold start: `node dist/cli.js list --config <tmp>` (spawn CLI → spawn server → initialize → list all
// pages → close) against bench/raw-list.mjs doing the same on the plain SDK. Interleaved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureCommand } from '../test/fixtures/launch.mjs';
import { BENCH, ROOT, canMeasureCpu, median, row, runProcess } from './lib.mjs';

export async function run({ reps = 12 } = {}) {
  const cli = path.join(ROOT, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error('dist/cli.js missing (node esbuild.mjs)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-cold-'));
  try {
    const { command, args } = fixtureCommand('paginated');
    const env = { PAGINATED_COUNT: '23', PAGINATED_PAGE_SIZE: '5' };
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { pag: { command, args, env } } }));
    const rawEnv = { ...process.env, ...Object.fromEntries(Object.entries(env).map(([k, v]) => [`RAW_ENV_${k}`, v])) };
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
    return { rows, data: { cliMs: o, rawMs: b, cliCpuMs: oc, rawCpuMs: bc, cliMedianMs: mo, rawMedianMs: mb } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

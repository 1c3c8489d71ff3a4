// Shared helpers: statistics, table output, child-process bookkeeping.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH, '..');
const require = createRequire(import.meta.url);
/** The project's core, bundled by build.mjs (run it first). */
export const loadCore = () => require(path.join(BENCH, '.out', 'core.cjs'));

export const now = () => performance.now();
export const sleep = ms => new Promise(r => setTimeout(r, ms));

/**
 * Runs the timed `steps` (each returns ms) `reps` times, every run in the opposite order of the one
 * before, so neither side always runs first; returns each step's times, and their range as text.
 */
export async function interleaved(reps, steps) {
  const times = steps.map(() => []);
  for (let i = 0; i < reps; i++) {
    const order = steps.map((_, j) => j);
    for (const j of i % 2 ? order.reverse() : order) times[j].push(await steps[j]());
  }
  return times;
}

/** `12–30 ms`: the range of `xs`. */
/**
 * Every order of the three clients: a call runs faster right after a call down the same code path
 * (raw′ after raw, whose SDK code it shares), so each client must follow each other equally often. A
 * rotation (core, raw, raw′ → raw, raw′, core → …) put raw′ after raw two times in three, and made raw′
 * look 4–9% faster than its twin. In this sequence every client follows every other twice within the
 * orders and once across them (the last of one order, the first of the next), and never itself.
 */
export const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
];

export const spread = xs => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;

export function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
}

/**
 * One result row. `target`: { ratio: max } compares ours/baseline, { abs: max } compares ours itself.
 * Units: 'ms', 'µs', 'KB', 'MB', 'n'.
 */
export function row(measure, ours, baseline, unit, target, context = '') {
  const ratio = Number.isFinite(baseline) && baseline > 0 && Number.isFinite(ours) ? ours / baseline : undefined;
  let verdict = 'info';
  let miss;
  if (target && Number.isFinite(ours)) {
    if (target.ratio !== undefined && ratio !== undefined) {
      verdict = ratio <= target.ratio ? 'PASS' : 'MISS';
      if (verdict === 'MISS')
        miss = `ratio ${ratio.toFixed(2)}× > ${target.ratio}× (${((ratio / target.ratio - 1) * 100).toFixed(0)}% over; ours ${fmt(ours, unit)} vs allowed ${fmt(baseline * target.ratio, unit)})`;
    } else if (target.abs !== undefined) {
      verdict = ours <= target.abs ? 'PASS' : 'MISS';
      if (verdict === 'MISS')
        miss = `${fmt(ours, unit)} > ${fmt(target.abs, unit)} (${fmt(ours - target.abs, unit)} / ${((ours / target.abs - 1) * 100).toFixed(0)}% over)`;
    }
  } else if (target) verdict = 'n/a';
  return { measure, ours, baseline, unit, ratio, target, verdict, miss, context };
}

export function fmt(v, unit) {
  if (v === undefined || v === null || Number.isNaN(v)) return '—';
  if (unit === 'n') return String(Math.round(v * 100) / 100);
  const a = Math.abs(v);
  const s = a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
  return `${s} ${unit}`;
}

function targetText(t, unit) {
  if (!t) return '—';
  if (t.ratio !== undefined) return `≤ ${t.ratio}×`;
  return `≤ ${fmt(t.abs, unit)}`;
}

export function printTable(title, rows, notes = []) {
  const head = ['measure', 'ours median', 'baseline median', 'ratio', 'target', 'verdict'];
  const body = rows.map(r => [
    r.measure,
    fmt(r.ours, r.unit),
    fmt(r.baseline, r.unit),
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
    targetText(r.target, r.unit),
    r.verdict,
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)));
  const line = cells => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(' | ') + ' |';
  const out = [
    `\n## ${title}`,
    line(head),
    '|' + w.map((n, i) => (i === 0 ? '-'.repeat(n + 1) + '-' : '-'.repeat(n + 1) + ':')).join('|') + '|',
    ...body.map(line),
  ];
  for (const r of rows) if (r.context) out.push(`  · ${r.measure}: ${r.context}`);
  for (const n of notes) out.push(`  · ${n}`);
  console.log(out.join('\n'));
}

/** Every live descendant of this process: [{pid, ppid, args}]. */
export function descendants(root = process.pid) {
  let text;
  try {
    text = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  // Zombies (stat Z) have exited already; they only wait to be reaped by their parent.
  const procs = text
    .split('\n')
    .map(l => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter(Boolean)
    .filter(m => !m[3].startsWith('Z'))
    .map(m => ({ pid: +m[1], ppid: +m[2], args: m[4] }));
  const out = [];
  const walk = pid => {
    for (const p of procs)
      if (p.ppid === pid) {
        out.push(p);
        walk(p.pid);
      }
  };
  walk(root);
  return out.filter(p => !/^ps\b/.test(p.args));
}

/** Kills (by pid) whatever this process started and is still alive; returns what it found. */
export async function reapChildren() {
  const left = descendants();
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  if (left.length) {
    await sleep(500);
    for (const p of descendants()) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  return left;
}

const TIME = '/usr/bin/time';
export const canMeasureCpu = fs.existsSync(TIME);

/**
 * Runs a command to completion; resolves {code, stdout, stderr, ms, cpuMs}. Kills it after timeoutMs.
 * cpu: run it under /usr/bin/time, cpuMs = user + system of the process and the children it waited for.
 */
export function runProcess(cmd, args, { env, cwd = ROOT, timeoutMs = 60000, cpu = false } = {}) {
  if (cpu && canMeasureCpu) {
    return runProcess(TIME, ['-f', 'BENCHCPU %U %S', cmd, ...args], { env, cwd, timeoutMs }).then(r => {
      const m = /BENCHCPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
      return { ...r, stderr: m ? r.stderr.slice(0, m.index) : r.stderr, cpuMs: m ? (+m[1] + +m[2]) * 1000 : NaN };
    });
  }
  return new Promise(resolve => {
    const t0 = now();
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => {
      stdout += d;
    });
    child.stderr.on('data', d => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', err => {
      stderr += String(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr, ms: now() - t0 });
    });
  });
}

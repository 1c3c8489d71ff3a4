// The CPU time this process and the processes it started have spent (Linux): its own from
// process.cpuUsage(), its children that exited and were reaped (cutime + cstime of /proc/self/stat) and
// those still running (utime + stime of each; kernel ticks of 10 ms). A start's cost this way is what it
// made the machine do, whatever else the machine ran meanwhile; its wall time on a loaded 2-core machine
// is mostly the wait for a CPU. Undefined where /proc is not there.
import fs from 'node:fs';
import { sleep } from './lib.mjs';

const TICK_MS = 10;

/** utime, stime, cutime, cstime of /proc/<pid>/stat, in ticks. */
function times(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return [+f[11], +f[12], +f[13], +f[14]];
}

/** The live children, but for `except` (servers kept running across measurements). */
function children(except) {
  try {
    return fs
      .readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter(pid => !except?.has(pid));
  } catch {
    return [];
  }
}

export const canMeasureTree = fs.existsSync(`/proc/self/task/${process.pid}/children`);

/** ms of CPU so far: this process, its reaped children, its live children (but `except`). */
export function treeCpuMs(except) {
  if (!canMeasureTree) return undefined;
  const own = process.cpuUsage();
  const [, , cu, cs] = times('self');
  let live = 0;
  for (const pid of children(except)) {
    try {
      const [u, s] = times(pid);
      live += u + s;
    } catch {
      /* exited meanwhile: counted once reaped */
    }
  }
  return (own.user + own.system) / 1000 + (cu + cs + live) * TICK_MS;
}

/** Waits (up to `ms`) until every process this one started (but `except`) has exited and been reaped. */
export async function childrenGone(except, ms = 10000) {
  for (const until = Date.now() + ms; children(except).length && Date.now() < until;) await sleep(20);
}

/**
 * ms of CPU a running process (a server kept up across measurements) has spent, every thread of it, in
 * nanoseconds from /proc/<pid>/task/<tid>/schedstat: a request of a millisecond shows, where the 10 ms
 * ticks of /proc/<pid>/stat would not.
 */
export function processCpuMs(pid) {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return ns / 1e6;
}

/**
 * Waits (up to `ms`) until the process `pid` has spent no CPU for 5 ms: what it still did for the last
 * measurement (a session closed, a stream ended) is not counted in the next.
 */
export async function processQuiet(pid, ms = 2000) {
  let before = processCpuMs(pid);
  for (const until = Date.now() + ms; Date.now() < until;) {
    await sleep(5);
    const after = processCpuMs(pid);
    if (after === before) return;
    before = after;
  }
}

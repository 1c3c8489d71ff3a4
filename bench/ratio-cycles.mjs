// A ratio target (ours / raw ≤ bound, of wall time or CPU time) decided the way one run on a loaded
// machine can decide it. Ours, raw and raw′ (the raw side again: the A/A check) are measured in cycles, the three back to back
// in each of the six orders in turn, so a cycle's three times share the machine's load of that moment.
// Each cycle gives log(ours / raw) and log(raw′ / raw); the estimate is their median over the cycles,
// with a 95% interval from 1,000 resamples of the cycles, widened on both sides by the A/A figure (which
// should be 0: what it is not, this run cannot tell from ours). PASS when the widened interval lies at
// or under the bound, MISS when over it, UNDECIDED (counted as missed) when it still holds the bound
// after the cycles the time budget allows; cycles stop once it is decided.
import { ORDERS, median, now, row, spread } from './lib.mjs';

/** Median of log ratios over `idx`, ours (or raw′) against raw of the same cycle. */
const medianLog = (a, b, idx) => median(idx.map(i => Math.log(a[i] / b[i])));

function interval(a, b) {
  const n = a.length;
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const boots = [];
  for (let k = 0; k < 1000; k++)
    boots.push(
      medianLog(
        a,
        b,
        Array.from({ length: n }, () => Math.floor(random() * n)),
      ),
    );
  boots.sort((x, y) => x - y);
  const all = Array.from({ length: n }, (_, i) => i);
  return { estimate: medianLog(a, b, all), low: boots[25], high: boots[974] };
}

/** The verdict on the cycles so far. */
function decide(t, bound, minCycles) {
  const over = interval(t.ours, t.raw);
  const aa = interval(t.raw2, t.raw);
  const bias = Math.abs(aa.estimate);
  const low = Math.exp(over.low - bias);
  const high = Math.exp(over.high + bias);
  const enough = t.ours.length >= minCycles;
  const verdict = !enough ? 'UNDECIDED' : high <= bound ? 'PASS' : low > bound ? 'MISS' : 'UNDECIDED';
  return { ratio: Math.exp(over.estimate), aa: Math.exp(aa.estimate), low, high, verdict };
}

/**
 * Measures `ours` and `raw` in cycles with a second `raw` until the ratio's target is decided, at least
 * `minCycles`, at most `maxCycles`, no new cycle after `budgetS`. Each step resolves to ms: the measure
 * that decides (`what`: wall time unless said), or `{ value, wall }` when that is another than the wall
 * time, which is then shown beside it. Returns a result row and the samples.
 */
export async function decideRatio(
  measure,
  { ours, raw },
  { bound, minCycles, maxCycles, budgetS, context = '', what = 'wall' },
) {
  const t = { ours: [], raw: [], raw2: [] };
  const wall = { ours: [], raw: [], raw2: [] };
  const steps = [ours, raw, raw];
  const keys = ['ours', 'raw', 'raw2'];
  const t0 = now();
  let d;
  for (let r = 0; r < maxCycles; r++) {
    for (const j of ORDERS[r % ORDERS.length]) {
      const m = await steps[j]();
      t[keys[j]].push(typeof m === 'number' ? m : m.value);
      wall[keys[j]].push(typeof m === 'number' ? m : m.wall);
    }
    if (r + 1 < minCycles) continue;
    d = decide(t, bound, minCycles);
    if (d.verdict !== 'UNDECIDED' || now() - t0 > budgetS * 1000) break;
  }
  d ??= decide(t, bound, minCycles);
  const walls =
    what === 'wall'
      ? ''
      : `; wall (information) ours ${spread(wall.ours)}, raw ${spread(wall.raw)}, medians ${(median(wall.ours) / median(wall.raw)).toFixed(2)}×`;
  const x = row(
    measure,
    median(t.ours),
    median(t.raw),
    'ms',
    { ratio: bound },
    `${context ? `${context}; ` : ''}${what}, ours / raw in cycles of three (ours, raw, raw′ in turn): ${d.ratio.toFixed(2)}× (median of the cycles), A/A raw′ / raw ${d.aa.toFixed(2)}×, decided on ${d.low.toFixed(2)}–${d.high.toFixed(2)}× over ${t.ours.length} cycles in ${((now() - t0) / 1000).toFixed(0)} s; ours ${spread(t.ours)}, raw ${spread(t.raw)}, raw′ ${spread(t.raw2)}${walls}`,
  );
  // The medians' ratio is shown; the cycles' interval decides.
  x.verdict = d.verdict;
  x.miss =
    d.verdict === 'PASS'
      ? undefined
      : d.verdict === 'MISS'
        ? `${d.low.toFixed(2)}–${d.high.toFixed(2)}× > ${bound}× (ours / raw over ${t.ours.length} cycles, widened by A/A)`
        : `the noise cannot decide: ${d.low.toFixed(2)}–${d.high.toFixed(2)}× holds the ${bound}× target (estimate ${d.ratio.toFixed(2)}×, ${t.ours.length} cycles)`;
  return { row: x, samples: { ...t, wall }, decision: d };
}

// 4. Completion under typing: the debounce + cancel + per-prefix cache loop of the extension's argument
// input, driven by simulated keystrokes against the completions fixture with a slow server.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fixtureCommand } from '../test/fixtures/launch.mjs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BENCH, loadCore, median, now, quantile, row, sleep } from './lib.mjs';

const require = createRequire(import.meta.url);

const DEBOUNCE_MS = 150; // COMPLETION_DEBOUNCE_MS, src/core/view/completion-session.ts
const SERVER_DELAY_MS = 100;
const KEY_INTERVAL_MS = 40;
// 30 keystrokes: type "typescript", erase it, type it again. Final value "typescript".
const WORD = 'typescript';
const VALUES = [
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, i + 1)),
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, 9 - i)),
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, i + 1)),
];

/**
 * The argument input's completion loop as the extension ships it (src/core/view/completion-session.ts,
 * which the quick input wraps): empty prefix asks at once, other prefixes after DEBOUNCE_MS of quiet; a
 * new request aborts the previous one; results cached per prefix; an aborted request's late answer is
 * cached but not shown. The QuickPick is replaced by a list of what was shown when.
 */
function argumentInputModel(core, target, argName, values) {
  const shown = [];
  const session = new core.CompletionSession({
    fetch: async (prefix, signal) => (await core.completeArgument(target, argName, prefix, values, signal)).values,
    show: c => {
      shown.push({ at: now(), prefix: c.prefix, values: c.values });
    },
  });
  const render = () => {
    shown.push({ at: now(), prefix: session.current.prefix, values: session.current.values });
  };
  return {
    stats: {
      get sent() {
        return session.stats.sent;
      },
      get cancelled() {
        return session.stats.cancelled;
      },
      get maxInFlight() {
        return session.stats.maxInFlight;
      },
      shown,
    },
    open: () => {
      render();
      session.request('');
    },
    type: v => {
      render();
      session.request(v);
    }, // onDidChangeValue: render (stale items) then complete
    close: () => session.dispose(),
  };
}

/**
 * One keystroke of an argument step as the extension ships it: the suggestions (src/core/view/suggestions.ts)
 * fed to the shipped ValueRows (bench/build.mjs bundles src/core/view/value-rows.ts, no copy).
 */
function keystroke(core, rows, typed, history, completions) {
  return rows.items(core.boxRow(typed, 'language', true), core.suggestions(typed, history, completions, 'comp'), typed);
}

/**
 * Each keystroke's work in the argument input over the 30 keystrokes: µs per keystroke (median and
 * p95 over `rounds` runs of the whole sequence, each with fresh rows). The server's last answer is
 * the one for the text 200 ms (debounce + server) earlier, as in the live input.
 */
function keystrokes(core, ValueRows, answers, history, rounds) {
  const per = [];
  let rebuilt = 0;
  for (let r = 0; r < rounds; r++) {
    const rows = new ValueRows();
    let completions = { prefix: '', values: answers('') };
    for (let i = 0; i < VALUES.length; i++) {
      const lag = VALUES[i - Math.ceil((DEBOUNCE_MS + SERVER_DELAY_MS) / KEY_INTERVAL_MS)];
      if (lag !== undefined && lag !== completions.prefix) completions = { prefix: lag, values: answers(lag) };
      const t = now();
      const items = keystroke(core, rows, VALUES[i], history, completions);
      per.push((now() - t) * 1000);
      if (items) rebuilt++;
    }
  }
  return { median: median(per), p95: quantile(per, 0.95), rebuiltPerSequence: rebuilt / rounds };
}

export async function run({ reps = 5 } = {}) {
  const core = loadCore();
  const { command, args } = fixtureCommand('completions');
  const env = { COMPLETION_DELAY_MS: String(SERVER_DELAY_MS) };
  const catalog = new core.Catalog({ start: 'eager', connection: () => ({ restart: false }) });
  const raw = new Client({ name: 'bench-raw', version: '0' }, { capabilities: {} });
  const raw0 = new Client({ name: 'bench-raw-nodelay', version: '0' }, { capabilities: {} });
  try {
    catalog.setServers(core.parseConfigObject({ servers: { comp: { command, args, env } } }, 'workspace').servers);
    await raw.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
    await catalog.ready();
    const target = catalog.resolve('comp.pick_framework').prompt;
    const final = VALUES[VALUES.length - 1];
    // Baseline: the server's own time for the final prefix, one plain SDK call at a time.
    const server = [];
    for (let i = 0; i < 10; i++) {
      const t = now();
      await raw.complete({
        ref: { type: 'ref/prompt', name: 'pick_framework' },
        argument: { name: 'language', value: final },
      });
      server.push(now() - t);
    }
    const serverMs = median(server);

    // Each keystroke's work, on the shipped ValueRows. Baseline: one plain SDK completion/complete on
    // stdio without the fixture's delay (what a keystroke would wait for if it asked the server).
    const { ValueRows } = require(path.join(BENCH, '.out', 'argument-rows.cjs'));
    await raw0.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    const real = new Map();
    for (const v of ['', ...new Set(VALUES)])
      real.set(v, (await core.completeArgument(target, 'language', v, {})).values);
    const roundTrip = [];
    for (let i = 0; i < 40; i++) {
      const t = now();
      await raw0.complete({
        ref: { type: 'ref/prompt', name: 'pick_framework' },
        argument: { name: 'language', value: 'ty' },
      });
      if (i >= 10) roundTrip.push(now() - t);
    }
    const roundTripUs = median(roundTrip) * 1000;
    const rounds = reps * 200;
    const small = keystrokes(core, ValueRows, v => real.get(v) ?? [], ['python', 'typescript', 'rust'], rounds);
    // The most a server may send (100 values, the protocol's cap) and 100 recent values.
    const many = (tag, n) => Array.from({ length: n }, (_, i) => `${WORD.slice(0, 1 + (i % WORD.length))}-${tag}-${i}`);
    const big = keystrokes(core, ValueRows, v => many('s', 100).filter(x => x.startsWith(v)), many('h', 100), rounds);
    const runs = [];
    for (let r = 0; r < reps; r++) {
      const input = argumentInputModel(core, target, 'language', {});
      const t0 = now();
      input.open();
      let lastKey = 0;
      for (let i = 0; i < VALUES.length; i++) {
        const due = t0 + KEY_INTERVAL_MS * (i + 1);
        await sleep(Math.max(0, due - now()));
        lastKey = now();
        input.type(VALUES[i]);
      }
      const deadline = now() + 5000;
      const done = () => input.stats.shown.some(x => x.at >= lastKey && x.prefix === final && x.values.length);
      while (!done() && now() < deadline) await sleep(2);
      await sleep(20);
      input.close();
      const shown = input.stats.shown.find(x => x.at >= lastKey && x.prefix === final && x.values.length);
      runs.push({
        sent: input.stats.sent,
        cancelled: input.stats.cancelled,
        maxInFlight: input.stats.maxInFlight,
        finalMs: shown ? shown.at - lastKey : NaN,
        finalItems: shown?.values,
        typingMs: lastKey - t0,
      });
      await sleep(SERVER_DELAY_MS + 50); // let cancelled requests finish server-side before the next run
    }
    const finalMs = median(runs.map(x => x.finalMs));
    const maxInFlight = Math.max(...runs.map(x => x.maxInFlight));
    const sent = median(runs.map(x => x.sent));
    const cancelled = median(runs.map(x => x.cancelled));
    const ideal = serverMs + DEBOUNCE_MS;
    return {
      rows: [
        row(
          'last keystroke → final items',
          finalMs,
          ideal,
          'ms',
          { abs: ideal + 20 },
          `baseline = server time ${serverMs.toFixed(1)} ms (plain SDK call, median of 10) + ${DEBOUNCE_MS} ms debounce; per run: ${runs.map(x => x.finalMs.toFixed(0)).join(', ')} ms; final items ${JSON.stringify(runs[0].finalItems)}`,
        ),
        row('requests in flight per argument (max)', maxInFlight, undefined, 'n', { abs: 1 }),
        row(
          'requests sent per 30 keystrokes',
          sent,
          undefined,
          'n',
          undefined,
          `'' at open (no debounce) + one after the typing stops; per run: ${runs.map(x => x.sent).join(', ')}`,
        ),
        row(
          'keystroke: rows rebuilt + last answer narrowed (fixture answers)',
          small.median,
          roundTripUs,
          'µs',
          { abs: 1000 },
          `baseline = one plain SDK completion/complete on stdio (no delay); p95 ${small.p95.toFixed(1)} µs; rows rebuilt on ${small.rebuiltPerSequence} of ${VALUES.length} keystrokes`,
        ),
        row(
          'keystroke: same, 100 server values + 100 recent',
          big.median,
          roundTripUs,
          'µs',
          { abs: 1000 },
          `p95 ${big.p95.toFixed(1)} µs; rows rebuilt on ${big.rebuiltPerSequence} of ${VALUES.length} keystrokes`,
        ),
        row(
          'requests cancelled',
          cancelled,
          undefined,
          'n',
          undefined,
          `per run: ${runs.map(x => x.cancelled).join(', ')} (a request is aborted only when the next one is sent or the input closes)`,
        ),
      ],
      data: {
        serverMs,
        roundTripUs,
        keystroke: { fixture: small, hundred: big, rounds },
        debounceMs: DEBOUNCE_MS,
        keyIntervalMs: KEY_INTERVAL_MS,
        serverDelayMs: SERVER_DELAY_MS,
        keystrokes: VALUES.length,
        runs,
      },
      notes: [
        "debounce/cancel/cache loop: the shipped CompletionSession (src/core/view/completion-session.ts, wrapped by the argument input), on the core's completeArgument with an AbortSignal",
        "keystroke rows: the shipped suggestions (src/core/view/suggestions.ts) and ValueRows (bundled from src/core/view/value-rows.ts with the project's options)",
      ],
    };
  } finally {
    await catalog.dispose();
    await raw.close().catch(() => undefined);
    await raw0.close().catch(() => undefined);
  }
}

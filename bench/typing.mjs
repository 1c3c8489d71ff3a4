// 4. Completion under typing: the quiet spell + one-request-at-a-time + per-prefix cache loop of the
// extension's argument input, driven by simulated keystrokes against the completions fixture with a
// slow server that counts the requests it has under way.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fixtureCommand } from '../test/fixtures/launch.mjs';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { BENCH, loadCore, median, now, quantile, row, sleep } from './lib.mjs';

const require = createRequire(import.meta.url);

const SERVER_DELAY_MS = 100;
/** Our share of the wait after the last keystroke, beyond the server's own time (VS Code's own input waits 200 ms). */
const MAX_SHARE_MS = 100;
// 30 keystrokes: type "typescript", erase it, type it again. Final value "typescript".
const WORD = 'typescript';
const VALUES = [
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, i + 1)),
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, 9 - i)),
  ...Array.from({ length: 10 }, (_, i) => WORD.slice(0, i + 1)),
];
/**
 * A fast burst (40 ms a key: the 30 keystrokes above), and the pace of a 100-words-a-minute typist
 * (120 ms a key: "typescript" once, so its last text is not in the cache from an earlier pass).
 */
const PACES = [40, 120];
const SEQUENCES = { 40: VALUES, 120: VALUES.slice(0, 10) };

/**
 * The argument input's completion loop as the extension ships it (src/core/view/completion-session.ts,
 * which the quick input wraps): empty prefix asks at once, other prefixes after COMPLETION_DEBOUNCE_MS of
 * quiet; one request out at a time (text typed meanwhile is sent when it answers); results cached per
 * prefix. The QuickPick is replaced by a list of what was shown when.
 */
function argumentInputModel(core, target, argName, values) {
  const shown = [];
  // Each request's round trip (sent → answered): the server's own time for it, as this run saw it.
  const asked = [];
  const session = new core.CompletionSession({
    fetch: async (prefix, signal) => {
      const at = now();
      const answer = (await core.completeArgument(target, argName, prefix, values, signal)).values;
      asked.push({ prefix, at, ms: now() - at });
      return answer;
    },
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
      get maxInFlight() {
        return session.stats.maxInFlight;
      },
      shown,
      asked,
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
 * the one for the text (quiet spell + server) earlier, as in the live input.
 */
function keystrokes(core, ValueRows, answers, history, rounds) {
  const lagKeys = Math.ceil((core.COMPLETION_DEBOUNCE_MS + SERVER_DELAY_MS) / PACES[0]);
  const per = [];
  let rebuilt = 0;
  for (let r = 0; r < rounds; r++) {
    const rows = new ValueRows();
    let completions = { prefix: '', values: answers('') };
    for (let i = 0; i < VALUES.length; i++) {
      const lag = VALUES[i - lagKeys];
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
  const statsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-typing-'));
  const statsFile = path.join(statsDir, 'stats.json');
  const env = { COMPLETION_DELAY_MS: String(SERVER_DELAY_MS), COMPLETION_STATS: statsFile };
  const serverStats = () => JSON.parse(fs.readFileSync(statsFile, 'utf8')).language;
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
    // The server's own time for the final text, as the session's requests see it.
    const typedRuns = {};
    for (const pace of PACES) typedRuns[pace] = await typeRuns(core, target, reps, pace, serverStats);
    const fast = typedRuns[PACES[0]];
    const finalMs = median(fast.map(x => x.finalMs));
    // Our share: from the last key to the final items, less the final text's own round trip in that run.
    const shareOf = x => x.finalMs - x.finalRequestMs;
    const shares = Object.fromEntries(PACES.map(p => [p, median(typedRuns[p].map(shareOf))]));
    const maxInFlight = Math.max(...PACES.flatMap(p => typedRuns[p].map(x => x.maxInFlight)));
    const serverMost = Math.max(...PACES.flatMap(p => typedRuns[p].map(x => x.serverMost)));
    const sent = median(fast.map(x => x.sent));
    const perRun = p => typedRuns[p].map(x => x.finalMs.toFixed(0)).join(', ');
    return {
      rows: [
        row(
          'last keystroke → final items',
          finalMs,
          serverMs,
          'ms',
          undefined,
          `baseline = the server's time ${serverMs.toFixed(1)} ms (plain SDK call, median of 10); per run: ${perRun(PACES[0])} ms; final items ${JSON.stringify(fast[0].finalItems)}`,
        ),
        ...PACES.map(pace =>
          row(
            `  our share of it (beyond the server's time), ${pace} ms a key`,
            shares[pace],
            undefined,
            'ms',
            { abs: MAX_SHARE_MS },
            `last key → final items less the final text's own round trip, per run: ${typedRuns[pace].map(x => `${x.finalMs.toFixed(0)} − ${x.finalRequestMs.toFixed(0)}`).join(', ')} ms (quiet spell ${core.COMPLETION_DEBOUNCE_MS} ms, then the request, or the answer of the one out first); requests sent per run ${typedRuns[pace].map(x => x.sent).join(', ')}`,
          ),
        ),
        row(
          'requests under way at once, per argument (max)',
          Math.max(maxInFlight, serverMost),
          undefined,
          'n',
          { abs: 1 },
          `counted by the session (${maxInFlight}) and by the server itself (${serverMost}), over both paces`,
        ),
        row(
          'requests sent per 30 keystrokes',
          sent,
          undefined,
          'n',
          undefined,
          `${PACES[0]} ms a key: '' at open + one after the typing stops; per run: ${fast.map(x => x.sent).join(', ')}`,
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
      ],
      data: {
        serverMs,
        roundTripUs,
        keystroke: { fixture: small, hundred: big, rounds },
        debounceMs: core.COMPLETION_DEBOUNCE_MS,
        paces: PACES,
        serverDelayMs: SERVER_DELAY_MS,
        keystrokes: VALUES.length,
        runs: typedRuns,
      },
      notes: [
        "quiet spell / one request at a time / cache loop: the shipped CompletionSession (src/core/view/completion-session.ts, wrapped by the argument input), on the core's completeArgument",
        "keystroke rows: the shipped suggestions (src/core/view/suggestions.ts) and ValueRows (bundled from src/core/view/value-rows.ts with the project's options)",
      ],
    };
  } finally {
    await catalog.dispose();
    await raw.close().catch(() => undefined);
    await raw0.close().catch(() => undefined);
    fs.rmSync(statsDir, { recursive: true, force: true });
  }
}

/**
 * `reps` runs of the 30 keystrokes at `pace` ms a key through the shipped session: when the final
 * text's answer showed after the last key, what was sent, and the most requests under way at once as
 * the session and the server each counted them.
 */
async function typeRuns(core, target, reps, pace, serverStats) {
  const keys = SEQUENCES[pace];
  const final = keys[keys.length - 1];
  const runs = [];
  for (let r = 0; r < reps; r++) {
    const input = argumentInputModel(core, target, 'language', {});
    const before = serverStats();
    const t0 = now();
    input.open();
    let lastKey = 0;
    for (let i = 0; i < keys.length; i++) {
      const due = t0 + pace * (i + 1);
      await sleep(Math.max(0, due - now()));
      lastKey = now();
      input.type(keys[i]);
    }
    const deadline = now() + 5000;
    const done = () => input.stats.shown.some(x => x.at >= lastKey && x.prefix === final && x.values.length);
    while (!done() && now() < deadline) await sleep(2);
    input.close();
    const shown = input.stats.shown.find(x => x.at >= lastKey && x.prefix === final && x.values.length);
    // The counts are the server's since it started: the most under way is its own, over every run so far.
    while (serverStats().underWay > 0) await sleep(5);
    runs.push({
      sent: input.stats.sent,
      maxInFlight: input.stats.maxInFlight,
      serverMost: serverStats().mostUnderWay,
      serverReceived: serverStats().received.length - before.received.length,
      finalMs: shown ? shown.at - lastKey : NaN,
      // The last text's own request: what the server took for it in this run, however busy the machine.
      finalRequestMs: input.stats.asked.findLast(a => a.prefix === final && a.at >= lastKey)?.ms ?? NaN,
      finalItems: shown?.values,
      typingMs: lastKey - t0,
    });
  }
  return runs;
}

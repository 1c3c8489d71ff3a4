// The one run path (src/core/run/runner.ts) against a real stdio server (test/fixtures/faulty.mjs
// `fail-once`: the first prompts/get fails, later ones answer): collect → get → store → keep the
// arguments on failure → history; and destination(), the one decision of where a result goes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog/catalog';
import { ResultStore, memoryStore } from '../../src/core/run/results';
import { destination, run, type Collector, type CollectRequest } from '../../src/core/run/runner';
import { historyKey } from '../../src/core/run/history-key';
import { defs, launch, type Launch } from './helpers';

let L: Launch;
before(async () => {
  L = await launch();
});

/** The history key of `s.hello`, once the catalog has listed it. */
function helloKey(catalog: Catalog): string {
  const found = catalog.resolve('s.hello');
  if ('error' in found) throw found.error;
  return historyKey(found.prompt);
}

async function withFailOnce(body: (catalog: Catalog) => Promise<void>): Promise<void> {
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ restart: false, timeoutMs: 20000 }) });
  catalog.setServers(defs({ s: L.faultyCommand('fail-once') }));
  try {
    await body(catalog);
  } finally {
    await catalog.dispose();
  }
}

test('a failed run keeps its arguments, the retry starts from them, success forgets them; typed values become history', async () => {
  await withFailOnce(async catalog => {
    const store = new ResultStore(memoryStore());
    const asked: CollectRequest[] = [];
    // The user types "Ada" for name; `text` came from a source (the selection): not kept as history.
    const collect: Collector = async (_prompt, request) => {
      asked.push(request);
      return { values: { ...request.given, name: request.defaults.name ?? 'Ada' } };
    };
    const first = await run(catalog, store, { line: 's.hello', collect, fromDraft: true });
    assert.equal(first.kind, 'failed', 'the server fails the first get');
    assert.match(String(first.kind === 'failed' && (first.error as Error).message), /temporarily unavailable/);
    assert.equal(first.kind === 'failed' && first.retry, 's.hello', 'the retry names the prompt');
    assert.deepEqual(store.draft('s.hello'), { name: 'Ada' }, 'the failed arguments are kept');
    assert.deepEqual(
      store.history(helloKey(catalog), 'name'),
      ['Ada'],
      'what was typed is offered next time even though the get failed',
    );

    const second = await run(catalog, store, { line: 's.hello', collect, fromDraft: true });
    assert.deepEqual(asked[1].defaults, { name: 'Ada' }, 'the retry starts from the failed arguments');
    assert.equal(second.kind, 'done');
    if (second.kind !== 'done') return;
    assert.equal(second.stored.invocation, 's.hello name=Ada', 'stored under the line that re-runs it');
    assert.equal(store.lastInvocation, 's.hello name=Ada');
    assert.deepEqual(store.draft('s.hello'), {}, 'success forgets the draft');
    assert.equal(store.latest?.id, second.stored.id);
    assert.ok(second.stored.transcript.messages.length > 0, 'the transcript is stored with the result');
  });
});

test('values from a source are not history; a cancelled input runs nothing and keeps nothing', async () => {
  await withFailOnce(async catalog => {
    const store = new ResultStore(memoryStore());
    const fromSelection: Collector = async (_p, r) => ({
      values: { ...r.given, name: 'the whole selection' },
      fromSource: new Set(['name']),
    });
    await run(catalog, store, { line: 's.hello', collect: fromSelection });
    assert.deepEqual(store.history(helloKey(catalog), 'name'), [], 'a source value is not remembered');
    const cancelled = await run(catalog, store, { line: 's.hello', collect: async () => undefined });
    assert.deepEqual(cancelled, { kind: 'cancelled' });
  });
});

test('a surface that hands the line to chat gets no prompts/get, and Re-run Last runs that line', async () => {
  await withFailOnce(async catalog => {
    const store = new ResultStore(memoryStore());
    const prompt = (await catalog.ready(), catalog.resolve('s.hello'));
    assert.ok('prompt' in prompt);
    const outcome = await run(catalog, store, {
      prompt: prompt.prompt,
      values: { name: 'two words' },
      route: async () => false,
    });
    assert.deepEqual(outcome, { kind: 'handedOff', line: 's.hello name="two words"' });
    assert.equal(store.lastInvocation, 's.hello name="two words"');
    // The handed-off run never reached the server: its first get still fails (fail-once is unspent).
    const next = await run(catalog, store, { line: store.lastInvocation });
    assert.equal(next.kind, 'failed', 'the first get to reach the server is this one');
  });
});

test('the CLI and every surface refuse a misspelt argument before asking the server', async () => {
  await withFailOnce(async catalog => {
    const store = new ResultStore(memoryStore());
    await catalog.ready();
    const found = catalog.resolve('s.hello');
    assert.ok('prompt' in found);
    const outcome = await run(catalog, store, { prompt: found.prompt, values: { nmae: 'Ada' } });
    assert.equal(outcome.kind, 'failed');
    assert.equal(
      outcome.kind === 'failed' && (outcome.error as Error).message,
      's: prompt "hello" has no argument nmae (it takes: name*)',
    );
    assert.equal(
      outcome.kind === 'failed' && outcome.retry,
      undefined,
      'nothing reached the server: no draft to retry from',
    );
  });
});

test('"Send to Model" answers only the request of its own invocation, once', () => {
  const store = new ResultStore(memoryStore());
  const stored = store.store(
    's.hello name=Ada',
    { prompt: undefined!, args: {}, result: { messages: [] } },
    { messages: [] },
  );
  store.offer(stored);
  assert.equal(store.claim('s.other'), undefined, 'another request drops the offer');
  assert.equal(store.claim('s.hello name=Ada'), undefined, 'dropped: a later request of the same line asks the server');
  store.offer(stored);
  assert.equal(store.claim('s.hello name=Ada'), stored);
  assert.equal(store.claim('s.hello name=Ada'), undefined, 'once');
});

test('where a result goes is decided in one place from the typed settings', async () => {
  let probed = 0;
  const model = (answer: boolean) => async () => {
    probed++;
    return answer;
  };
  const auto = { runTarget: 'auto' as const, afterGet: 'show' as const };
  const cases: [Parameters<typeof destination>, unknown][] = [
    [['chat', 'auto', { runTarget: 'editor', afterGet: 'agent' }, model(false)], { to: 'chat', then: 'agent' }],
    [['command', 'chat', { runTarget: 'editor', afterGet: 'send' }, model(false)], { to: 'chat', then: 'send' }],
    [['command', 'editor', auto, model(true)], { to: 'editor' }],
    [['command', 'auto', { runTarget: 'editor', afterGet: 'send' }, model(true)], { to: 'editor' }],
    [['command', 'auto', auto, model(true)], { to: 'chat', then: 'show' }],
    [['command', 'auto', auto, model(false)], { to: 'editor' }],
  ];
  for (const [args, expected] of cases)
    assert.deepEqual(await destination(...args), expected, JSON.stringify(args.slice(0, 3)));
  assert.equal(probed, 2, 'the chat model is looked for only when the setting leaves it to that');
});

// The one run path (src/core/run/prompt-runner.ts) against a real stdio server (test/fixtures/faulty.mjs
// `fail-once`: the first prompts/get fails, later ones answer): collect → get → store → keep the
// arguments on failure → history; and destination(), the one decision of where a result goes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog/catalog';
import { ResultStore } from '../../src/core/run/records/result-store';
import { destination } from '../../src/core/run/destination';
import { requestFromLine, type RunRequest } from '../../src/core/run/invocation';
import {
  memoryRecords,
  PromptRunner,
  type Collector,
  type CollectRequest,
  type RunRecords,
} from '../../src/core/run/prompt-runner';
import { ChatHandOff, readChatRequest } from '../../src/core/run/requests/chat-request';
import { defs, launch, type Launch } from './helpers';

let L: Launch;
before(async () => {
  L = await launch();
});

/** `s.hello` as the catalog lists it (the argument history is kept per prompt of a server definition). */
function hello(catalog: Catalog) {
  const found = catalog.resolve('s.hello');
  if ('error' in found) throw found.error;
  return found.prompt;
}

async function withFailOnce(
  body: (catalog: Catalog, runner: PromptRunner, records: RunRecords) => Promise<void>,
): Promise<void> {
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ restart: false, timeoutMs: 20000 }) });
  catalog.setServers(defs({ s: L.faultyCommand('fail-once') }));
  const records = memoryRecords();
  try {
    await body(catalog, new PromptRunner(catalog, records), records);
  } finally {
    await catalog.dispose();
  }
}

test('a failed run keeps its arguments, the retry starts from them, success forgets them; typed values become history', async () => {
  await withFailOnce(async (catalog, runner, { attempts, history, results }) => {
    const asked: CollectRequest[] = [];
    // The user types "Ada" for name; `text` came from a source (the selection): not kept as history.
    const collect: Collector = async (_prompt, request) => {
      asked.push(request);
      return { values: { ...request.given, name: request.defaults.name ?? 'Ada' } };
    };
    const first = await runner.run(await requestFromLine(catalog, 's.hello'), { collect, fromDraft: true });
    assert.equal(first.kind, 'failed', 'the server fails the first get');
    assert.match(String(first.kind === 'failed' && (first.error as Error).message), /temporarily unavailable/);
    assert.equal(first.kind === 'failed' && first.retry, 's.hello', 'the retry names the prompt');
    assert.deepEqual(attempts.draft('s.hello'), { name: 'Ada' }, 'the failed arguments are kept');
    assert.deepEqual(
      history.values(hello(catalog), 'name'),
      ['Ada'],
      'what was typed is offered next time even though the get failed',
    );

    const second = await runner.run(await requestFromLine(catalog, 's.hello'), { collect, fromDraft: true });
    assert.deepEqual(asked[1].defaults, { name: 'Ada' }, 'the retry starts from the failed arguments');
    assert.equal(second.kind, 'done');
    if (second.kind !== 'done') return;
    assert.equal(second.stored.invocation, 's.hello name=Ada', 'stored under the line that re-runs it');
    assert.deepEqual(attempts.last, { invocationName: 's.hello', args: { name: 'Ada' } }, 'what Repeat runs');
    assert.deepEqual(attempts.draft('s.hello'), {}, 'success forgets the draft');
    assert.equal(results.latest?.id, second.stored.id);
    assert.ok(second.stored.transcript.messages.length > 0, 'the transcript is stored with the result');
  });
});

test('a get under way when its server is configured anew goes once to the server as configured now', async () => {
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ restart: false, timeoutMs: 20000 }) });
  catalog.setServers(defs({ s: L.faultyCommand('hang-on-get') }));
  const runner = new PromptRunner(catalog, memoryRecords());
  let edits = 0;
  try {
    const outcome = await runner.run(await requestFromLine(catalog, 's.hello name=Ada'), {
      whileGetting: async (_prepared, get) => {
        const answer = get();
        // An edited mcp.json while the old server keeps the get unanswered: the same name, another command.
        if (edits++ === 0) catalog.setServers(defs({ s: L.faultyCommand('garbage-before') }));
        return answer;
      },
    });
    assert.equal(edits, 2, 'the get was sent again, once');
    assert.equal(outcome.kind, 'done', `the get failed: ${outcome.kind === 'failed' && String(outcome.error)}`);
    if (outcome.kind !== 'done') return;
    assert.deepEqual(
      outcome.stored.transcript.messages.map(m => m.parts.map(p => ('text' in p ? p.text : '')).join('')),
      ['Hello, Ada!'],
    );
  } finally {
    await catalog.dispose();
  }
});

test('a get the person cancelled is not sent again when its server is configured anew meanwhile', async () => {
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ restart: false, timeoutMs: 20000 }) });
  catalog.setServers(defs({ s: L.faultyCommand('hang-on-get') }));
  const runner = new PromptRunner(catalog, memoryRecords());
  const cancel = new AbortController();
  let gets = 0;
  try {
    const outcome = await runner.run(await requestFromLine(catalog, 's.hello name=Ada'), {
      signal: cancel.signal,
      whileGetting: async (_prepared, get) => {
        gets++;
        const answer = get();
        catalog.setServers(defs({ s: L.faultyCommand('garbage-before') }));
        cancel.abort();
        return answer;
      },
    });
    assert.equal(outcome.kind, 'failed');
    assert.equal(gets, 1, 'not sent again');
  } finally {
    await catalog.dispose();
  }
});

test('values from a source are not history; a cancelled input runs nothing and keeps nothing', async () => {
  await withFailOnce(async (catalog, runner, { history }) => {
    const fromSelection: Collector = async (_p, r) => ({
      values: { ...r.given, name: 'the whole selection' },
      fromSource: new Set(['name']),
    });
    await runner.run(await requestFromLine(catalog, 's.hello'), { collect: fromSelection });
    assert.deepEqual(history.values(hello(catalog), 'name'), [], 'a source value is not remembered');
    const fromReference = await runner.run(
      { ...(await requestFromLine(catalog, 's.hello')), sourced: ['name'] },
      { collect: async (_p, r) => ({ values: { ...r.given, name: 'a file' } }) },
    );
    assert.equal(fromReference.kind, 'done');
    assert.deepEqual(
      history.values(hello(catalog), 'name'),
      [],
      'a value named as sourced by the request is not remembered',
    );
    const cancelled = await runner.run(await requestFromLine(catalog, 's.hello'), { collect: async () => undefined });
    assert.deepEqual(cancelled, { kind: 'cancelled' });
  });
});

/** What the participant runs for the request that claims a hand-off (readChatRequest): the prepared run, as it was prepared. */
async function claimedRun(catalog: Catalog, handOff: ChatHandOff, line: string): Promise<RunRequest> {
  const asked = await readChatRequest({ prompt: `/${line}`, references: [] }, catalog, handOff, {
    read: () => Promise.reject(new Error('a handed-off run reads no reference')),
  });
  assert.equal(asked.kind, 'run', `the request ${JSON.stringify(line)} claims the hand-off`);
  if (asked.kind !== 'run') throw new Error('nothing claimed');
  assert.deepEqual(asked.notes, []);
  return asked.run;
}

test('arguments prepared for a hand-off to chat send nothing; the chat request gets them as prepared', async () => {
  await withFailOnce(async (catalog, runner) => {
    const request = { ...(await requestFromLine(catalog, 's.hello')), values: { name: 'two words' } };
    const preparation = await runner.prepare(request, {});
    assert.equal(preparation.kind, 'ready');
    if (preparation.kind !== 'ready') return;
    const handOff = new ChatHandOff();
    const line = handOff.hold({ kind: 'run', prepared: preparation.prepared });
    assert.equal(line, 's.hello name="two words"', 'the line shown in chat is written by the invocation rule');
    // The prepared run never reached the server: its first get still fails (fail-once is unspent).
    const next = await runner.run(await claimedRun(catalog, handOff, line));
    assert.equal(next.kind, 'failed', 'the first get to reach the server is this one');
  });
});

test('a run that got its answer is recent, with the typed values only; a run handed to chat counts once', async () => {
  await withFailOnce(async (catalog, runner, { usage }) => {
    const request = await requestFromLine(catalog, 's.hello');
    const failed = await runner.run({ ...request, values: { name: 'Ada' } });
    assert.equal(failed.kind, 'failed');
    assert.deepEqual(usage.recent(), [], 'a run that failed is not recent');
    const fromSelection: Collector = async (_p, r) => ({
      values: { ...r.given, name: 'the selection' },
      fromSource: new Set(['name']),
    });
    const done = await runner.run(request, { collect: fromSelection });
    assert.equal(done.kind, 'done');
    assert.deepEqual(
      usage.recent().map(r => [r.place.prompt, r.count, r.args]),
      [['hello', 1, undefined]],
      'recent, without the value taken from the editor',
    );
    // The picker hands the prepared run to chat; the chat request claims it and runs it: one run, kept once.
    const handOff = new ChatHandOff();
    const typed = await runner.prepare({ ...request, values: { name: 'Bo' } }, {});
    assert.equal(typed.kind, 'ready');
    if (typed.kind !== 'ready') return;
    const line = handOff.hold({ kind: 'run', prepared: typed.prepared });
    await new Promise(resolve => setImmediate(resolve));
    assert.equal(usage.recent()[0].count, 1, 'handed off but not run yet: not kept');
    const chat = await runner.run(await claimedRun(catalog, handOff, line));
    assert.equal(chat.kind, 'done');
    assert.deepEqual(usage.recent()[0].args, { name: 'Bo' });
    assert.equal(usage.recent()[0].count, 2, 'handed off and run in chat: counted once');
    // A value the picker took from the editor stays out of the recent prompts after the hand-off too.
    const sourced = await runner.prepare(request, { collect: fromSelection });
    assert.equal(sourced.kind, 'ready');
    if (sourced.kind !== 'ready') return;
    const again = await runner.run(
      await claimedRun(catalog, handOff, handOff.hold({ kind: 'run', prepared: sourced.prepared })),
    );
    assert.equal(again.kind, 'done');
    assert.deepEqual([usage.recent()[0].count, usage.recent()[0].args], [3, undefined], 'kept without the value');
  });
});

test('the CLI and every surface refuse a misspelt argument before asking the server', async () => {
  await withFailOnce(async (catalog, runner) => {
    await catalog.ready();
    const found = catalog.resolve('s.hello');
    assert.ok('prompt' in found);
    const outcome = await runner.run({ prompt: found.prompt, values: { nmae: 'Ada' } });
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

test('a hand-off to chat is claimed only by the request of its own line, once; any other request drops it', async () => {
  await withFailOnce(async catalog => {
    await catalog.ready();
    const found = catalog.resolve('s.hello');
    assert.ok('prompt' in found);
    const stored = new ResultStore().store(
      { prompt: found.prompt, args: { name: 'Ada' }, result: { messages: [] } },
      { messages: [] },
    );
    assert.equal(stored.invocation, 's.hello name=Ada', 'stored under the line that runs it again');
    // Send to Model: the stored result waits for the request of its line.
    const handOff = new ChatHandOff();
    const result = { kind: 'result', stored } as const;
    assert.equal(handOff.hold(result), 's.hello name=Ada');
    assert.equal(handOff.claim('s.other'), undefined, 'another request drops the hand-off');
    assert.equal(
      handOff.claim('s.hello name=Ada'),
      undefined,
      'dropped: a later request of the same line asks the server',
    );
    handOff.hold(result);
    assert.equal(handOff.claim('s.hello name=Ada'), result);
    assert.equal(handOff.claim('s.hello name=Ada'), undefined, 'once');
    // A prepared run whose line the person edited before sending: the request runs what was typed.
    const prepared = { prompt: found.prompt, args: { name: 'Ada' } };
    handOff.hold({ kind: 'run', prepared });
    const edited = await readChatRequest({ prompt: '/s.hello name=Bob', references: [] }, catalog, handOff, {
      read: async () => ({ named: [], unnamed: [] }),
    });
    assert.deepEqual(
      edited.kind === 'run' && edited.run.values,
      { name: 'Bob' },
      'the edited line is not the hand-off: it runs as typed',
    );
    assert.equal(handOff.claim('s.hello name=Ada'), undefined, 'and the hand-off is gone');
  });
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

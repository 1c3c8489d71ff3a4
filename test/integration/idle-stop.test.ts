// Idle stop (ConnectionOptions.idleStopMs) against real stdio fixture servers: a server without requests
// stops after the timeout and keeps its prompts; the next run starts it again; a request under way, a
// question waiting for the user and an open argument input (the runner's hold) keep it running. Every
// "keeps it running" test compares with a second server armed no earlier, which does stop: no fixed sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeArgument, requestFromLine } from '../../src/core/run/invocation';
import { memoryRecords, PromptRunner } from '../../src/core/run/prompt-runner';
import type { QuestionAnswer } from '../../src/core/protocol/questions/elicitation';
import { childPidsMatching, processRunning, launch, testCatalog, waitFor, getLine } from './helpers';

const IDLE_MS = 400;
const stopLine = /had no requests for .* stopped until it is needed again/;

/** A promise and the function that resolves it. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>(resolve => {
    open = resolve;
  });
  return { promise, open };
}

test('an idle server stops after the timeout, keeps its prompts as stopped, and the next run starts it again', async () => {
  const { fixtureCommand } = await launch();
  const { catalog, entry, log } = testCatalog({ idle: fixtureCommand('paginated') }, { idleStopMs: IDLE_MS });
  try {
    await catalog.ready();
    const server = entry('idle');
    assert.equal(server.prompts.length, 23);
    const [pid] = childPidsMatching('paginated');
    assert.ok(pid, 'the server runs');
    await waitFor(() => server.connection.state.kind === 'stopped', 'the idle stop');
    await waitFor(() => !processRunning(pid), 'the process to exit');
    assert.equal(server.prompts.length, 23, 'its prompts stay offered');
    assert.equal(server.listError, undefined, 'an idle stop is no error');
    assert.match(log('idle').text(), stopLine);

    const got = await getLine(catalog, 'idle.p07 topic=cats');
    assert.equal(
      (got?.result.messages?.[0] as { content: { text: string } }).content.text,
      'Prompt p07 about cats',
      'the run starts the server and gets its answer',
    );
    const starts = log('idle').lines.filter(l => l.message.startsWith('Starting idle'));
    assert.equal(starts.length, 2, 'the run started the server again');
    // It missed list_changed while stopped: the catalog lists again, then it stops again when idle.
    await waitFor(() => log('idle').sentMethods('prompts/list').length === 10, 'the second listing (5 pages)');
    await waitFor(() => server.connection.state.kind === 'stopped', 'the second idle stop');
    assert.equal(server.prompts.length, 23);
  } finally {
    await catalog.dispose();
  }
});

test('a question waiting for the user keeps its server running; the other server stops meanwhile', async () => {
  const { fixtureCommand } = await launch();
  const answer = gate<QuestionAnswer>();
  const asked = gate();
  const { catalog, entry } = testCatalog(
    { q: fixtureCommand('questions'), other: fixtureCommand('paginated') },
    {
      idleStopMs: IDLE_MS,
      questions: () => {
        asked.open();
        return answer.promise;
      },
    },
  );
  try {
    await catalog.ready();
    const q = entry('q');
    const other = entry('other');
    const pending = getLine(catalog, 'q.ask_name');
    await asked.promise;
    // Armed after the question came: its stop proves the question's server outlived its own timeout.
    await getLine(catalog, 'other.p01');
    await waitFor(() => other.connection.state.kind === 'stopped', 'the other server to stop');
    assert.equal(q.connection.state.kind, 'running', 'the server with a question under way keeps running');
    answer.open({ action: 'accept', values: { name: 'Ada' } });
    const got = await pending;
    assert.match(
      (got?.result.messages?.[0] as { content: { text: string } }).content.text,
      /ask_name: action=accept content=\{"name":"Ada"\}/,
    );
    await waitFor(() => q.connection.state.kind === 'stopped', 'the idle stop once the request ended');
  } finally {
    await catalog.dispose();
  }
});

test("an open argument input (the runner's hold) keeps its server running; the other server stops meanwhile", async () => {
  const { fixtureCommand } = await launch();
  const { catalog, entry } = testCatalog(
    { a: fixtureCommand('paginated'), b: fixtureCommand('rich') },
    { idleStopMs: IDLE_MS },
  );
  try {
    await catalog.ready();
    const a = entry('a');
    const b = entry('b');
    const opened = gate();
    const typed = gate<Record<string, string>>();
    const running = new PromptRunner(catalog, memoryRecords()).run(await requestFromLine(catalog, 'a.p03'), {
      askOptional: true,
      collect: async () => {
        opened.open();
        return { values: await typed.promise };
      },
    });
    await opened.promise;
    // The input asks for completions (which start a again, were it stopped before the input opened);
    // after that only the hold is left on a.
    const p03 = a.prompts.find(p => p.prompt.name === 'p03') ?? assert.fail('no p03');
    assert.deepEqual((await completeArgument(p03, 'topic', 'm', {})).values, ['music']);
    // Any request to b now arms b's wait later than a's would have been armed.
    await catalog.refresh('b');
    await waitFor(() => b.connection.state.kind === 'stopped', 'the other server to stop');
    assert.equal(a.connection.state.kind, 'running', 'the server whose argument input is open keeps running');
    typed.open({ topic: 'music' });
    const outcome = await running;
    assert.equal(outcome.kind, 'done');
    await waitFor(() => a.connection.state.kind === 'stopped', 'the idle stop once the input closed and the get ended');
  } finally {
    await catalog.dispose();
  }
});

test('without idleStopMs a server keeps running (the CLI and onStartup servers)', async () => {
  const { fixtureCommand } = await launch();
  const { catalog, entry } = testCatalog({ never: fixtureCommand('paginated') });
  const idle = testCatalog({ idle: fixtureCommand('rich') }, { idleStopMs: IDLE_MS });
  try {
    await catalog.ready();
    await idle.catalog.ready();
    // The idle catalog's server was armed after this one's listing ended.
    await waitFor(() => idle.entry('idle').connection.state.kind === 'stopped', 'the idle stop of the other catalog');
    assert.equal(entry('never').connection.state.kind, 'running');
  } finally {
    await catalog.dispose();
    await idle.catalog.dispose();
  }
});

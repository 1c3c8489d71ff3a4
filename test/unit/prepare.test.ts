// PromptRunner.prepare: the argument steps for a prompt already chosen (picker, tree, Repeat): unknown
// names, what is missing, what the collector is asked and what is sent. The connection is never started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog, type CatalogPrompt, type ServerEntry } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import { ServerConnection } from '../../src/core/protocol/connection/connection';
import { PromptError } from '../../src/core/errors';
import { missingArguments } from '../../src/core/run/invocation';
import { memoryRecords, PromptRunner, type Collector, type RunOptions } from '../../src/core/run/prompt-runner';

const def = parseConfigObject({ servers: { 'Rich Demo': { command: 'node', args: ['never-started.js'] } } }, 'user')
  .servers[0];
const server: ServerEntry = {
  id: def.id,
  def,
  connection: new ServerConnection(def),
  prompts: [],
  skills: [],
  loading: false,
  warnings: [],
  cached: false,
};
const review: CatalogPrompt = {
  server,
  prompt: { name: 'code_review', arguments: [{ name: 'code', required: true }, { name: 'language' }] },
  invocationName: `${def.id}.code_review`,
  shortName: 'code_review',
  unique: true,
};
const runner = new PromptRunner(new Catalog({ start: 'lazy' }), memoryRecords());

/** The arguments as they would be sent, or undefined when cancelled; a refusal is thrown. */
async function prepare(values: Record<string, string>, options: RunOptions = {}) {
  const preparation = await runner.prepare({ prompt: review, values }, options);
  if (preparation.kind === 'failed') throw preparation.error;
  return preparation.kind === 'ready' ? preparation.prepared : undefined;
}

/** A collector that records what it was asked and answers `answer` (merged with what was given). */
function collector(answer: Record<string, string> | undefined) {
  const asked: { given: Record<string, string>; askOptional: boolean }[] = [];
  const collect: Collector = (_prompt, request) => {
    asked.push({ given: { ...request.given }, askOptional: request.askOptional });
    return Promise.resolve(answer && { values: { ...request.given, ...answer } });
  };
  return { asked, collect };
}

test('a misspelt argument name is refused with the server, the prompt and what it takes', async () => {
  await assert.rejects(prepare({ code: 'x', colour: 'red' }), (err: PromptError) => {
    assert.equal(err.kind, 'input');
    assert.equal(err.message, 'Rich Demo: prompt "code_review" has no argument colour (it takes: code*, language)');
    return true;
  });
});

test('a missing required argument without a collector names the prompt and the argument', async () => {
  await assert.rejects(prepare({ language: 'go' }), {
    message: 'Rich Demo: prompt "code_review" needs code',
  });
  assert.deepEqual(
    missingArguments(review, { code: '' }).map(a => a.name),
    ['code'],
    'an empty value is no value',
  );
});

test('the collector is asked for what is missing, with what was given; its values are sent, empty ones are not', async () => {
  const { asked, collect } = collector({ code: 'fn main', language: '' });
  const ready = await prepare({ language: 'rust' }, { collect });
  assert.deepEqual(asked, [{ given: { language: 'rust' }, askOptional: false }]);
  assert.deepEqual(ready?.args, { code: 'fn main' }, 'the collector cleared language: an empty value is left out');
});

test('the collector is asked only when something is missing, unless optional ones are asked too', async () => {
  const quiet = collector({});
  assert.deepEqual((await prepare({ code: 'x' }, { collect: quiet.collect }))?.args, { code: 'x' });
  assert.equal(quiet.asked.length, 0, 'nothing missing: no question');
  const optional = collector({ language: 'go' });
  const ready = await prepare({ code: 'x' }, { collect: optional.collect, askOptional: true });
  assert.deepEqual(optional.asked, [{ given: { code: 'x' }, askOptional: true }]);
  assert.deepEqual(ready?.args, { code: 'x', language: 'go' });
});

test('cancelling the collector is no error; a collector that leaves a required argument empty is', async () => {
  assert.equal(await prepare({}, { collect: collector(undefined).collect }), undefined);
  await assert.rejects(prepare({}, { collect: collector({ code: '' }).collect }), {
    message: 'Rich Demo: prompt "code_review" needs code',
  });
  assert.equal(server.connection.state.kind, 'idle', 'no step started the server');
});

// prepareInvocation's argument steps for a prompt already chosen (picker, tree, re-run): unknown names,
// what is missing, what the collector is asked and what is sent. The connection is never started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog, type CatalogPrompt, type ServerEntry } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import { ServerConnection } from '../../src/core/protocol/connection';
import { PromptError } from '../../src/core/errors';
import { missingArguments, prepareInvocation, type ArgumentCollector } from '../../src/core/run/invocation';

const def = parseConfigObject({ servers: { 'Rich Demo': { command: 'node', args: ['never-started.js'] } } }, 'user')
  .servers[0];
const server: ServerEntry = {
  id: def.id,
  def,
  connection: new ServerConnection(def),
  prompts: [],
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
const catalog = new Catalog({ start: 'lazy' });

/** A collector that records what it was asked and answers `answer`. */
function collector(answer: Record<string, string> | undefined) {
  const asked: { given: Record<string, string>; missing: string[] }[] = [];
  const collect: ArgumentCollector = (_prompt, given, missing) => {
    asked.push({ given: { ...given }, missing: missing.map(a => a.name) });
    return Promise.resolve(answer);
  };
  return { asked, collect };
}

test('a misspelt argument name is refused with the server, the prompt and what it takes', async () => {
  await assert.rejects(
    prepareInvocation(catalog, { prompt: review, values: { code: 'x', colour: 'red' } }),
    (err: PromptError) => {
      assert.equal(err.kind, 'input');
      assert.equal(err.message, 'Rich Demo: prompt "code_review" has no argument colour (it takes: code*, language)');
      return true;
    },
  );
});

test('a missing required argument without a collector names the prompt and the argument', async () => {
  await assert.rejects(prepareInvocation(catalog, { prompt: review, values: { language: 'go' } }), {
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
  const ready = await prepareInvocation(catalog, { prompt: review, values: { language: 'rust' }, collect });
  assert.deepEqual(asked, [{ given: { language: 'rust' }, missing: ['code'] }]);
  assert.deepEqual(ready?.args, { code: 'fn main' }, 'the collector cleared language: an empty value is left out');
});

test('the collector is asked only when something is missing, unless optional ones are asked too', async () => {
  const quiet = collector({});
  assert.deepEqual(
    (await prepareInvocation(catalog, { prompt: review, values: { code: 'x' }, collect: quiet.collect }))?.args,
    { code: 'x' },
  );
  assert.equal(quiet.asked.length, 0, 'nothing missing: no question');
  const optional = collector({ language: 'go' });
  const ready = await prepareInvocation(catalog, {
    prompt: review,
    values: { code: 'x' },
    collect: optional.collect,
    askOptional: true,
  });
  assert.deepEqual(optional.asked, [{ given: { code: 'x' }, missing: [] }]);
  assert.deepEqual(ready?.args, { code: 'x', language: 'go' });
});

test('cancelling the collector is no error; a collector that leaves a required argument empty is', async () => {
  assert.equal(await prepareInvocation(catalog, { prompt: review, collect: collector(undefined).collect }), undefined);
  await assert.rejects(prepareInvocation(catalog, { prompt: review, collect: collector({ code: '' }).collect }), {
    message: 'Rich Demo: prompt "code_review" needs code',
  });
  assert.equal(server.connection.status, 'idle', 'no step started the server');
});

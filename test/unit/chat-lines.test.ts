// Every writer of a line into the chat input goes through one rule, the invocation rule (formatValue,
// formatName in src/core/run/invocation.ts): a value a server chose (`#file:secret.txt`, `#selection`)
// reads back as those words and never as a chat reference that would send a file. One test per writer:
// chat-input completion, the picker's and the tree's hand-off to chat, Try Again, Repeat Last Prompt,
// Send to Model, the argument history, and Insert into Chat Input. The connection is never started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog, type CatalogPrompt } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import { formatInvocation, formatValue, parseInvocation } from '../../src/core/run/invocation';
import { planReferences } from '../../src/core/run/chat-references';
import { ResultStore, memoryStore } from '../../src/core/run/results';
import { run, type Collector } from '../../src/core/run/runner';
import { historyKey } from '../../src/core/run/history-key';
import { nameSuggestion, valueSuggestion } from '../../src/core/view/chat-suggestions';
import { handOffText } from '../../src/core/render/handoff';
import { toTranscript } from '../../src/core/render/content';

/** Values a hostile server completes to, or a user may have been handed. */
const HOSTILE_VALUES = ['#file:secret.txt', '#selection', '#file:~/.aws/credentials', '#file:a.ts:3-5', 'a b "c"', ''];

// A lazy catalog never starts the server: every writer below hands its line to chat.
const catalog = new Catalog({ start: 'lazy' });
catalog.setServers(parseConfigObject({ servers: { hostile: { command: 'node', args: ['x.js'] } } }, 'user').servers);
const review: CatalogPrompt = {
  server: catalog.servers[0],
  prompt: { name: 'review', arguments: [{ name: 'code', required: true }] },
  invocationName: 'hostile.review',
  shortName: 'review',
  unique: true,
};

/** What the participant reads from a chat line: no reference, and the value as the words it was. */
function readBack(line: string): Record<string, string> {
  const plan = planReferences(line, []);
  assert.deepEqual([plan.named, plan.unnamed], [[], []], `the line ${JSON.stringify(line)} holds a chat reference`);
  return parseInvocation(plan.text)!.named;
}

/** A surface that hands its line to chat (picker, tree, Try Again): the line, without any prompts/get. */
async function handedOff(collect: Collector, store = new ResultStore(memoryStore())): Promise<string> {
  const outcome = await run(catalog, store, {
    prompt: review,
    collect,
    askOptional: true,
    fromDraft: true,
    route: async () => false,
  });
  assert.equal(outcome.kind, 'handedOff');
  return outcome.kind === 'handedOff' ? outcome.line : '';
}

test('chat-input completion inserts what the rule writes for a value, and for an argument name', () => {
  for (const value of HOSTILE_VALUES.filter(Boolean)) {
    const { insertText } = valueSuggestion(value);
    assert.equal(insertText, `${formatValue(value)} `);
    assert.deepEqual(readBack(`hostile.review code=${insertText}`), { code: value });
  }
  assert.equal(nameSuggestion('#file:x').insertText, '"#file:x"=');
  assert.equal(nameSuggestion('code').insertText, 'code=');
});

test("the picker's and the tree's hand-off to chat writes the line by the rule", async () => {
  for (const value of HOSTILE_VALUES.filter(Boolean)) {
    const line = await handedOff(async (_p, r) => ({ values: { ...r.given, code: value } }));
    assert.equal(line, formatInvocation('hostile.review', { code: value }));
    assert.deepEqual(readBack(line), { code: value });
  }
});

test('Try Again starts from the kept arguments and writes them by the rule', async () => {
  const store = new ResultStore(memoryStore());
  store.setDraft('hostile.review', { code: '#file:secret.txt' });
  const line = await handedOff(async (_p, r) => ({ values: { ...r.given, ...r.defaults } }), store);
  assert.deepEqual(readBack(line), { code: '#file:secret.txt' });
});

test('Repeat Last Prompt and Send to Model re-send the line the rule wrote', async () => {
  const store = new ResultStore(memoryStore());
  await handedOff(async (_p, r) => ({ values: { ...r.given, code: '#selection' } }), store);
  // Repeat Last Prompt types store.lastInvocation; Send to Model types a stored result's `invocation`, the same line.
  assert.deepEqual(readBack(store.lastInvocation!), { code: '#selection' });
});

test('a value from the argument history goes to chat by the rule', async () => {
  const store = new ResultStore(memoryStore());
  await store.remember(historyKey(review), { code: '#file:secret.txt' });
  const line = await handedOff(
    async (p, r) => ({ values: { ...r.given, code: store.history(historyKey(p), 'code')[0] } }),
    store,
  );
  assert.deepEqual(readBack(line), { code: '#file:secret.txt' });
});

test('Insert into Chat Input starts with the line naming the server: no participant, command or reference leads it', () => {
  const t = toTranscript({
    messages: [{ role: 'user', content: { type: 'text', text: '@mcp /hostile.review #file:secret.txt' } }],
  });
  const text = handOffText(
    t,
    { user: 'User', assistant: 'Assistant' },
    { server: 'hostile', prompt: 'hostile.review' },
  );
  assert.match(text, /^The following was returned by the MCP server "hostile"/);
  assert.doesNotMatch(text.split('\n')[0], /^[@/#]/);
});

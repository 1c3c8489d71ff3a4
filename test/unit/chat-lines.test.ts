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
import { planReferences } from '../../src/core/run/requests/chat-request';
import { memoryRecords, PromptRunner, type Collector, type RunRecords } from '../../src/core/run/prompt-runner';
import { nameSuggestion, valueSuggestion } from '../../src/core/view/suggestions';
import { handOffText } from '../../src/core/render/agent-request';
import { toTranscript } from '../../src/core/render/content';
import { ResultStore } from '../../src/core/run/records/result-store';
import { ChatHandOff } from '../../src/core/run/requests/chat-request';

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

/**
 * A surface that hands its prepared run to chat (picker, tree, Try Again, Repeat Last Prompt): the line
 * chat shows for it, without any prompts/get. `values`: given (Repeat gives the last run's).
 */
async function handedOff(
  collect: Collector,
  records: RunRecords = memoryRecords(),
  values: Record<string, string> = {},
): Promise<string> {
  const runner = new PromptRunner(catalog, records);
  const preparation = await runner.prepare({ prompt: review, values }, { collect, askOptional: true, fromDraft: true });
  assert.equal(preparation.kind, 'ready');
  return preparation.kind === 'ready' ? new ChatHandOff().hold({ kind: 'run', prepared: preparation.prepared }) : '';
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
  const records = memoryRecords();
  records.attempts.setDraft('hostile.review', { code: '#file:secret.txt' });
  const line = await handedOff(async (_p, r) => ({ values: { ...r.given, ...r.defaults } }), records);
  assert.deepEqual(readBack(line), { code: '#file:secret.txt' });
});

test('Repeat Last Prompt and Send to Model show the line the rule wrote', async () => {
  const records = memoryRecords();
  records.attempts.ran({ invocationName: review.invocationName, args: { code: '#selection' } });
  // Repeat Last Prompt hands the last run's values to chat as a prepared run, shown by the rule.
  const last = records.attempts.last!;
  const line = await handedOff(async (_p, r) => ({ values: r.given }), records, last.args);
  assert.deepEqual(readBack(line), { code: '#selection' });
  // Send to Model hands a stored result, shown as its `invocation`: the same line.
  const stored = new ResultStore().store(
    { prompt: review, args: last.args, result: { messages: [] } },
    { messages: [] },
  );
  assert.equal(new ChatHandOff().hold({ kind: 'result', stored }), line);
});

test('a value from the argument history goes to chat by the rule', async () => {
  const records = memoryRecords();
  await records.history.remember(review, { code: '#file:secret.txt' });
  const line = await handedOff(
    async (p, r) => ({ values: { ...r.given, code: records.history.values(p, 'code')[0] } }),
    records,
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

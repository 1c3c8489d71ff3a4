// A chat request read once (core/run/requests/chat-request.ts): which chat reference becomes which argument value
// (named `code=#…`, written alone, attached without text, VS Code's own context left out, references
// VS Code left as text), and the one run request the text and the references' reads make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ChatHandOff,
  planReferences,
  readChatRequest,
  type ReferenceReader,
} from '../../src/core/run/requests/chat-request';
import { fillMissing, rangeText } from '../../src/core/run/requests/value-sources';
import { Catalog, type CatalogPrompt } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import { ResultStore } from '../../src/core/run/records/result-store';
import { formatInvocation, parseInvocation } from '../../src/core/run/invocation';

/** The range of `needle` in `text` (as VS Code gives it). */
function at(text: string, needle: string): [number, number] {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  return [i, i + needle.length];
}

test('name=#reference names the argument; the rest of the line parses as before', () => {
  const prompt = '/flow.echo path=#file:notes.txt:1-1 größe=10 extra';
  const plan = planReferences(prompt, [{ id: 'vscode.selection', range: at(prompt, '#file:notes.txt:1-1') }]);
  assert.deepEqual(plan.named, [
    { name: 'path', ref: { source: { kind: 'reference', index: 0 }, written: '#file:notes.txt:1-1' } },
  ]);
  assert.deepEqual(plan.unnamed, []);
  assert.equal(plan.text, '/flow.echo  größe=10 extra');
  assert.deepEqual(parseInvocation(plan.text)?.named, { größe: '10' });
});

test('a reference written alone, and a file attached without text, fill the missing arguments in prompt order', () => {
  const prompt = '/review #file:b.ts lang=ts #file:a.ts';
  // VS Code lists references last-first.
  const refs = [
    { id: 'file:///w/a.ts', range: at(prompt, '#file:a.ts') },
    { id: 'file:///w/b.ts', range: at(prompt, '#file:b.ts') },
    { id: 'file:///w/dragged.ts' },
    { id: 'vscode.implicit.selection' },
    { id: 'vscode.implicit.viewport' },
    { id: 'vscode.prompt.instructions.root__file:///w/.github/copilot-instructions.md' },
  ];
  const plan = planReferences(prompt, refs);
  assert.equal(plan.text, '/review  lang=ts');
  assert.deepEqual(
    plan.unnamed.map(u => u.source),
    [
      { kind: 'reference', index: 1 },
      { kind: 'reference', index: 0 },
      { kind: 'reference', index: 2 },
    ],
  );
  const args = [
    { name: 'code', required: true },
    { name: 'lang', required: true },
    { name: 'other', required: true },
    { name: 'opt' },
  ];
  const { assigned, unused } = fillMissing(
    args,
    { lang: 'ts' },
    plan.unnamed.map(u => u.written),
  );
  assert.deepEqual(assigned, [
    { name: 'code', ref: '#file:b.ts' },
    { name: 'other', ref: '#file:a.ts' },
  ]);
  assert.deepEqual(unused, ['file:///w/dragged.ts']);
});

test('#selection and #file:path typed as text (no suggestion taken) are references too; quoted or inside a word they stay text', () => {
  const prompt = '/p code=#selection file=#file:src/a.ts #file:/tmp/out.txt note="#selection" x#selection';
  const plan = planReferences(prompt, []);
  assert.deepEqual(plan.named, [
    { name: 'code', ref: { source: { kind: 'selection' }, written: '#selection' } },
    { name: 'file', ref: { source: { kind: 'file', path: 'src/a.ts' }, written: '#file:src/a.ts' } },
  ]);
  assert.deepEqual(plan.unnamed, [{ source: { kind: 'file', path: '/tmp/out.txt' }, written: '#file:/tmp/out.txt' }]);
  assert.deepEqual(parseInvocation(plan.text)?.named, { note: '#selection' });
  assert.deepEqual(
    parseInvocation(plan.text)?.positional.map(p => p.value),
    ['x#selection'],
  );
});

test('a value that looks like a reference, handed to chat as a line (picker, Repeat Last, Try Again), stays text: no file is read', () => {
  // A server's completion (or the user's literal text) in the picker must not become a file read in chat.
  const values = { a: '#file:/home/u/.ssh/id_rsa', b: '#selection', c: 'x#selection' };
  const line = `/${formatInvocation('s.p', values)}`;
  const plan = planReferences(line, []);
  assert.deepEqual([plan.named, plan.unnamed], [[], []], `expected no references in ${line}`);
  assert.deepEqual(parseInvocation(plan.text)?.named, values);
});

test('a reference in the middle of a word stays text; with no references the prompt is unchanged', () => {
  const prompt = '/p value=pre#file:a.ts';
  assert.deepEqual(planReferences(prompt, [{ id: 'file:///a.ts', range: at(prompt, '#file:a.ts') }]), {
    text: prompt,
    named: [],
    unnamed: [],
  });
  assert.equal(planReferences('/p a "b  c"', []).text, '/p a "b  c"');
});

test('nothing missing: a reference written alone has no argument to fill', () => {
  assert.deepEqual(fillMissing([{ name: 'a', required: true }], { a: 'x' }, ['#selection']), {
    assigned: [],
    unused: ['#selection'],
  });
});

test('the text of a range: 0-based lines, UTF-16 characters, any line break, clamped', () => {
  const text = 'zero\r\none ü\ntwo\rthree';
  assert.equal(rangeText(text, { line: 1, character: 0 }, { line: 1, character: 5 }), 'one ü');
  assert.equal(rangeText(text, { line: 1, character: 4 }, { line: 3, character: 2 }), 'ü\ntwo\rth');
  assert.equal(rangeText(text, { line: 0, character: 2 }, { line: 0, character: 99 }), 'ro');
  assert.equal(rangeText(text, { line: 3, character: 0 }, { line: 9, character: 0 }), 'three');
});

test('#file:path:3-5 as VS Code writes a selection: the path and its lines', () => {
  const plan = planReferences('/p code=#file:notes.txt:1-1 #file:src/a.ts:3-5 #file:b.ts:7', []);
  assert.deepEqual(plan.named[0].ref.source, { kind: 'file', path: 'notes.txt', lines: [1, 1] });
  assert.deepEqual(
    plan.unnamed.map(u => u.source),
    [
      { kind: 'file', path: 'src/a.ts', lines: [3, 5] },
      { kind: 'file', path: 'b.ts', lines: [7, 7] },
    ],
  );
});

test('a reference whose range is shifted (VS Code counted a prefix) is found by its nearest #… of the same length', () => {
  const prompt = '/flow.echo größe=4 path=#file:notes.txt:1-1';
  const [s, e] = at(prompt, '#file:notes.txt:1-1');
  const plan = planReferences(prompt, [{ id: 'vscode.selection', range: [s + 5, e + 5] }]);
  assert.deepEqual(plan.named, [
    { name: 'path', ref: { source: { kind: 'reference', index: 0 }, written: '#file:notes.txt:1-1' } },
  ]);
  assert.equal(plan.text, '/flow.echo größe=4');
});

// readChatRequest: the whole read of one request. The catalog's lookup is a fixed answer here (the
// runner's integration test reads a request against a real server's list).
const catalog = new Catalog({ start: 'lazy' });
catalog.setServers(parseConfigObject({ servers: { s: { command: 'node', args: ['x.js'] } } }, 'user').servers);
const review: CatalogPrompt = {
  server: catalog.servers[0],
  prompt: { name: 'review', arguments: [{ name: 'code', required: true }, { name: 'lang' }] },
  invocationName: 's.review',
  shortName: 'review',
  unique: true,
};
const lookUp: Pick<Catalog, 'findCommand'> = {
  findCommand: async name => {
    if (name !== 's.review') throw new Error(`looked up ${name}`);
    return { prompt: review };
  },
};
const noReads: ReferenceReader = () => Promise.reject(new Error('no reference was to be read'));

test('a request of the line a command handed off runs the prepared values as they are: nothing is parsed or read', async () => {
  const handOff = new ChatHandOff();
  const args = { code: '#file:/home/u/.ssh/id_rsa', lang: 'a b "c"' };
  const line = handOff.hold({ kind: 'run', prepared: { prompt: review, args, sourced: ['lang'] } });
  const asked = await readChatRequest(
    {
      prompt: ` /${line} `,
      references: [],
    },
    { findCommand: () => Promise.reject(new Error('no lookup')) },
    handOff,
    { read: noReads },
  );
  assert.deepEqual(asked, { kind: 'run', run: { prompt: review, values: args, sourced: ['lang'] }, notes: [] });
});

test('a typed request is parsed once, its references read by the edge and placed on the arguments', async () => {
  const handOff = new ChatHandOff();
  handOff.hold({ kind: 'run', prepared: { prompt: review, args: { code: 'x' } } });
  const text = '/s.review lang=ts #file:a.ts:2-3';
  const looked: string[] = [];
  const references = [{ id: 'file:///w/a.ts', range: at(text, '#file:a.ts:2-3') }];
  const asked = await readChatRequest({ prompt: text, references }, lookUp, handOff, {
    read: async (plan, refs) => {
      assert.equal(refs, references, "the request's own references are read");
      assert.deepEqual(
        plan.unnamed.map(u => u.written),
        ['#file:a.ts:2-3'],
      );
      const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 5 } };
      return {
        named: [],
        unnamed: [
          { written: '#file:a.ts:2-3', kind: 'text', text: 'one\ntwo\nthree\n', from: { file: 'a.ts', range } },
        ],
      };
    },
    lookingUp: name => looked.push(name),
  });
  assert.deepEqual(looked, ['s.review']);
  assert.equal(asked.kind, 'run');
  if (asked.kind !== 'run') return;
  assert.deepEqual(asked.run.values, { lang: 'ts', code: 'two\nthree' });
  assert.deepEqual(asked.run.sourced, ['code']);
  assert.equal(asked.notes.length, 1);
  assert.match(asked.notes[0], /`code` ← a\.ts, lines 2–3/);
  // The hand-off was dropped by this other request.
  assert.equal(handOff.claim('s.review code=x'), undefined);
});

test('a request that names nothing, or a reference that gives no value, is a clear input error', async () => {
  const read = async () => ({ named: [{ written: '#selection', kind: 'noSelection' as const }], unnamed: [] });
  await assert.rejects(
    readChatRequest({ prompt: '  ', references: [] }, lookUp, new ChatHandOff(), { read: noReads }),
    /Name a prompt/,
  );
  await assert.rejects(
    readChatRequest({ prompt: '/s.review code=#selection', references: [] }, lookUp, new ChatHandOff(), { read }),
    /#selection: no text is selected in an editor/,
  );
});

test('Send to Model: the request of a stored result’s line takes that result', async () => {
  const handOff = new ChatHandOff();
  const stored = new ResultStore().store(
    { prompt: review, args: { code: 'x' }, result: { messages: [] } },
    { messages: [] },
  );
  const line = handOff.hold({ kind: 'result', stored });
  assert.deepEqual(await readChatRequest({ prompt: `/${line}`, references: [] }, lookUp, handOff, { read: noReads }), {
    kind: 'result',
    stored,
  });
});

// Server text in the transcript's markdown (Copy as Markdown, Open as Document, .prompt.md), rendered by
// markdown-it with `html: true` as VS Code's markdown preview renders it: whatever span or block structure
// the text builds (code spans across lines, table cells, fences in lists, \r line breaks), no raw HTML,
// image or link reference definition comes from it, and every word of it stays in what is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { textToMarkdown, transcriptToMarkdown } from '../../src/core/render/markdown';
import type { Part, Transcript } from '../../src/core/render/content';
import { labelText } from '../../src/core/label';

const md = new MarkdownIt({ html: true, linkify: true });
type Token = ReturnType<MarkdownIt['parse']>[number];
const LABELS = {
  user: 'User',
  assistant: 'Assistant',
  forAssistant: 'For the assistant only',
  notShown: (r: string) => r,
};

/** The transcript markdown of one text part (plus the same text as a description and a link's description). */
function render(text: string): { tokens: Token[]; html: string; references: number } {
  const parts: Part[] = [
    { kind: 'text', text },
    { kind: 'link', uri: 'https://example.com/x', name: text, description: text },
  ];
  const t: Transcript = { description: text, messages: [{ role: 'user', parts }] };
  const markdown = transcriptToMarkdown(t, { labels: LABELS });
  const env: { references?: Record<string, unknown> } = {};
  const tokens = md.parse(markdown, env);
  return {
    tokens,
    html: md.renderer.render(tokens, md.options, env),
    references: Object.keys(env.references ?? {}).length,
  };
}

/** How often `word` is shown: in the description, the text part and the link's description, and in its name (a label, cut). */
function expectedCount(text: string, word: string): number {
  const count = (t: string) => t.split(word).length - 1;
  return 3 * count(text) + count(labelText(text));
}

function* flat(tokens: Token[]): Generator<Token> {
  for (const t of tokens) {
    yield t;
    if (t.children) yield* flat(t.children);
  }
}

/** What a reader sees: the rendered HTML without its tags, entities decoded. */
function shownText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function assertInert(text: string, mark?: string): void {
  const { tokens, html, references } = render(text);
  const raw = [...flat(tokens)].filter(t => t.type === 'html_block' || t.type === 'html_inline' || t.type === 'image');
  assert.deepEqual(
    raw.map(t => `${t.type}: ${t.content}`),
    [],
    `server text made raw HTML or an image: ${JSON.stringify(text)}`,
  );
  assert.equal(references, 0, `server text made a link reference definition: ${JSON.stringify(text)}`);
  if (mark !== undefined) {
    const shown = shownText(html);
    assert.equal(shown.split(mark).length - 1, expectedCount(text, mark), `${mark} is not shown in ${shown}`);
  }
}

test('the code span that crosses a line break hides nothing and opens no HTML', () => {
  assertInert('x`\n` <!-- HIDDEN-1 -->`', 'HIDDEN-1');
  assertInert('a `b\n` <img src="https://evil.example/p.png"> `');
  assertInert('start ``x\n` <!-- ``\nHIDDEN-2 -->', 'HIDDEN-2');
  assertInert('x`\r` <!-- HIDDEN-3 -->`', 'HIDDEN-3');
});

test('a linked bare URL takes no escape away: its <img> stays text', () => {
  assertInert('https://evil.example/\\<img src="https://evil.example/u.png"> HIDDEN-11', 'HIDDEN-11');
  assertInert('https://evil.example/a`<img src="https://evil.example/v.png">`');
  assertInert('https://evil.example/\\![p](https://evil.example/w.png)');
});

test('a table cell cuts a code span: its <img> stays text', () => {
  assertInert('a | b\n--|--\n`x | <img src="https://evil.example/c.png"> ` | y');
  assertInert('a | b\n--|--\n`x | <!-- HIDDEN-4 --> ` | y', 'HIDDEN-4');
});

test('a fence that a list item ends, or that \\r closes, hides nothing after it', () => {
  assertInert('- a\n\n   ```\n   x\n- b\n<!-- HIDDEN-5 -->', 'HIDDEN-5');
  assertInert('```\nx\n```\r<!-- HIDDEN-6 -->', 'HIDDEN-6');
  assertInert('> ```\n<!-- HIDDEN-7 -->', 'HIDDEN-7');
});

test('no markdown image and no link reference definition from server text', () => {
  assertInert('![pixel](https://evil.example/p.png) HIDDEN-8', 'HIDDEN-8');
  assertInert('[x]: https://evil.example "HIDDEN-9"', 'HIDDEN-9');
  assertInert('[multi\nline]: https://evil.example\nHIDDEN-10', 'HIDDEN-10');
});

test('the hostile fixture text is shown whole', async () => {
  const file = pathToFileURL(path.join(process.cwd(), 'test', 'fixtures', 'lib', 'hostile-text.mjs')).href;
  const hostile = (await import(file)) as {
    hiddenText(url?: string): string;
    HIDDEN_MARK: string;
    VISIBLE_END: string;
  };
  assertInert(hostile.hiddenText(), hostile.HIDDEN_MARK);
  assertInert(hostile.hiddenText(), hostile.VISIBLE_END);
});

test('markdown stays markdown: emphasis, links, spans and fences render as such', () => {
  const { tokens } = render('**bold** `<div>` [a](https://example.com)\n\n```html\n<p>code</p>\n```');
  const types = new Set([...flat(tokens)].map(t => t.type));
  for (const type of ['strong_open', 'code_inline', 'link_open', 'fence']) assert.ok(types.has(type), type);
  assert.equal(textToMarkdown('use `div` here'), 'use `div` here');
  // A span holding `<` shows as text, backticks included: nothing in it can become HTML.
  assert.equal(textToMarkdown('use `<div>` here'), 'use \\`&lt;div\\>\\` here');
});

/** Fragments a hostile text is made of; `zq` is the word that must stay visible. */
const FRAGMENTS = [
  '`',
  '``',
  '```',
  '~~~',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  ' ',
  '    ',
  '> ',
  '- ',
  '1. ',
  '# ',
  '|',
  '--|--',
  '\\',
  '!',
  '[',
  ']',
  ':',
  '(',
  ')',
  'https://e.example/',
  '<',
  '>',
  '-->',
  '<!--',
  '<img src=https://e.example/p.png>',
  '<http://e.example>',
  '&lt;',
  '&#60;',
  '&',
  '![i](https://e.example/i.png)',
  '[r]: https://e.example',
  '<div>',
  '</div>',
  '<?',
  '<![CDATA[',
  'a',
  'zq',
];

/** A small deterministic generator (mulberry32), so a failure names a case that can be run again. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('fuzz: 4,000 texts of backticks, fences, line breaks, pipes, <, -->, <img, entities', () => {
  const next = generator(22);
  for (let n = 0; n < 4000; n++) {
    const length = 1 + Math.floor(next() * 24);
    let text = '';
    for (let i = 0; i < length; i++) text += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
    const { tokens, html, references } = render(text);
    const raw = [...flat(tokens)].filter(
      t => t.type === 'html_block' || t.type === 'html_inline' || t.type === 'image',
    );
    assert.deepEqual(
      raw.map(t => t.type),
      [],
      `case ${n}: ${JSON.stringify(text)}`,
    );
    assert.equal(references, 0, `case ${n}: ${JSON.stringify(text)}`);
    // A one-word info string of a fence is its language: the one place a word is not shown as text.
    const languages = [...flat(tokens)].filter(t => t.type === 'fence' && t.info.includes('zq')).length;
    assert.equal(
      shownText(html).split('zq').length - 1 + languages,
      expectedCount(text, 'zq'),
      `case ${n}: a word is hidden in ${JSON.stringify(text)}`,
    );
  }
});

test('server text with CRLF line endings: its fence is one code block and what follows is shown, in the transcript markdown (Open as Document, Copy as Markdown, .prompt.md)', () => {
  const t: Transcript = {
    description: 'made on\r\nWindows',
    messages: [
      {
        role: 'user',
        parts: [
          { kind: 'text', text: '```\r\ncode\r\n```\r\nAFTER-1 text\r\n\r\n- item\r\n' },
          { kind: 'text', text: '```ts\r\nlet a = 1;\r\n```\r\nAFTER-2' },
          {
            kind: 'resource',
            uri: 'file:///w/a.txt',
            mimeType: 'text/plain',
            text: 'r1\r\n```\r\nr2',
            bytes: 12,
            fileName: 'a.txt',
          },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'text', text: 'AFTER-3\r\n' }] },
    ],
  };
  const markdown = transcriptToMarkdown(t, { labels: LABELS });
  assert.equal(markdown.includes('\r'), false, `a CR in ${JSON.stringify(markdown)}`);
  const tokens = [...flat(md.parse(markdown, {}))];
  assert.deepEqual(
    tokens.filter(k => k.type === 'fence').map(k => [k.info, k.content]),
    [
      ['', 'code\n'],
      ['ts', 'let a = 1;\n'],
      ['', 'r1\n```\nr2\n'],
    ],
  );
  const inline = tokens.filter(k => k.type === 'text').map(k => k.content);
  for (const word of ['made on Windows', 'AFTER-1 text', 'item', 'AFTER-2', 'AFTER-3'])
    assert.ok(inline.includes(word), `${word} is not text of its own in ${JSON.stringify(inline)}`);
  assert.equal(tokens.filter(k => k.type === 'heading_open').length, 2, 'both roles keep their headings');
});

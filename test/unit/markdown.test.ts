// Markdown built from server strings: HTML shows as text, code stays code, names stay on one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeSpan, escapeLabel, textToMarkdown } from '../../src/core/render/markdown';
import { stringifyIteratively, stringifyJson } from '../../src/core/json';
import { mixedScripts } from '../../src/core/catalog/scripts';
import { assignShortNames } from '../../src/core/catalog/name-index';

test('textToMarkdown: HTML and entities outside code are inert; fenced code and code spans are left alone', () => {
  assert.equal(textToMarkdown('<!-- hidden\nafter'), '&lt;!-- hidden\nafter');
  assert.equal(textToMarkdown('a <img src=x onerror=alert(1)> &lt; b'), 'a &lt;img src=x onerror=alert(1)> &amp;lt; b');
  assert.equal(textToMarkdown('use `div()` here, not <div>'), 'use `div()` here, not &lt;div>');
  // An escaped backtick opens no span: what follows is inert, and the lone backtick at the end, which
  // nothing can close, stays as it is; one a later line could close is escaped.
  assert.equal(textToMarkdown('\\`<!-- x`'), '\\`&lt;!-- x`');
  assert.equal(textToMarkdown('a `b\nc ` <x>'), 'a \\`b\nc ` &lt;x>');
  assert.equal(
    textToMarkdown('```html\n<!-- kept -->\n```\n<!-- not kept'),
    '```html\n<!-- kept -->\n```\n&lt;!-- not kept',
  );
  // A fence the text leaves open is closed, so it cannot swallow the parts after it.
  assert.equal(textToMarkdown('~~~~\ncode'), '~~~~\ncode\n~~~~');
  // "``` a`b" is no fence (backtick in the info string): its line is text, the run at its start escaped.
  assert.equal(textToMarkdown('``` a`b <x>'), '\\`\\`\\` a`b &lt;x>');
  // An indented fence (a list item may hold and end it) or one with more than a language is text too.
  assert.equal(textToMarkdown('  ~~~\n<x>'), '  \\~~~\n&lt;x>');
  assert.equal(textToMarkdown('~~~ js hidden words\n<x>'), '\\~~~ js hidden words\n&lt;x>');
  // No image, no link reference definition.
  assert.equal(textToMarkdown('![a](https://e.example/p.png)'), '&#33;[a](https://e.example/p.png)');
  assert.equal(textToMarkdown('[r]: https://e.example'), '[r]\\: https://e.example');
});

test('codeSpan: any text as one inline code span on one line', () => {
  assert.equal(codeSpan('/s.p x'), '`/s.p x`');
  assert.equal(codeSpan('x`\n### Fake\n[a](b)'), '``x` ### Fake [a](b)``');
  assert.equal(codeSpan('`x'), '`` `x ``');
});

test('stringifyJson: JSON.stringify text for ordinary data; any depth without throwing', () => {
  const sample = { a: [1, 'two', null, true, { b: [], c: {}, d: undefined }], 'e"f': -0.5, g: [undefined] };
  for (const indent of [0, 2]) assert.equal(stringifyIteratively(sample, indent), JSON.stringify(sample, null, indent));
  const deep = JSON.parse('['.repeat(200000) + ']'.repeat(200000)) as unknown[];
  assert.throws(() => JSON.stringify(deep), RangeError);
  const text = stringifyJson(deep, 2);
  assert.equal(text.replace(/\s/g, ''), '['.repeat(200000) + ']'.repeat(200000));
});

test('mixedScripts: Latin with Cyrillic or Greek is marked; one script and CJK combinations are not', () => {
  assert.deepEqual(mixedScripts('p\u0430ypal'), ['Latin', 'Cyrillic']);
  assert.deepEqual(mixedScripts('\u03bfpen_file'), ['Greek', 'Latin']);
  for (const name of ['deploy', 'развернуть', 'review_コード_確認', '코드_review', 'build-2', 'x.y:z'])
    assert.equal(mixedScripts(name), undefined, name);
});

test('assignShortNames: distinct, typeable, stable whatever the order and across re-lists', () => {
  const first = assignShortNames(['a/b', 'a_b', 'a b', 'a_b-2x']);
  assert.deepEqual(Object.fromEntries(first), { a_b: 'a_b', 'a b': 'a_b-2', 'a/b': 'a_b-3', 'a_b-2x': 'a_b-2x' });
  assert.deepEqual(Object.fromEntries(assignShortNames(['a b', 'a/b', 'a_b'])), {
    a_b: 'a_b',
    'a b': 'a_b-2',
    'a/b': 'a_b-3',
  });
  // "a b" goes away: "a/b" keeps its -3 rather than taking over -2.
  assert.deepEqual(Object.fromEntries(assignShortNames(['a/b', 'a_b'], first)), { a_b: 'a_b', 'a/b': 'a_b-3' });
});

test('escapeLabel: no terminal or bidi controls in a label', () => {
  assert.equal(escapeLabel('line one\n  s.forged\u001b[2J\u009b31m\u202eend'), 'line one s.forged \\[2J 31m end');
  assert.equal(escapeLabel('$(error) [x](command:y)'), '$\u200b(error) \\[x\\]\u200b(command:y)');
});

/**
 * How many times longer `work` takes than `plain`: the fastest of seven runs of each, taken in turns, so
 * a busy spell of the machine slows both alike and one slow run says nothing.
 */
function timeRatio(work: () => unknown, plain: () => unknown): number {
  const best = [Infinity, Infinity];
  for (let i = 0; i < 14; i++) {
    const start = performance.now();
    (i % 2 ? plain : work)();
    best[i % 2] = Math.min(best[i % 2], performance.now() - start);
  }
  return best[0] / Math.max(0.5, best[1]);
}

/** One line of backtick runs, each one shorter than the one before: none pairs, each used to scan the rest. */
function shrinkingRuns(chars: number): string {
  const runs: string[] = [];
  let length = 0;
  for (let n = Math.ceil(Math.sqrt(2 * chars)); length < chars && n > 0; n--) {
    runs.push(`${'`'.repeat(n)}x`);
    length += n + 1;
  }
  return runs.join('').slice(0, chars);
}

test('markdown of a hostile line costs what a plain line of the same size costs (within a small factor)', () => {
  // Plain text of the same lines: words, as long as each line.
  const words = (chars: number) => 'Plain words of a line of text. '.repeat(chars / 31 + 1).slice(0, chars);
  const plain = (text: string) =>
    text
      .split('\n')
      .map(line => words(line.length))
      .join('\n');
  // 2 MB of shrinking runs took 8.4× the time of plain text (it grew as size^1.5); 40 lines of a fence
  // opener followed by 10,000 blanks and a letter, 287× (each line grew as size^2).
  const hostile = [shrinkingRuns(2_000_000), `\`\`\`${' '.repeat(10_000)}!\n`.repeat(40)];
  for (const text of hostile) {
    const same = plain(text);
    const ratio = timeRatio(
      () => textToMarkdown(text),
      () => textToMarkdown(same),
    );
    assert.ok(ratio < 3, `${ratio.toFixed(1)}× the time of plain text of ${text.length} characters`);
  }
  // What it makes is what the pairing rule says: no span formed; the run that could open a fence is
  // escaped, the runs nothing can close stay as they are (escaped, each cost a renderer 25 times more).
  assert.equal(textToMarkdown('```x``x`x'), '\\`\\`\\`x``x`x');
  assert.equal(textToMarkdown('> - ```js hidden\nx'), '> - \\`\\`\\`js hidden\nx');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindArguments, parseInvocation, tokenize } from '../../src/core/invocation';

const args = [
  { name: 'code', required: true },
  { name: 'language', required: false },
];

test('parses names, named and quoted values', () => {
  const p = parseInvocation('/rich.code_review language=python code="print(\\"hi\\")  x" extra \'single q\'')!;
  assert.equal(p.name, 'rich.code_review');
  assert.deepEqual(p.named, { language: 'python', code: 'print("hi")  x' });
  assert.deepEqual(p.positional.map(t => t.value), ['extra', 'single q']);
  assert.equal(parseInvocation('   '), undefined);
});

test('named values bind by name, positional ones in argument order', () => {
  const b = bindArguments(args, parseInvocation('x.y language=rust fn main')!);
  assert.deepEqual(b.values, { language: 'rust', code: 'fn main' });
  assert.deepEqual(b.missing, []);
  const c = bindArguments(args, parseInvocation('x.y snippet rust')!);
  assert.deepEqual(c.values, { code: 'snippet', language: 'rust' });
});

test('the last argument takes the rest of the line verbatim', () => {
  const b = bindArguments([{ name: 'code', required: true }], parseInvocation('review def f():   return "x"')!);
  assert.deepEqual(b.values, { code: 'def f():   return "x"' });
});

test('a single quoted positional value is unquoted', () => {
  const b = bindArguments([{ name: 'city', required: true }], parseInvocation('weather "New York"')!);
  assert.deepEqual(b.values, { city: 'New York' });
});

test('reports missing required and unknown named arguments', () => {
  const b = bindArguments(args, parseInvocation('x.y language=go colour=red')!);
  assert.deepEqual(b.missing.map(a => a.name), ['code']);
  assert.deepEqual(b.unknown, ['colour']);
  const none = bindArguments([], parseInvocation('x.y stray')!);
  assert.deepEqual(none.unknown, ['stray']);
});

test('any whitespace separates words, including tabs and the full-width space of CJK input', () => {
  const p = parseInvocation('x.y\tlanguage=日本語\u3000コード\u00a0"a b"\ntail')!;
  assert.deepEqual(p.named, { language: '日本語' });
  assert.deepEqual(p.positional.map(t => t.value), ['コード', 'a b', 'tail']);
  assert.deepEqual(parseInvocation('x.y code="a\\\\b"')!.named, { code: 'a\\b' });
});

/** The tokenizer's rules, one character at a time: the regex in tokenize() must agree with this. */
function referenceTokenize(text: string): Array<{ raw: string; start: number; quoted: boolean }> {
  const out = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    const start = i;
    let quote: string | undefined;
    while (i < text.length) {
      const c = text[i];
      if (quote) {
        if (c === '\\' && quote === '"' && i + 1 < text.length) { i += 2; continue; }
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (/\s/.test(c)) break;
      i++;
    }
    const raw = text.slice(start, i);
    out.push({ raw, start, quoted: raw[0] === '"' || raw[0] === "'" });
  }
  return out;
}

test('tokenize agrees with the per-character rules on 20,000 generated lines (quotes, escapes, unclosed quotes)', () => {
  const alphabet = ['a', 'x', ' ', '\t', '\n', '\u3000', '"', "'", '\\', '=', 'é'];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 20000; n++) {
    let line = '';
    for (let len = Math.floor(next() * 14); len > 0; len--) line += alphabet[Math.floor(next() * alphabet.length)];
    assert.deepEqual(tokenize(line), referenceTokenize(line), JSON.stringify(line));
  }
});

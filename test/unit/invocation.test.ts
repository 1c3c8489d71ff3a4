import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindArguments, formatInvocation, parseInvocation, tokenize } from '../../src/core/run/invocation';
import { generator } from './seeded-random';

const args = [
  { name: 'code', required: true },
  { name: 'language', required: false },
];

test('parses names, named and quoted values', () => {
  const p = parseInvocation('/rich.code_review language=python code="print(\\"hi\\")  x" extra \'single q\'')!;
  assert.equal(p.name, 'rich.code_review');
  assert.deepEqual(p.named, { language: 'python', code: 'print("hi")  x' });
  assert.deepEqual(
    p.positional.map(t => t.value),
    ['extra', 'single q'],
  );
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
  assert.deepEqual(
    b.missing.map(a => a.name),
    ['code'],
  );
  assert.deepEqual(b.unknown, ['colour']);
  const none = bindArguments([], parseInvocation('x.y stray')!);
  assert.deepEqual(none.unknown, ['stray']);
});

test('any whitespace separates words, including tabs and the full-width space of CJK input', () => {
  const p = parseInvocation('x.y\tlanguage=日本語\u3000コード\u00a0"a b"\ntail')!;
  assert.deepEqual(p.named, { language: '日本語' });
  assert.deepEqual(
    p.positional.map(t => t.value),
    ['コード', 'a b', 'tail'],
  );
  // A backslash is literal unless it ends at a quote: `a\\b` keeps both, `a\\\\"` is one backslash.
  assert.deepEqual(parseInvocation('x.y code="a\\\\b" q="say \\"hi\\"" end="dir\\\\"')!.named, {
    code: 'a\\\\b',
    q: 'say "hi"',
    end: 'dir\\',
  });
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
        if (c === '\\' && quote === '"' && i + 1 < text.length) {
          i += 2;
          continue;
        }
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

test('a quoted backslash-n stays a backslash and an n (Windows paths), and names in any script stay named', () => {
  const p = parseInvocation('x.echo path="C:\\new folder" größe=10 имя=да 名前=値 नाम=x')!;
  assert.deepEqual(p.named, { path: 'C:\\new folder', größe: '10', имя: 'да', 名前: '値', नाम: 'x' });
  assert.deepEqual(p.positional, []);
  assert.equal(
    formatInvocation('x.echo', { path: 'C:\\new folder', größe: '10' }),
    'x.echo path="C:\\new folder" größe=10',
  );
  // Math stays positional; a name no bare word can hold is written in quotes.
  assert.deepEqual(
    parseInvocation('x.calc 1+1=2')!.positional.map(t => t.value),
    ['1+1=2'],
  );
  assert.equal(formatInvocation('x.y', { 'my name': 'a b', '': '' }), 'x.y "my name"="a b" ""=""');
});

// Characters that have meaning to the parser, whitespace of every kind, and letters, marks and digits
// of many scripts (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, CJK, Hangul, emoji).
const PARSER_CHARS = [
  '"',
  "'",
  '\\',
  '=',
  '/',
  '.',
  '-',
  '_',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u3000',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u200d',
  '*',
  '$',
  '{',
  '}',
];
const SCRIPT_CHARS = [...'aZz09éßøÆαΩжЯبשनाथ่中文日本語한글ｱ１', '\u0301', '😀', '👩‍💻'];

function randomString(next: () => number, maxLength: number, pools: string[][]): string {
  let out = '';
  for (let n = Math.floor(next() * (maxLength + 1)); n > 0; n--) {
    const pool = pools[Math.floor(next() * pools.length)];
    out += pool[Math.floor(next() * pool.length)];
  }
  return out;
}

test('formatInvocation and parseInvocation round-trip 20,000 generated names and values', () => {
  const next = generator(13);
  for (let n = 0; n < 20000; n++) {
    const generated: Record<string, string> = {};
    for (let k = Math.floor(next() * 4); k > 0; k--) {
      // Names: mostly words of some script, sometimes anything at all.
      const name =
        next() < 0.7
          ? randomString(next, 8, [SCRIPT_CHARS]) || 'n'
          : randomString(next, 6, [PARSER_CHARS, SCRIPT_CHARS]);
      generated[name] = randomString(next, 12, [PARSER_CHARS, SCRIPT_CHARS, ['\\', '"']]);
    }
    const line = formatInvocation('srv.prompt', generated);
    const parsed = parseInvocation(line)!;
    assert.equal(parsed.name, 'srv.prompt', line);
    assert.deepEqual(
      { named: parsed.named, positional: parsed.positional },
      { named: generated, positional: [] },
      JSON.stringify(line),
    );
    // Bound to the prompt's declared arguments, as a re-run does, every value lands on its own name.
    const declared = Object.keys(generated).map(name => ({ name, required: true }));
    assert.deepEqual(
      bindArguments(declared, parsed),
      { values: generated, missing: declared.filter(a => !generated[a.name]), unknown: [] },
      JSON.stringify(line),
    );
  }
});

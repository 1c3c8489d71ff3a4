// The cmd.exe line that runs a batch launcher (npx.cmd, uvx.cmd) on Windows: what cross-spawn's escaping
// lost (node-cross-spawn#171, "BatBadBut") reaches the program as written. cmd.exe itself does not run
// here; the line is checked against the rules both readers apply: cmd.exe's (an unquoted `& | < > ^ ( )`
// is an operator; `%NAME%` is replaced) and the program's argument parser (Microsoft's C runtime, which
// Node and Python use on Windows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchCommandLine, isNetworkFolder } from '../../src/core/config/batch-line';
import { generator } from './seeded-random';

const NPX = 'C:\\Program Files\\nodejs\\npx.cmd';

test('the line for hostile arguments: every argument quoted, inner quotes doubled, % made inert', () => {
  const line = (...args: string[]) => batchCommandLine(NPX, args);
  // `"` then `&`: cross-spawn's escaping ran `calc` as a second command.
  assert.equal(line('a" & calc & "b'), '"C:\\Program Files\\nodejs\\npx.cmd" "a"" & calc & ""b"');
  // JSON whose `&` was cut, a `^` that was eaten, `%PATH%` that was replaced, `!` of delayed expansion.
  assert.equal(line('{"q":"a&b"}'), `"${NPX}" "{""q"":""a&b""}"`);
  assert.equal(line('^caret', '%PATH%', '!x!'), `"${NPX}" "^caret" "%%cd:~,%PATH%%cd:~,%" "!x!"`);
  // Backslashes before a quote and at the end are doubled, so they stay backslashes.
  assert.equal(line('C:\\dir\\', 'a\\"b', ''), `"${NPX}" "C:\\dir\\\\" "a\\\\""b" ""`);
  assert.equal(line('-y', '@scope/pkg@1.0'), `"${NPX}" "-y" "@scope/pkg@1.0"`);
});

test('a line break or NUL cannot be passed to a batch file: refused, naming the argument', () => {
  for (const [args, index] of [
    [['ok', 'two\nlines'], 2],
    [['carriage\r'], 1],
    [['a', 'b', 'nul\0'], 3],
  ] as const)
    assert.throws(() => batchCommandLine(NPX, args), { code: 'BATCH_ARGUMENT', index });
});

test('20,000 generated arguments reach the program exactly, with no operator outside quotes and no %NAME% left', () => {
  const random = generator(7);
  const alphabet = [
    'a',
    'Z',
    '1',
    ' ',
    '\t',
    '"',
    '\\',
    '&',
    '|',
    '<',
    '>',
    '^',
    '(',
    ')',
    '%',
    '!',
    '=',
    ',',
    ';',
    'ü',
    '日',
  ];
  for (let i = 0; i < 20000; i++) {
    const args = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      Array.from({ length: Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    );
    const line = batchCommandLine(NPX, args);
    const context = JSON.stringify(args);
    assert.equal(unquotedOperator(line), undefined, context);
    // cmd.exe's percent pass: `%%cd:~,%` gives `%` and an empty part of %cd%; any other `%` could form `%NAME%`.
    const rest = line.split('%%cd:~,%');
    assert.ok(!rest.some(part => part.includes('%')), context);
    assert.deepEqual(programArgs(rest.join('%')), [NPX, ...args], context);
  }
});

test('UNC and \\\\wsl.localhost folders are network folders; drive folders are not', () => {
  assert.equal(isNetworkFolder('\\\\wsl.localhost\\Ubuntu\\home\\u'), true);
  assert.equal(isNetworkFolder('\\\\server\\share'), true);
  assert.equal(isNetworkFolder('//server/share'), true);
  assert.equal(isNetworkFolder('C:\\Users\\u'), false);
  assert.equal(isNetworkFolder('\\Users\\u'), false);
});

/** An `& | < > ^ ( )` that cmd.exe would read as an operator: outside its quotes (every `"` toggles them). */
function unquotedOperator(line: string): string | undefined {
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && '&|<>^()'.includes(ch)) return ch;
  }
  return undefined;
}

/** The arguments Microsoft's C runtime (2008 and later) reads from a command line. */
function programArgs(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    for (; i < line.length; i++) {
      const ch = line[i];
      if (!quoted && (ch === ' ' || ch === '\t')) break;
      if (ch === '\\') {
        let n = 0;
        for (; line[i] === '\\'; i++) n++;
        if (line[i] === '"') {
          arg += '\\'.repeat(n >> 1);
          if (n % 2) {
            arg += '"';
            continue;
          }
        } else arg += '\\'.repeat(n);
        i--;
        continue;
      }
      if (ch !== '"') arg += ch;
      else if (quoted && line[i + 1] === '"') {
        arg += '"';
        i++;
      } else quoted = !quoted;
    }
    out.push(arg);
  }
  return out;
}

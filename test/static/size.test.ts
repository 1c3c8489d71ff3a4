// A file past 500 lines or a function past 80 holds two jobs: src/ keeps under both, so a newcomer can
// read any one piece in a sitting. Functions are found with the TypeScript parser (bodies only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root, sources } from './sources';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

/** Each function-like with a body in `text` that spans more than `max` lines, as "name (N lines, line L)". */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const name = node.name ? node.name.getText(source) : '(anonymous)';
      if (last - first + 1 > max) found.push(`${name} (${last - first + 1} lines, line ${first + 1})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sources(path.join(root, 'src'));

/** Lines as an editor numbers them: a final line break ends the last line, it starts none. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

test(`no file in src/ is longer than ${MAX_FILE_LINES} lines`, () => {
  const long = files
    .map(f => ({ f, lines: lineCount(fs.readFileSync(f, 'utf8')) }))
    .filter(x => x.lines > MAX_FILE_LINES)
    .map(x => `${path.relative(root, x.f)}: ${x.lines} lines`);
  assert.deepEqual(long, []);
});

test(`no function in src/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const long = files.flatMap(f =>
    longFunctions(f, fs.readFileSync(f, 'utf8')).map(d => `${path.relative(root, f)}: ${d}`),
  );
  assert.deepEqual(long, []);
});

test('the function check counts a body across its lines, arrow functions and methods too', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `function short() {\n${body(10)}\n}`,
    `function long() {\n${body(90)}\n}`,
    `const arrow = () => {\n${body(85)}\n};`,
    `class C {\n  method() {\n${body(81)}\n  }\n}`,
  ].join('\n');
  assert.deepEqual(
    longFunctions('x.ts', text).map(d => d.replace(/ \(.*/, '')),
    ['long', '(anonymous)', 'method'],
  );
});

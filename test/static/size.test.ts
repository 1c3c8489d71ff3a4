// A file past 450 lines, a function past 60 or a folder of more than 16 files holds two jobs: src/ keeps
// under all three, so a newcomer can read any one piece in a sitting and name what a folder holds.
// Functions are found with the TypeScript parser (bodies only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root, sources } from './sources';

const MAX_FILE_LINES = 450;
const MAX_FUNCTION_LINES = 60;
const MAX_FOLDER_FILES = 16;

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

test(`no folder in src/ holds more than ${MAX_FOLDER_FILES} source files of its own`, () => {
  const perFolder = new Map<string, number>();
  for (const f of files) perFolder.set(path.dirname(f), (perFolder.get(path.dirname(f)) ?? 0) + 1);
  assert.ok(perFolder.size > 5, 'the folders of src/ were read');
  const crowded = [...perFolder]
    .filter(([, n]) => n > MAX_FOLDER_FILES)
    .map(([dir, n]) => `${path.relative(root, dir)}: ${n} files`);
  assert.deepEqual(crowded, []);
});

test('the function check counts a body across its lines, arrow functions and methods too', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `function short() {\n${body(10)}\n}`,
    `function long() {\n${body(70)}\n}`,
    `const arrow = () => {\n${body(65)}\n};`,
    `class C {\n  method() {\n${body(60)}\n  }\n}`,
  ].join('\n');
  assert.deepEqual(
    longFunctions('x.ts', text).map(d => d.replace(/ \(.*/, '')),
    ['long', '(anonymous)', 'method'],
  );
});

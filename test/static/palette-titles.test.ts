// Every palette command's title, typed in full (with or without its trailing "…"), must put that
// command first in VS Code's command palette, in every language we ship. The palette keeps the rows
// that contain the typed text or match it word by word, and orders them alphabetically (after the
// ones run recently). This is that rule, read from VS Code 1.139's workbench (matchesWords and the
// commands quick access sort); flow.e2e.js types the English titles into the real palette.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const isSeparator = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || '()[]{}<>`\'"-/;:,.?!'.includes(String.fromCharCode(c));
const normalize = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const same = (a: number, b: number) => a === b || (isSeparator(a) && isSeparator(b));
function nextWord(t: string, i: number): number {
  for (let e = i; e < t.length; e++)
    if (isSeparator(t.charCodeAt(e)) || (e > 0 && isSeparator(t.charCodeAt(e - 1)))) return e;
  return t.length;
}
function wordsFrom(q: string, t: string, i: number, j: number): boolean {
  if (i === q.length) return true;
  if (j === t.length || !same(q.charCodeAt(i), t.charCodeAt(j))) return false;
  if (wordsFrom(q, t, i + 1, j + 1)) return true;
  for (let c = nextWord(t, j + 1); c < t.length; c = nextWord(t, c + 1)) if (wordsFrom(q, t, i + 1, c)) return true;
  return false;
}
function matches(query: string, label: string): boolean {
  const q = normalize(query);
  const t = normalize(label);
  if (t.includes(q)) return true;
  for (let i = 0; i < t.length; i = nextWord(t, i + 1)) if (wordsFrom(q, t, 0, i)) return true;
  return false;
}

/** The parts of package.json this test reads. */
interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string }>;
    menus: { commandPalette: Array<{ command: string; when: string }> };
  };
}

test('a palette title typed in full selects its own command, in every language', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  const hidden = new Set(pkg.contributes.menus.commandPalette.filter(m => m.when === 'false').map(m => m.command));
  const problems: string[] = [];
  for (const lang of ['', '.de', '.ja', '.zh-cn']) {
    const nls = JSON.parse(fs.readFileSync(path.join(root, `package.nls${lang}.json`), 'utf8')) as Record<
      string,
      string
    >;
    const labels = pkg.contributes.commands
      .filter(c => !hidden.has(c.command))
      .map(c => `${nls.category}: ${nls[c.title.slice(1, -1)]}`);
    for (const label of labels) {
      for (const typed of new Set([label, label.replace(/…$/, '')])) {
        const first = labels.filter(l => matches(typed, l)).sort((a, b) => a.localeCompare(b))[0];
        if (first !== label) problems.push(`package.nls${lang}.json: typing "${typed}" selects "${first}"`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

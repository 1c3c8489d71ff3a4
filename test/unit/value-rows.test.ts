// The argument step's rows (src/core/view/value-rows.ts) as the window shows them: VS Code filters the
// list it holds by label on each keystroke, and our list for that keystroke (and each server answer)
// replaces it a round trip later. No row the window shows may move when our list arrives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValueRows, filterShows, type ValueRow } from '../../src/core/view/value-rows';
import { suggestions } from '../../src/core/view/suggestions';

const FIXED: ValueRow[] = [
  { label: '$(selection) Selected text', source: 'selection' },
  { label: '$(file) Pick a file…', source: 'pickFile' },
  { label: '$(terminal) Output of a command…', source: 'command' },
];
const WORDS = ['python', 'pytorch', 'typescript', 'tyrant', 'elastic', 'swift', 'kettle'];

/** What the window shows for `typed` with `items`: labels in order (icons are not filtered on). */
function onScreen(items: readonly ValueRow[], typed: string): string[] {
  const text = (l: string) => l.replace(/\$\([^)]*\)\s*/g, '');
  return items.filter(i => i.alwaysShow || filterShows(text(i.label), typed)).map(i => i.label);
}

const box = (typed: string): ValueRow => ({ label: typed || 'Type a value' });
/** The server's answer for `prefix` (prefix matches, as most servers and the flow fixture answer). */
const answer = (prefix: string) => ({ prefix, values: WORDS.filter(w => w.startsWith(prefix)) });
/** What the input passes for `typed` while the last answer is `last` (src/ui/argument-input.ts). */
const current = (typed: string, last: { prefix: string; values: string[] }) =>
  suggestions(typed, ['kettle'], last, 'flow');

test('after a keystroke, our list shows exactly what the window already shows (no row moves)', () => {
  const rows = new ValueRows(FIXED);
  let last = answer('');
  let items = rows.items(box(''), current('', last), '')!;
  for (const typed of ['t', 'ty', 'tyr', 'p', 'py', 'e', 'ke', '']) {
    const before = onScreen(items, typed).slice(1); // row 0's label is the typed text: it changes, in place
    items = rows.items(box(typed), current(typed, last), typed) ?? items;
    assert.deepEqual(onScreen(items, typed).slice(1), before, `typed "${typed}"`);
    // The server's answer for the text: prefix matches, all on screen already.
    last = answer(typed);
    const answered = rows.items(box(typed), current(typed, last), typed) ?? items;
    assert.deepEqual(onScreen(answered, typed).slice(1), before, `answer for "${typed}"`);
    items = answered;
  }
});

test('an index keeps its meaning: row 0 is the box, then the sources, then each value where it first came', () => {
  const rows = new ValueRows(FIXED);
  const first = rows.items(box(''), new Map([['tyrant', 's']]), '')!;
  const later = rows.items(box('e'), new Map([['elastic', 's']]), 'e')!;
  assert.equal(first[4].value, 'tyrant');
  assert.equal(later[4].value, 'tyrant');
  assert.equal(later[5].value, 'elastic');
  assert.deepEqual(
    later.slice(1, 4).map(r => r.source),
    ['selection', 'pickFile', 'command'],
  );
  assert.equal(later[0].value, undefined);
});

test('a suggestion the label filter would hide (a fuzzy match) is shown anyway', () => {
  const rows = new ValueRows();
  const items = rows.items(box('ts'), new Map([['typescript', 'suggestion']]), 'ts')!;
  assert.equal(items.find(i => i.value === 'typescript')?.alwaysShow, true);
  assert.deepEqual(onScreen(items, 'ts'), ['ts', 'typescript']);
});

test('nothing changed: no new list for the window', () => {
  const rows = new ValueRows(FIXED);
  assert.ok(rows.items(box('p'), current('p', answer('p')), 'p'));
  assert.equal(rows.items(box('p'), current('p', answer('p')), 'p'), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeNames } from '../../src/core/view/name-completion';

const NAMES = [
  'list',
  'help',
  'list_everything',
  'lint_issue_summary_text',
  'hostile.missing-content',
  'hello_planet',
  'hostile.html-comment',
];
const offered = (typed: string) => completeNames(typed, NAMES).map(i => NAMES[i]);

test('names are offered by prefix only, never by a loose (fuzzy) match', () => {
  assert.deepEqual(offered('li'), ['list', 'list_everything', 'lint_issue_summary_text']);
  assert.deepEqual(offered('lis'), ['list', 'list_everything']);
  // "hel" starts hello_planet and help; "lst" starts nothing, though VS Code's fuzzy filter would match it.
  assert.deepEqual(offered('hel'), ['help', 'hello_planet']);
  assert.deepEqual(offered('lst'), []);
  assert.deepEqual(offered('hostile.'), ['hostile.missing-content', 'hostile.html-comment']);
  assert.deepEqual(
    offered('LI'),
    ['list', 'list_everything', 'lint_issue_summary_text'],
    'case does not matter while typing',
  );
});

test('nothing is offered once the typed word is a name in full, even when longer names start with it', () => {
  assert.deepEqual(offered('list'), []);
  assert.deepEqual(offered('help'), []);
  assert.deepEqual(offered('hostile.html-comment'), []);
});

test('an empty word offers every name in order', () => {
  assert.deepEqual(offered(''), NAMES);
});

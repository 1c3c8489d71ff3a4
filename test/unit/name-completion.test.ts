// The names `@mcp /` offers: by prefix only, none once a name is typed in full, pinned and recent ones
// first, and at most a bound, marked incomplete when more start with what is typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SlashNames, slashNamesOf, type SlashName } from '../../src/core/view/name-completion';
import type { CatalogPrompt } from '../../src/core/catalog/catalog';
import type { CatalogSkill } from '../../src/core/catalog/skills';

const NAMES = [
  'list',
  'help',
  'list_everything',
  'lint_issue_summary_text',
  'hostile.missing-content',
  'hello_planet',
  'hostile.html-comment',
];
const index = new SlashNames(NAMES.map(name => ({ name })));
const offered = (typed: string) => index.complete(typed).names.map(n => n.name);

test('names are offered by prefix only, never by a loose (fuzzy) match', () => {
  assert.deepEqual(offered('li'), ['lint_issue_summary_text', 'list', 'list_everything']);
  assert.deepEqual(offered('lis'), ['list', 'list_everything']);
  // "hel" starts hello_planet and help; "lst" starts nothing, though VS Code's fuzzy filter would match it.
  assert.deepEqual(offered('hel'), ['hello_planet', 'help']);
  assert.deepEqual(offered('lst'), []);
  assert.deepEqual(offered('hostile.'), ['hostile.html-comment', 'hostile.missing-content']);
  assert.deepEqual(offered('LI'), offered('li'), 'case does not matter while typing');
});

test('nothing is offered once the typed word is a name in full, even when longer names start with it', () => {
  assert.deepEqual(offered('list'), []);
  assert.deepEqual(offered('help'), []);
  assert.deepEqual(offered('hostile.html-comment'), []);
});

test('an empty word offers every name (in name order), and the list is complete', () => {
  const all = index.complete('');
  assert.deepEqual(
    all.names.map(n => n.name),
    [...NAMES].sort(),
  );
  assert.equal(all.complete, true);
});

test('the preferred names (pinned, recent) come first, in their order, and only once', () => {
  const first: SlashName[] = [{ name: 'hostile.missing-content' }, { name: 'list_everything' }];
  const r = index.complete('', first);
  assert.deepEqual(
    r.names.slice(0, 2).map(n => n.name),
    ['hostile.missing-content', 'list_everything'],
  );
  assert.equal(r.preferred, 2);
  assert.equal(r.names.length, NAMES.length, 'no name twice');
  assert.deepEqual(
    index.complete('li', first).names.map(n => n.name),
    ['list_everything', 'lint_issue_summary_text', 'list'],
    'a preferred name that does not start with the word is left out',
  );
});

test('10,000 prompts: a bounded answer, marked incomplete while more names start with the word', () => {
  const prompts = Array.from({ length: 10_000 }, (_, i) => ({
    shortName: `p${i}`,
    invocationName: `s${i % 10}.p${i}`,
    unique: true,
  })) as CatalogPrompt[];
  const names = new SlashNames(slashNamesOf(prompts));
  const first = names.complete('', [], 200);
  assert.equal(first.names.length, 200);
  assert.equal(first.complete, false);
  const narrow = names.complete('s3.p99', [], 200);
  assert.deepEqual(
    narrow.names.map(n => n.name),
    ['s3.p9903', 's3.p9913', 's3.p9923', 's3.p993', ...[3, 4, 5, 6, 7, 8, 9].map(i => `s3.p99${i}3`)],
  );
  assert.equal(narrow.complete, true, 'every name that starts with s3.p99 is there: complete');
  const wide = names.complete('s1.', [], 200);
  assert.equal(wide.names.length, 200);
  assert.ok(wide.names.every(n => n.name.startsWith('s1.')));
  assert.equal(wide.complete, false, '1,000 names start with s1.');
  assert.deepEqual(names.complete('s3.p9993', [], 200).names, [], 'a name typed in full (server.prompt) gets no list');
  assert.deepEqual(names.complete('help', [], 200).names, [], "the participant's own words are names too");
});

test("a prompt named like one of the participant's words is reached as server.name only", () => {
  const prompts = [{ shortName: 'list', invocationName: 'a.list', unique: true }] as CatalogPrompt[];
  assert.deepEqual(
    slashNamesOf(prompts).map(n => n.name),
    ['list', 'help', 'a.list'],
  );
});

test('a skill is offered by its one name, with its server: server.name, or server.skill:name beside a prompt', () => {
  const server = { id: 'docs', prompts: [] as CatalogPrompt[] };
  const greet = { server, prompt: { name: 'greet' }, shortName: 'greet', invocationName: 'docs.greet', unique: true };
  server.prompts.push(greet as unknown as CatalogPrompt);
  const skill = (name: string) => ({ server, name }) as unknown as CatalogSkill;
  const names = new SlashNames(slashNamesOf(server.prompts, [skill('greet'), skill('pdf-forms')]));
  const typed = (t: string) => names.complete(t).names.map(n => `${n.name}${n.skill ? ' (skill)' : ''}`);
  assert.deepEqual(typed('docs.'), ['docs.greet', 'docs.pdf-forms (skill)', 'docs.skill:greet (skill)']);
  assert.deepEqual(typed('pdf'), [], 'never by its name alone');
  assert.deepEqual(typed('docs.pdf-forms'), [], 'typed in full: nothing to take');
});

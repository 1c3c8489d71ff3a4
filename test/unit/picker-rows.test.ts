// Run Prompt…'s rows (core/view/picker-rows.ts): pinned, then recently used (with the values they ran
// with), then every prompt by server; a query matched word by word against title, name, description,
// server and argument names; a bounded list with a row counting the rest; an open picker's rows that
// stay where they are when the catalog changes, the bound included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerEntry } from '../../src/core/catalog/catalog';
import { listedServer, untrustedServer } from './listed-server';
import { filterPickerRows, MAX_PICKER_ROWS, mergePickerRows, pickerRows } from '../../src/core/view/picker-rows';
import { fieldsOf } from './picker-row-fields';
import type { PromptGroups } from '../../src/core/view/prompt-groups';
import { toCatalogSkills } from '../../src/core/catalog/skills';

type Spec = { name: string; title?: string; description?: string; args?: string[] };

function server(name: string, specs: Spec[]): ServerEntry {
  return listedServer(
    name,
    specs.map(s => ({ ...s, arguments: (s.args ?? []).map(a => ({ name: a })) })),
  );
}

const none: PromptGroups = { pinned: [], recent: [], gone: [] };
const labels = (rows: { label: string }[]) => rows.map(r => r.label);

const demo = server('demo', [
  {
    name: 'code_review',
    title: 'Code review',
    description: 'Reviews a Python module for bugs',
    args: ['code', 'focus'],
  },
  { name: 'commit_message', title: 'Commit message', description: 'Writes a commit message', args: ['style'] },
]);
const team = server('team', [{ name: 'greet', title: 'Greet', description: 'Says hello', args: ['team', 'member'] }]);

test('"review python" finds a prompt by the words of its description; every word must match', () => {
  const rows = pickerRows([demo, team], none);
  assert.deepEqual(labels(filterPickerRows(rows, 'review python')), ['demo', 'Code review']);
  assert.deepEqual(labels(filterPickerRows(rows, 'PYTHON bugs')), ['demo', 'Code review'], 'case does not matter');
  assert.deepEqual(labels(filterPickerRows(rows, 'review java')), []);
  assert.deepEqual(labels(filterPickerRows(rows, 'member')), ['team', 'Greet'], 'an argument name');
  assert.deepEqual(labels(filterPickerRows(rows, 'team greet')), ['team', 'Greet'], 'the server and the name');
  assert.deepEqual(labels(filterPickerRows(rows, 'commit_message')), ['demo', 'Commit message'], 'the name');
});

test('pinned first, then recently used with the values it ran with (its button runs with them), then by server', () => {
  const greet = team.prompts[0];
  const rows = pickerRows([demo, team], {
    pinned: [{ prompt: demo.prompts[1] }],
    recent: [{ prompt: greet, args: { team: 'beta', member: 'bjarne' } }, { prompt: demo.prompts[0] }],
  });
  assert.deepEqual(labels(rows), [
    'pinned',
    'Commit message',
    'recently used',
    'Greet',
    'Code review',
    'demo',
    'Code review',
    'Commit message',
    'team',
    'Greet',
  ]);
  assert.equal(fieldsOf(rows[3]).description, '/greet team=beta member=bjarne');
  assert.deepEqual(fieldsOf(rows[3]).args, { team: 'beta', member: 'bjarne' });
  assert.equal(fieldsOf(rows[4]).args, undefined, 'a recent run without kept values runs as from its server');
  assert.equal(fieldsOf(rows[1]).pinned, true);
  assert.equal(fieldsOf(rows[7]).pinned, true, 'the pinned prompt says so under its server too (its button unpins)');
  assert.equal(new Set(rows.map(r => r.key)).size, rows.length, 'one key per row');
  assert.deepEqual(labels(filterPickerRows(rows, 'bjarne')), ['recently used', 'Greet'], 'the values are words too');
});

test('a pinned prompt of a held-back server is a row saying why', () => {
  const held = untrustedServer('repo');
  const rows = pickerRows([team], {
    pinned: [{ held, place: { scope: '/r', server: 'repo', prompt: 'deploy' } }],
    recent: [],
  });
  assert.equal(rows[1].label, '$(shield) deploy');
  assert.match(fieldsOf(rows[1]).description ?? '', /^repo — not started: workspace not trusted$/);
  assert.equal(fieldsOf(rows[1]).held, held);
  assert.equal(fieldsOf(rows[1]).prompt, undefined, 'nothing to run');
});

test('10,000 prompts: the list VS Code gets is bounded, and its last row counts the rest', () => {
  const big = server(
    'big',
    Array.from({ length: 10_000 }, (_, i) => ({ name: `p${i}`, title: `Prompt ${i}`, description: `Number ${i}` })),
  );
  const rows = pickerRows([big], none);
  const first = filterPickerRows(rows, '');
  assert.equal(first.length, MAX_PICKER_ROWS + 2, 'the server, the first prompts and the count');
  assert.match(first[MAX_PICKER_ROWS + 1].label, new RegExp(`${10_000 - MAX_PICKER_ROWS} more prompts`));
  assert.equal(first[MAX_PICKER_ROWS + 1].kind, 'more');
  assert.deepEqual(labels(filterPickerRows(rows, 'prompt 9876')), ['big', 'Prompt 9876']);
  assert.equal(pickerRows([big], none)[5], rows[5], 'rows are made once per listing, not per opening');
});

test('an open, bounded picker: a catalog change keeps every shown row where it is, and a row past the bound is not gone', () => {
  const big = server(
    'big',
    Array.from({ length: 50 }, (_, i) => ({ name: `p${i}` })),
  );
  const rows = pickerRows([big], none);
  const shown = filterPickerRows(rows, '', 10);
  const grown = server('big', [{ name: 'new' }, ...Array.from({ length: 50 }, (_, i) => ({ name: `p${i}` }))]);
  const merged = mergePickerRows(shown, filterPickerRows(pickerRows([grown], none), '', Infinity), 10);
  shown.slice(0, -1).forEach((row, i) => assert.equal(merged[i].key, row.key, `row ${i} moved`));
  assert.ok(!merged.some(r => fieldsOf(r).gone), 'nothing is marked gone');
  assert.match(merged[merged.length - 1].label, /41 more prompts/);
});

test('a skill is a row of its server, marked as a skill, found by its words; a dropped one stays, marked', () => {
  const docs = server('docs', [{ name: 'greet', title: 'Greet' }]);
  const skill = (name: string) => ({
    uri: `skill://${name}/SKILL.md`,
    frontmatter: { name, description: `Fills ${name} from a table` },
    resources: [{ uri: `skill://${name}/SKILL.md`, size: 10, digest: `sha256:${'a'.repeat(64)}` }],
  });
  docs.skills = toCatalogSkills(docs, [skill('pdf-forms'), skill('greet')], []);
  const rows = pickerRows([docs], none);
  assert.deepEqual(labels(rows), ['docs', 'Greet', '$(book) pdf-forms', '$(book) greet']);
  assert.deepEqual(
    rows.filter(r => fieldsOf(r).skill).map(r => fieldsOf(r).description),
    ['/docs.pdf-forms · skill', '/docs.skill:greet · skill'],
    'beside a prompt of its name a skill is server.skill:name',
  );
  assert.deepEqual(labels(filterPickerRows(rows, 'fills pdf')), ['docs', '$(book) pdf-forms'], 'by its description');
  assert.deepEqual(labels(filterPickerRows(rows, 'skill greet')), ['docs', '$(book) greet'], 'by the word skill');
  const shown = filterPickerRows(rows, '');
  docs.skills = docs.skills.slice(1);
  const merged = mergePickerRows(shown, pickerRows([docs], none));
  assert.deepEqual(labels(merged), ['docs', 'Greet', '$(book) pdf-forms (no longer offered)', '$(book) greet']);
  assert.equal(fieldsOf(merged[2]).gone, true);
});

// `mcp-prompts skills` and `mcp-prompts skill` as a user runs them (node dist/cli.js), on the servers of
// test/fixtures/skills.mjs over stdio: the list as text and JSON (a server without skills lists nothing
// and says nothing), one checked file on stdout, and a refused file as one stderr line naming the server
// and the file with exit 1 and nothing of it printed; an unknown skill or file: one line, exit 2.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, runCli, tempDir, type CliResult } from './helpers';

let dir: string;
let config: string;

before(async () => {
  const { skillsCommand } = await launch();
  dir = tempDir('mcp-prompts-cli-skills-');
  config = path.join(dir, 'mcp.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      servers: { docs: skillsCommand('catalog'), tricky: skillsCommand('tampered'), plain: skillsCommand('plain') },
    }),
  );
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli([...args, '--config', config]);

/** Exactly one stderr line, no stack trace, nothing on stdout. */
function assertOneLine(r: CliResult, code: number, line: string): void {
  assert.equal(r.code, code, `exit code (stderr: ${r.stderr})`);
  assert.equal(r.stderr, `mcp-prompts: ${line}\n`);
  assert.equal(r.stdout, '');
}

const REFUSALS = [
  'mcp-prompts: tricky: the skill "too-big" lists 17.0 MB of files, more than 16.0 MB; it is not offered',
  'mcp-prompts: tricky: the skill "dynamic-skill" does not list its files with digests ("dynamic"), so they cannot be checked; it is not offered',
];

test('skills --json: [{server, name, description, uri}] of every server that has any; none from plain, no error', async () => {
  const r = await cli('skills', '--json');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as { server: string; name: string; description: string; uri: string }[];
  assert.deepEqual(Object.keys(rows[0]), ['server', 'name', 'description', 'uri']);
  assert.deepEqual(rows[0], {
    server: 'docs',
    name: 'code-review',
    description: 'Review a change against the team checklist',
    uri: 'skill://code-review/SKILL.md',
  });
  assert.deepEqual(
    rows.map(s => `${s.server}.${s.name}`),
    [
      'docs.code-review',
      'docs.commit-message',
      'docs.greet',
      'docs.pdf-forms',
      'docs.release-notes',
      'tricky.digest-lie',
      'tricky.size-lie',
      'tricky.frontmatter-lie',
      'tricky.tampered-reference',
      'tricky.hidden-text',
      'tricky.outside',
    ],
  );
  // The skills a server lists out of bounds are named on stderr; plain says nothing.
  assert.deepEqual(r.stderr.trimEnd().split('\n'), REFUSALS);
});

test('skills: one line per skill, SERVER.NAME and its description', async () => {
  const r = await cli('skills');
  assert.equal(r.code, 0);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[3], 'docs.pdf-forms  — Fill in PDF forms from a table of values');
  assert.equal(lines.length, 11);
});

test('skill SERVER.NAME prints SKILL.md, checked; FILE prints that file; --json says which file it is', async () => {
  const skillMd = await cli('skill', 'docs.pdf-forms');
  assert.equal(skillMd.code, 0, skillMd.stderr);
  assert.match(skillMd.stdout, /^---\nname: pdf-forms\n[\s\S]*PDF-FORMS-SKILL-BODY\n$/);
  assert.equal(skillMd.stderr, '');
  const reference = await cli('skill', 'docs.pdf-forms', 'references/FORMS.md');
  assert.equal(reference.stdout, '# Form fields\n\nname, date, signature: FORMS-REFERENCE-TEXT\n');
  const json = await cli('skill', 'docs.skill:greet', '--json');
  assert.equal(json.code, 0, json.stderr);
  const out = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.deepEqual(
    { ...out, text: undefined },
    {
      server: 'docs',
      skill: 'greet',
      uri: 'skill://greet/SKILL.md',
      file: 'SKILL.md',
      size: Buffer.byteLength(out.text as string),
      mimeType: 'text/markdown',
      text: undefined,
    },
  );
  assert.match(out.text as string, /GREET-SKILL-BODY/);
});

test('a refused file: one line naming the server and the file, exit 1, nothing of it printed', async () => {
  const cases: [string[], string][] = [
    [
      ['tricky.digest-lie'],
      'tricky: the skill "digest-lie" was refused: SKILL.md does not match the digest its server listed',
    ],
    [['tricky.size-lie'], 'tricky: the skill "size-lie" was refused: SKILL.md is not the size its server listed'],
    [
      ['tricky.frontmatter-lie'],
      'tricky: the skill "frontmatter-lie" was refused: the frontmatter of SKILL.md is not what its server listed',
    ],
    [
      ['tricky.hidden-text'],
      'tricky: the skill "hidden-text" was refused: SKILL.md holds 15 characters no one sees (U+E0049 on line 7), which a model would read',
    ],
    [
      ['tricky.tampered-reference', 'references/GUIDE.md'],
      'tricky: the skill "tampered-reference" was refused: references/GUIDE.md does not match the digest its server listed',
    ],
  ];
  for (const [args, line] of cases) {
    for (const json of [[], ['--json']]) {
      const r = await cli('skill', ...args, ...json);
      assertOneLine(r, 1, line);
    }
  }
});

test('an unknown skill or file: one line, exit 2', async () => {
  assertOneLine(await cli('skill', 'docs.nothing'), 2, 'docs has no skill "nothing"');
  assertOneLine(await cli('skill', 'nowhere.pdf-forms'), 2, 'no server for "nowhere.pdf-forms" (expected SERVER.NAME)');
  assertOneLine(
    await cli('skill', 'docs.pdf-forms', 'references/NOPE.md'),
    2,
    'docs: the skill "pdf-forms" has no file references/NOPE.md among those its server listed',
  );
  assertOneLine(
    await cli('skill', 'tricky.outside', 'skill://digest-lie/SKILL.md'),
    2,
    'tricky: the skill "outside" has no file skill://digest-lie/SKILL.md among those its server listed',
  );
  assertOneLine(await cli('skill'), 2, 'skill needs SERVER.NAME');
  // A skill a server does not offer (past the limits) is unknown too: nothing of it is read.
  assertOneLine(await cli('skill', 'tricky.too-big'), 2, 'tricky has no skill "too-big"');
});

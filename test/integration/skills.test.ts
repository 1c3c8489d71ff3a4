// MCP skills (SEP-2640) through the core, on real servers over stdio (test/fixtures/skills.mjs): every
// page listed, a list change followed (2025 notification and 2026 listen stream), a server without the
// extension listing nothing, the saved list honouring ttlMs and cacheScope, names beside prompts, and
// every way a server can lie about a file refused with one message naming the server and the file, with
// nothing of the file in it and no request for a file the entry does not list.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/core/catalog/catalog';
import { FolderStorage } from '../../src/core/catalog/cache-storage';
import { PromptCache } from '../../src/core/catalog/prompt-cache';
import { skillCommand } from '../../src/core/catalog/skills';
import { readSkill, skillManifest } from '../../src/core/run/skills/skill-loader';
import { SkillSession } from '../../src/core/run/skills/skill-session';
import { RecordingLog, defs, getLine, launch, rejection, tempDir, testCatalog, waitFor } from './helpers';

const open: Catalog[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map(c => c.dispose()));
});

async function servers(env: Record<string, string> = {}) {
  const { skillsCommand } = await launch();
  return {
    docs: { ...skillsCommand('catalog'), env },
    tricky: { ...skillsCommand('tampered'), env },
    plain: { ...skillsCommand('plain'), env },
  };
}

async function listed(env: Record<string, string> = {}) {
  const t = testCatalog(await servers(env));
  open.push(t.catalog);
  await t.catalog.ready();
  return t;
}

test('every page of skills is listed; a server without the extension lists none and is not asked', async () => {
  const t = await listed();
  assert.deepEqual(
    t.entry('docs').skills.map(s => s.name),
    ['code-review', 'commit-message', 'greet', 'pdf-forms', 'release-notes'],
  );
  // Two skills a page: three skills/list requests, one listing.
  assert.equal(t.log('docs').sentMethods('skills/list').length, 3);
  assert.deepEqual(t.entry('docs').warnings, []);
  assert.deepEqual(t.entry('plain').skills, []);
  assert.deepEqual(t.entry('plain').warnings, [], 'no error, no warning');
  assert.equal(t.log('plain').sentMethods('skills/list').length, 0);
  assert.deepEqual(
    t.catalog.skills.map(s => `${s.server.id}:${s.name}`).slice(0, 5),
    t.entry('docs').skills.map(s => `docs:${s.name}`),
  );
});

test('a skill is named with its server; beside a prompt of the same name it is server.skill:name', async () => {
  const t = await listed();
  const docs = t.entry('docs');
  const byName = (n: string) => docs.skills.find(s => s.name === n)!;
  assert.equal(skillCommand(byName('pdf-forms')), 'docs.pdf-forms');
  assert.equal(skillCommand(byName('greet')), 'docs.skill:greet', 'the prompt greet keeps the plain name');
  const plainName = await t.catalog.findCommand('docs.greet');
  assert.ok('prompt' in plainName && plainName.prompt.prompt.name === 'greet');
  const alternative = await t.catalog.findCommand('docs.skill:greet');
  assert.ok('skill' in alternative && alternative.skill.skill.uri === 'skill://greet/SKILL.md');
  const skill = await t.catalog.findCommand('docs.pdf-forms');
  assert.ok('skill' in skill && skill.skill.name === 'pdf-forms');
  // Never by its bare name: a skill is always named with the server that serves it.
  assert.match((await rejection(t.catalog.findCommand('pdf-forms'))).message, /No prompt named "pdf-forms"/);
  assert.equal(
    (await rejection(t.catalog.findCommand('docs.nothing'))).message,
    'docs has no prompt or skill "nothing"',
  );
});

for (const era of ['2025', '2026'] as const)
  test(`a list change brings the new skill (${era === '2025' ? 'resources/list_changed' : 'the listen stream'})`, async () => {
    const t = await listed({ SKILLS_LEGACY: era === '2026' ? 'reject' : 'only' });
    const docs = t.entry('docs');
    assert.equal(docs.connection.info?.era, era === '2026' ? 'modern' : 'legacy');
    assert.ok(!docs.skills.some(s => s.name === 'changelog'));
    await getLine(t.catalog, 'docs.add_skill');
    await waitFor(() => docs.skills.some(s => s.name === 'changelog'), 'the re-list after the list change');
    assert.equal(docs.skills.length, 6);
  });

test('a loaded manifest is the entry the server has now; any change of a file gives another fingerprint', async () => {
  const t = await listed();
  const review = t.entry('docs').skills.find(s => s.name === 'code-review')!;
  const first = await skillManifest(review);
  assert.deepEqual(
    first.summary.files.map(f => f.path),
    ['SKILL.md', 'references/CHECKLIST.md'],
  );
  // The sizes shown are those the server listed, and they are the bytes it sends.
  for (const f of first.summary.files) assert.equal((await readSkill(first, f.path)).data.byteLength, f.size);
  const session = new SkillSession();
  session.approve(first);
  assert.ok(session.approved(await skillManifest(review)), 'the same files: still approved');
  // Another checklist: same name and description (the server sends no list change), another digest.
  await getLine(t.catalog, 'docs.edit_skill');
  const changed = await skillManifest(review);
  assert.notEqual(changed.fingerprint, first.fingerprint);
  assert.ok(!session.approved(changed), 'any change asks again');
  const held = session.hold(changed);
  assert.equal(session.skill(held.handle), held);
  assert.equal((await readSkill(changed, 'references/CHECKLIST.md')).text?.includes('- Edit 1.'), true);
  // A file read against a manifest held before the change is refused: the bytes are not what it listed.
  assert.equal(
    (await rejection(readSkill(first, 'references/CHECKLIST.md'))).message,
    'docs: the skill "code-review" was refused: references/CHECKLIST.md is not the size its server listed',
  );
});

test('SKILL.md and a reference read checked; the body comes without its frontmatter', async () => {
  const t = await listed();
  const pdf = await skillManifest(t.entry('docs').skills.find(s => s.name === 'pdf-forms')!);
  assert.equal(pdf.summary.tools, 'Bash(python3 scripts/fill.py:*) Read');
  assert.deepEqual(
    pdf.summary.files.map(f => f.path),
    ['SKILL.md', 'references/FORMS.md', 'scripts/fill.py'],
  );
  const skillMd = await readSkill(pdf);
  assert.match(skillMd.body!, /^# PDF forms\n/);
  assert.match(skillMd.text!, /^---\nname: pdf-forms\n/);
  assert.match((await readSkill(pdf, 'references/FORMS.md')).text!, /FORMS-REFERENCE-TEXT/);
});

test('a server that lists skills but does not answer skills/get: the listed entry is held and every file checked against it', async () => {
  const { skillsCommand } = await launch();
  const t = testCatalog({ docs: { ...skillsCommand('catalog'), env: { SKILLS_NO_GET: '1' } } });
  open.push(t.catalog);
  await t.catalog.ready();
  const listedEntry = t.entry('docs').skills.find(s => s.name === 'pdf-forms')!;
  const manifest = await skillManifest(listedEntry);
  assert.equal(manifest.skill, listedEntry.skill, 'the entry it listed');
  assert.ok(
    t
      .log('docs')
      .lines.some(
        l =>
          l.level === 'warn' &&
          l.message ===
            'docs gave no entry for the skill "skill://pdf-forms/SKILL.md" (skills/get); its listed files are used',
      ),
    t.log('docs').text(),
  );
  assert.match((await readSkill(manifest)).body!, /^# PDF forms\n/);
  assert.match((await readSkill(manifest, 'references/FORMS.md')).text!, /FORMS-REFERENCE-TEXT/);
});

test('every lie about a file is refused with one message naming the server and the file, and nothing of it', async () => {
  const dir = tempDir('mcp-skills-wire-');
  const wire = path.join(dir, 'wire.log');
  const t = await listed({ SKILLS_WIRE_LOG: wire });
  const tricky = t.entry('tricky');
  const skill = async (name: string) => skillManifest(tricky.skills.find(s => s.name === name)!);
  const refused = async (name: string, ref?: string) => {
    const err = await rejection(readSkill(await skill(name), ref));
    assert.doesNotMatch(err.message, /BODY|EVIL|HONEST|IGNORE|LISTED-FILE|UNLISTED/, 'nothing of the file');
    return err;
  };
  assert.equal(
    (await refused('digest-lie')).message,
    'tricky: the skill "digest-lie" was refused: SKILL.md does not match the digest its server listed',
  );
  assert.equal(
    (await refused('size-lie')).message,
    'tricky: the skill "size-lie" was refused: SKILL.md is not the size its server listed',
  );
  assert.equal(
    (await refused('frontmatter-lie')).message,
    'tricky: the skill "frontmatter-lie" was refused: the frontmatter of SKILL.md is not what its server listed',
  );
  const hidden = await refused('hidden-text');
  assert.equal(
    hidden.message,
    'tricky: the skill "hidden-text" was refused: SKILL.md holds 15 characters no one sees (U+E0049 on line 7), which a model would read',
  );
  assert.equal(hidden.kind, 'server');
  // An honest SKILL.md with a tampered reference: the skill loads, the reference does not.
  assert.match((await readSkill(await skill('tampered-reference'))).body!, /TAMPERED-REFERENCE-BODY/);
  assert.equal(
    (await refused('tampered-reference', 'references/GUIDE.md')).message,
    'tricky: the skill "tampered-reference" was refused: references/GUIDE.md does not match the digest its server listed',
  );
  // Files outside the manifest: another skill of the server, a path up and out, a file of no skill. None is asked for.
  const reads = () =>
    fs
      .readFileSync(wire, 'utf8')
      .split('\n')
      .filter(l => l.startsWith('resources/read'));
  const before = reads();
  for (const ref of [
    'skill://digest-lie/SKILL.md',
    '../digest-lie/SKILL.md',
    'references/OTHER.md',
    'file:///etc/passwd',
  ]) {
    const err = await refused('outside', ref);
    assert.equal(err.kind, 'input', ref);
    assert.match(err.message, /^tricky: the skill "outside" has no file .+ among those its server listed$/);
  }
  assert.deepEqual(reads(), before, 'no request for a file the entry does not list');
  assert.match((await readSkill(await skill('outside'), 'references/ONLY.md')).text!, /ONLY-LISTED-FILE/);
  // Out of bounds: not offered at all, each named in a warning; no file of them was read.
  assert.deepEqual(
    tricky.skills.map(s => s.name),
    ['digest-lie', 'size-lie', 'frontmatter-lie', 'tampered-reference', 'hidden-text', 'outside'],
  );
  assert.deepEqual(tricky.warnings, [
    'tricky: the skill "too-big" lists 17.0 MB of files, more than 16.0 MB; it is not offered',
    'tricky: the skill "dynamic-skill" does not list its files with digests ("dynamic"), so they cannot be checked; it is not offered',
  ]);
  assert.doesNotMatch(reads().join('\n'), /too-big|dynamic-skill/);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A window over the saved lists of `dir` with the tampered server (2026-07-28 only, its lists fresh for 10 minutes). */
async function cacheWindow(dir: string, identity: string, env: Record<string, string> = {}) {
  const { skillsCommand } = await launch();
  const tricky = { ...skillsCommand('tampered'), env: { SKILLS_LEGACY: 'reject', SKILLS_TTL_MS: '600000', ...env } };
  const cache = new PromptCache(new FolderStorage(path.join(dir, 'store')), { identity });
  const catalog = new Catalog({
    start: 'eager',
    startServers: 'onDemand',
    cache,
    connection: () => ({ log: new RecordingLog(), restart: false, timeoutMs: 20000 }),
  });
  open.push(catalog);
  catalog.setServers(defs({ tricky }));
  return { catalog, cache, entry: catalog.server('tricky')! };
}

/** The first window: the server starts once and its list is saved. */
async function fill(dir: string, identity: string, env: Record<string, string> = {}): Promise<void> {
  const first = await cacheWindow(dir, identity, env);
  await waitFor(() => first.entry.skills.length === 6, 'the first listing');
  await first.cache.flush();
  await first.catalog.dispose();
}

const TRICKY_OFFERED = ['digest-lie', 'size-lie', 'frontmatter-lie', 'tampered-reference', 'hidden-text', 'outside'];

test('the saved list keeps the skills and honours ttlMs: no re-list while the server calls it fresh', async () => {
  const dir = tempDir('mcp-skills-cache-');
  const wire = path.join(dir, 'wire.log');
  const env = { SKILLS_CACHE_SCOPE: 'public', SKILLS_WIRE_LOG: wire };
  await fill(dir, 'ada@box', env);
  const lists = () =>
    fs
      .readFileSync(wire, 'utf8')
      .split('\n')
      .filter(l => l === 'skills/list').length;
  const listedOnce = lists();
  assert.ok(listedOnce >= 1);
  const { catalog, entry } = await cacheWindow(dir, 'ada@box', env);
  assert.deepEqual(
    entry.skills.map(s => s.name),
    TRICKY_OFFERED,
    'the skills are there before the server runs',
  );
  assert.equal(entry.connection.state.kind, 'stopped');
  await catalog.ensureStarted(entry);
  assert.equal(entry.connection.state.kind, 'running');
  assert.equal(lists(), listedOnce, 'a list its server called fresh for 10 minutes is not asked for again');
  await catalog.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a private list of skills is shown only to the identity that listed it', async () => {
  const dir = tempDir('mcp-skills-private-');
  await fill(dir, 'ada@box');
  const same = await cacheWindow(dir, 'ada@box');
  assert.deepEqual(
    same.entry.skills.map(s => s.name),
    TRICKY_OFFERED,
  );
  await same.catalog.dispose();
  const other = await cacheWindow(dir, 'bob@box');
  assert.deepEqual(other.entry.skills, [], 'another identity sees no private list');
  await other.catalog.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

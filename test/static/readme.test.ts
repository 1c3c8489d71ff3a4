// The README stays a short guide that is true to the product: at most 250 lines, its pictures the ones
// `npm run readme-images` makes from the UI tests' screenshots (never a hand-made file), its Settings
// section naming every setting the manifest contributes, and every page of docs/ linked from it and from
// docs/README.md. The Commands section of docs/usage.md names every command the palette offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const usage = fs.readFileSync(path.join(root, 'docs', 'usage.md'), 'utf8');
interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The text of a document's `## heading` section, up to the next `## `. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `there is a "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The pictures scripts/readme-images.mjs writes into media/readme/. */
function scriptPictures(): string[] {
  const script = fs.readFileSync(path.join(root, 'scripts', 'readme-images.mjs'), 'utf8');
  const map = script.slice(
    script.indexOf('const PICTURES = {'),
    script.indexOf('};', script.indexOf('const PICTURES')),
  );
  const names = [...map.matchAll(/^\s*'([\w.-]+\.png)':/gm)].map(m => m[1]);
  const gif = /name: '([\w.-]+\.gif)'/.exec(script)?.[1];
  assert.ok(names.length > 0 && gif, 'the script names its pictures and its GIF');
  return [...names, gif];
}

test('every picture in the README is one the picture script makes, and is there', () => {
  const shown = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map(m => m[1]);
  assert.ok(shown.length >= 5, `the README shows its pictures (found ${shown.length})`);
  const made = scriptPictures();
  for (const link of shown) {
    assert.match(link, /^media\/readme\/[\w.-]+$/, `${link} is not under media/readme/`);
    const name = link.slice('media/readme/'.length);
    assert.ok(made.includes(name), `${link} is not made by scripts/readme-images.mjs (hand-made?)`);
    assert.ok(fs.existsSync(path.join(root, link)), `${link} is missing (run npm run readme-images)`);
  }
  const unused = made.filter(name => !shown.includes(`media/readme/${name}`));
  assert.deepEqual(unused, [], 'pictures the script makes that the README does not show');
});

test('the Commands section of docs/usage.md names every command the palette offers', () => {
  const hidden = new Set(manifest.contributes.menus.commandPalette.filter(m => m.when === 'false').map(m => m.command));
  const commands = section(usage, 'Commands');
  const missing = manifest.contributes.commands
    .filter(c => !hidden.has(c.command))
    .map(c => c.title.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? key))
    .filter(title => !commands.includes(`**${title}**`));
  assert.deepEqual(missing, [], 'palette commands missing from docs/usage.md');
});

test('the Settings section names every setting', () => {
  const settings = section(readme, 'Settings');
  const keys = [manifest.contributes.configuration].flat().flatMap(c => Object.keys(c.properties));
  assert.ok(keys.length > 0);
  const missing = keys.filter(key => !settings.includes(`\`${key}\``));
  assert.deepEqual(missing, [], 'settings missing from the README');
});

test('the README is a guide a user reads in five minutes, with the two commands a newcomer runs', () => {
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 250, `the README has ${lines} lines; the reference belongs in docs/`);
  for (const command of ['npm start', 'npm test'])
    assert.ok(readme.includes(`\`${command}\``), `the README names ${command}`);
});

test('every page of docs/ is linked from the README and from the index docs/README.md', () => {
  const index = fs.readFileSync(path.join(root, 'docs', 'README.md'), 'utf8');
  const pages = fs.readdirSync(path.join(root, 'docs')).filter(f => f.endsWith('.md') && f !== 'README.md');
  assert.ok(pages.length > 0);
  const linked = (text: string, target: string) =>
    new RegExp(`\\]\\(${target.replace(/\./g, '\\.')}(#[\\w-]*)?\\)`).test(text);
  assert.deepEqual(
    pages.filter(page => !linked(readme, `docs/${page}`)),
    [],
    'docs/ pages the README does not link',
  );
  assert.deepEqual(
    pages.filter(page => !linked(index, page)),
    [],
    'docs/ pages docs/README.md does not list',
  );
});

test('the prose speaks of the product, never of how its work was organised', () => {
  const prose = [
    'README.md',
    'CHANGELOG.md',
    ...fs.readdirSync(path.join(root, 'docs')).map(f => path.join('docs', f)),
    ...fs
      .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter(f => f.endsWith('README.md'))
      .map(f => path.join('src', f)),
  ];
  const found = prose.flatMap(file =>
    fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
      .filter(({ line }) => /\bdesign cards?\b|\brounds?\b(?![- ]trips?\b)/i.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`),
  );
  assert.deepEqual(found, []);
});

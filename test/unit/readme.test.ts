// The README stays true to the product: its pictures are the ones `npm run readme-images` makes from
// the UI tests' screenshots (never a hand-made file), and its Commands and Settings sections name every
// command the palette offers and every setting the manifest contributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The text of the README's `## heading` section, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
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
  assert.ok(shown.length >= 7, `the README shows its pictures (found ${shown.length})`);
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

test('the Commands section names every command the palette offers', () => {
  const hidden = new Set(manifest.contributes.menus.commandPalette.filter(m => m.when === 'false').map(m => m.command));
  const commands = section('Commands');
  const missing = manifest.contributes.commands
    .filter(c => !hidden.has(c.command))
    .map(c => c.title.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? key))
    .filter(title => !commands.includes(`**${title}**`));
  assert.deepEqual(missing, [], 'palette commands missing from the README');
});

test('the Settings section names every setting', () => {
  const settings = section('Settings');
  const keys = [manifest.contributes.configuration].flat().flatMap(c => Object.keys(c.properties));
  assert.ok(keys.length > 0);
  const missing = keys.filter(key => !settings.includes(`\`${key}\``));
  assert.deepEqual(missing, [], 'settings missing from the README');
});

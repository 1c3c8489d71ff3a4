// Every user-visible string is translated: package.json's %keys% and every string the code passes to
// l10n.t, in English and in each language we ship (de, ja, zh-cn).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, sources } from './sources';

test('every %key% of package.json has an English string, and every translation has the same keys', () => {
  const pkg = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
  const keys = [...pkg.matchAll(/"%([^%"]+)%"/g)].map(m => m[1]);
  const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  assert.deepEqual(
    keys.filter(k => !(k in nls)),
    [],
  );
  for (const f of fs.readdirSync(root).filter(name => /^package\.nls\..+\.json$/.test(name))) {
    const t = JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(t).sort(), Object.keys(nls).sort(), f);
  }
});

test('the l10n bundle holds every string the code passes to l10n.t', () => {
  const bundle = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
    string,
    string
  >;
  const missing: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    // Either quote: prettier writes "it's" where the text holds an apostrophe.
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/l10n\.t\(\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
      const s = m[2].replace(/\\(['"])/g, '$1').replace(/\\\\/g, '\\');
      if (!(s in bundle)) missing.push(`${path.relative(root, f)}: ${s}`);
    }
  }
  assert.deepEqual(missing, [], 'run npm run l10n');
  for (const f of fs.readdirSync(path.join(root, 'l10n')).filter(name => /^bundle\.l10n\..+\.json$/.test(name))) {
    const t = JSON.parse(fs.readFileSync(path.join(root, 'l10n', f), 'utf8')) as Record<string, string>;
    assert.deepEqual(
      Object.keys(bundle).filter(k => !(k in t)),
      [],
      `${f} lacks translations`,
    );
  }
});

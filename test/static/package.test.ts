// The package a user installs: the vsce step of `npm run package`, run exactly as the script spells it
// (no --allow-* flag, stdin closed so a y/N question fails instead of waiting), builds a .vsix that holds
// only what runs, and the manifest carries what the marketplace shows. Needs `node esbuild.mjs` first
// (dist/extension.js must exist to be packed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
const ROOT = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  version: string;
  license?: string;
  icon?: string;
  preview?: boolean;
  keywords?: string[];
  categories?: string[];
  homepage?: string;
  repository?: { type?: string; url?: string } | string;
  bugs?: { url?: string } | string;
  galleryBanner?: { color?: string; theme?: string };
  scripts: Record<string, string>;
  contributes: unknown;
}
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The entries of a zip file by name, each inflated on demand (stored or deflated, as vsce writes them). */
function readZip(zip: Buffer): Map<string, () => Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, 'the .vsix is a zip file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? zlib.inflateRawSync(data) : data;
    });
    at += 46 + skip;
  }
  return entries;
}

/** The package script's vsce step (`package:vsix`), writing to `outFile` instead of its own -o. */
function vsceArgs(outFile: string): string[] {
  const step: string | undefined = manifest.scripts['package:vsix'];
  assert.ok(step?.startsWith('vsce package'), `package:vsix runs vsce package: ${step}`);
  assert.match(manifest.scripts.package, /&& npm run --silent package:vsix$/, 'the package script ends with it');
  const args = step.split(/\s+/).slice(1);
  const o = args.indexOf('-o');
  if (o >= 0) args.splice(o, 2);
  return [...args, '-o', outFile];
}

let packed: Promise<{ entries: Map<string, () => Buffer>; output: string; bytes: number }> | undefined;
/** Packs once for all tests of this file. */
function pack(): Promise<{ entries: Map<string, () => Buffer>; output: string; bytes: number }> {
  packed ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-prompts-vsix-'));
    const out = path.join(dir, 'test.vsix');
    try {
      const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
      const output = await new Promise<string>((resolve, reject) => {
        const child = execFile(
          process.execPath,
          [vsce, ...vsceArgs(out)],
          { cwd: ROOT, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 },
          (err, stdout, stderr) =>
            err
              ? reject(new Error(`vsce package failed: ${err.message}\n${stdout}\n${stderr}`))
              : resolve(stdout + stderr),
        );
        child.stdin?.end();
      });
      const zip = fs.readFileSync(out);
      return { entries: readZip(zip), output, bytes: zip.length };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  })();
  return packed;
}

/** The paths inside the extension folder of the .vsix (vsce keeps them under `extension/`). */
async function files(): Promise<string[]> {
  const { entries } = await pack();
  return [...entries.keys()].filter(n => n.startsWith('extension/')).map(n => n.slice('extension/'.length));
}

test('npm run package packs without an --allow-* flag and without asking anything', async () => {
  assert.doesNotMatch(manifest.scripts.package, /--allow-/);
  assert.doesNotMatch(manifest.scripts['package:vsix'], /--allow-/);
  const { output } = await pack();
  assert.doesNotMatch(output, /WARNING/i, `vsce warned:\n${output}`);
});

test('the .vsix holds only what runs: no sources, tests, maps, fixtures, README pictures, docs, node_modules or CLI', async () => {
  const shipped = await files();
  const forbidden = [
    /^src\//,
    /^test\//,
    /^out\//,
    /\.ts$/,
    /\.map$/,
    /fixtures?\//,
    /^media\/readme\//,
    /^media\/icon\.svg$/, // the icon's source; the PNG is what ships
    /node_modules\//,
    /^scripts\//,
    /^bench\//,
    /^docs\//, // the reference pages; the packed README links to them in the repository
    /.\/readme\.md$/i, // a folder's README (src/core/*/README.md, docs/README.md): only the top-level one ships
    /^dist\/cli\.js$/, // the CLI is the npm package's `bin`, not something the extension loads
    /^l10n\/bundle\.l10n\.json$/, // the English strings: VS Code reads a bundle only for another language
    /^\.(vscode|github|artifacts|vscode-test)\//,
    /^(tsconfig|eslint|esbuild)/,
  ];
  const bad = shipped.filter(f => forbidden.some(p => p.test(f)));
  assert.deepEqual(bad, [], `files that do not run were packed: ${bad.join(', ')}`);
  // And nothing beyond the kinds of files that run or that the marketplace shows.
  const allowed = [
    /^dist\/(extension|protocol)\.js$/, // protocol.js: the SDK client, loaded with the first connection
    /^package\.json$/,
    /^package\.nls(\.[a-z-]+)?\.json$/,
    /^l10n\/bundle\.l10n\.[a-z-]+\.json$/,
    /^media\/[^/]+(\/[^/]+)*\.(png|svg|md|gif)$/,
    /^skills\/[^/]+\/SKILL\.md$/, // the chat skill (contributes.chatSkills)
    /^readme\.md$/,
    /^changelog\.md$/,
    /^LICENSE(\.txt)?$/,
  ];
  const unknown = shipped.filter(f => !allowed.some(p => p.test(f)));
  assert.deepEqual(unknown, [], `unexpected files in the .vsix: ${unknown.join(', ')}`);
  for (const needed of [
    'readme.md',
    'dist/extension.js',
    'dist/protocol.js',
    'package.json',
    'package.nls.json',
    'l10n/bundle.l10n.de.json',
  ])
    assert.ok(shipped.includes(needed), `${needed} is packed`);
});

/**
 * The .vsix a user downloads, the SDK, its schemas and zod in it once: at most 275 KB. It was 250 KB until the
 * portable server files, the hidden-text rule, the consent's new fields and the chat skill added ~15 KB of
 * the extension's own code (docs/benchmarks.md); what the bound catches is a second copy of the SDK (~70 KB).
 */
const MAX_VSIX_BYTES = 275 * 1024;

test(`the .vsix is at most ${MAX_VSIX_BYTES / 1024} KB`, async () => {
  const { bytes } = await pack();
  assert.ok(bytes <= MAX_VSIX_BYTES, `the .vsix is ${(bytes / 1024).toFixed(1)} KB`);
});

/** Every relative file path the manifest's contributions name (icons, walkthrough media), e.g. `media/mcp.svg`. */
function namedFiles(value: unknown, key = ''): string[] {
  if (typeof value === 'string')
    return ['icon', 'image', 'markdown', 'svg', 'light', 'dark', 'path'].includes(key) &&
      !value.startsWith('$(') &&
      !/^[a-z]+:/i.test(value)
      ? [path.posix.normalize(value.replace(/^\.\//, ''))]
      : [];
  if (Array.isArray(value)) return value.flatMap(v => namedFiles(v, key));
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => namedFiles(v, k));
  return [];
}

test('every file the manifest names is in the .vsix, the icon too', async () => {
  const shipped = new Set(await files());
  const named = [...namedFiles(manifest.contributes, ''), manifest.icon ?? ''];
  assert.ok(named.length > 1);
  const missing = named.filter(f => !shipped.has(f));
  assert.deepEqual(missing, [], `named in package.json but not packed: ${missing.join(', ')}`);
});

test('the manifest carries what the marketplace shows', async () => {
  // Icon: a 128×128 PNG, as packed.
  assert.ok(manifest.icon, 'icon is set');
  const { entries } = await pack();
  const icon = entries.get(`extension/${manifest.icon}`)?.();
  assert.ok(icon, `${manifest.icon} is packed`);
  assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG', 'the icon is a PNG');
  assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128], 'the icon is 128×128');

  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
  for (const [field, url] of Object.entries({ repository, homepage: manifest.homepage, bugs }))
    assert.match(url ?? '', /^https:\/\/[^/]+\.[a-z]+\//, `${field} is an https address`);
  assert.doesNotMatch(repository ?? '', /example\.invalid/);

  for (const k of ['mcp', 'model context protocol', 'prompts', 'slash commands', 'chat'])
    assert.ok(manifest.keywords?.includes(k), `keyword ${k}`);
  // The marketplace takes at most 30 keywords and fixed category names.
  assert.ok((manifest.keywords?.length ?? 0) <= 30);
  const categories = ['AI', 'Chat', 'Machine Learning', 'Other', 'Programming Languages', 'Snippets'];
  assert.ok(manifest.categories?.length, 'categories are set');
  for (const c of manifest.categories ?? []) assert.ok(categories.includes(c), `category ${c}`);

  assert.equal(manifest.preview, manifest.version.startsWith('0.'), 'preview while 0.x');
  assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-fA-F]{6}$/, 'galleryBanner.color');
  assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''), 'galleryBanner.theme');

  assert.equal(manifest.license, 'MIT');
  assert.match(fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
});

test('the marketplace listing: icon, preview flag, repository, README, CHANGELOG and LICENSE', async () => {
  const { entries } = await pack();
  const vsixManifest = entries.get('extension.vsixmanifest')?.().toString('utf8') ?? '';
  assert.match(vsixManifest, /<GalleryFlags>[^<]*\bPreview\b/, 'shown as Preview');
  assert.match(vsixManifest, /Type="Microsoft\.VisualStudio\.Services\.Icons\.Default"/);
  assert.match(vsixManifest, /Type="Microsoft\.VisualStudio\.Services\.Content\.Details"/, 'README');
  assert.match(vsixManifest, /Type="Microsoft\.VisualStudio\.Services\.Content\.Changelog"/, 'CHANGELOG');
  assert.match(vsixManifest, /Type="Microsoft\.VisualStudio\.Services\.Content\.License"/, 'LICENSE');
  assert.match(vsixManifest, /Id="Microsoft\.VisualStudio\.Services\.Links\.Source"/, 'repository link');
  assert.match(vsixManifest, /Microsoft\.VisualStudio\.Services\.Branding\.Color/, 'galleryBanner');

  // README pictures live in the repository, not in the .vsix: every image of the packed README must be
  // an absolute https address, or the marketplace and VS Code's extension page show it broken.
  const readme = entries.get('extension/readme.md')?.().toString('utf8') ?? '';
  assert.ok(readme.length > 0, 'README is packed');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)|<img[^>]*\ssrc="([^"]+)"/g)].map(m => m[1] ?? m[2]);
  const relative = images.filter(src => !src.startsWith('https://'));
  assert.deepEqual(relative, [], `README pictures that would be broken: ${relative.join(', ')}`);
});

test('the extension runs in a Node extension host only: a `main` entry, no `browser` one (docs/platforms.md)', () => {
  const entries = manifest as unknown as { main?: string; browser?: string; extensionKind?: string[] };
  assert.equal(entries.main, './dist/extension.js');
  assert.equal(entries.browser, undefined, 'vscode.dev without a remote has no Node to start stdio servers with');
  // No extensionKind: VS Code runs it where the workspace is, in a remote window on the remote.
  assert.equal(entries.extensionKind, undefined);
});

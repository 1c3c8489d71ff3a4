#!/usr/bin/env node
// Copies the README's pictures from the latest UI test run (.artifacts/screenshots/, written by the
// e2e tests) into docs/images/, so the README shows what the tests saw, never a hand-made picture.
//   node scripts/readme-images.mjs [--from DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fromAt = process.argv.indexOf('--from');
const from = fromAt > 0 ? path.resolve(process.argv[fromAt + 1]) : path.join(root, '.artifacts', 'screenshots');
const to = path.join(root, 'docs', 'images');

/** README picture ← the screenshot of the UI test step that shows it. */
const PICTURES = {
  'agent-receives.png': 'agent-agent-received.png',
  'insert-into-chat-input.png': 'agent-insert-into-chat-input.png',
};

fs.mkdirSync(to, { recursive: true });
const missing = [];
for (const [name, shot] of Object.entries(PICTURES)) {
  const source = path.join(from, shot);
  if (!fs.existsSync(source)) {
    missing.push(shot);
    continue;
  }
  fs.copyFileSync(source, path.join(to, name));
  console.log(`docs/images/${name} ← ${path.relative(root, source)}`);
}
if (missing.length) {
  console.error(`readme-images: not in ${from}: ${missing.join(', ')} (run the UI tests that take them first)`);
  process.exit(1);
}

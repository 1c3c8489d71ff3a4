// 5. Activation: written by the host tests (test/host/extension.test.js) to .artifacts/activation.json.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, row } from './lib.mjs';

export async function run() {
  const file = path.join(ROOT, '.artifacts', 'activation.json');
  if (!fs.existsSync(file))
    return {
      skipped:
        'not measured yet: the host tests write .artifacts/activation.json (npm test, or npm run test:host), then npm run bench -- --only=activation',
    };
  const a = JSON.parse(fs.readFileSync(file, 'utf8'));
  return {
    rows: [
      row(
        'activate() in the VS Code host',
        a.activationMs,
        undefined,
        'ms',
        { abs: 20 },
        `VS Code ${a.vscode}, measured ${a.at} by the host tests (not in this run)`,
      ),
    ],
    data: { measured: true, ...a },
  };
}

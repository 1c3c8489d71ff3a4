#!/usr/bin/env node
// The same host suite (test/host/) on desktop VS Code through @vscode/test-electron. It downloads
// VS Code, so it needs network access: on machines without it use `npm test` (VS Code server host).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { makeWorkspace } from '../test/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  await runTests({
    version: '1.139.0',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'test', 'host', 'index.js'),
    launchArgs: [makeWorkspace(), '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error('desktop host tests failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}

// Bundles the extension and the CLI (one minified CommonJS file each), and the unit and integration tests.
// node esbuild.mjs [--production] [--watch] [--tests]
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** The SDK's ajv validator checks tool outputs only; our stand-in for its runtime shims keeps ajv out of the bundle. */
const noAjv = {
  name: 'no-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({
      path: path.resolve('src/core/no-json-schema.ts'),
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  minify: production || !watch,
  logLevel: 'warning',
  // The SDK ships ESM and CJS; prefer its CJS build so `require.main` and friends behave.
  mainFields: ['module', 'main'],
  conditions: ['require'],
};

const builds = [
  {
    ...common,
    plugins: [noAjv],
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
  },
  {
    ...common,
    plugins: [noAjv],
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
];
if (tests) {
  // test/unit: pure tests (no processes, no network); test/integration: real MCP servers, the real CLI.
  // Cleared first: a test moved or deleted must not keep running from an old build.
  fs.rmSync('out/test', { recursive: true, force: true });
  for (const dir of ['test/unit', 'test/integration']) {
    const entryPoints = fs
      .readdirSync(dir)
      .filter(f => f.endsWith('.test.ts'))
      .map(f => path.join(dir, f));
    // Tests keep the SDK whole: they compare with raw SDK clients, which build the ajv validator.
    builds.push({
      ...common,
      minify: false,
      entryPoints,
      outdir: `out/${dir}`,
      external: ['@modelcontextprotocol/server-everything'],
    });
  }
  // The client the official conformance suite drives (scripts/test-all.mjs, test/conformance/run.mjs).
  builds.push({
    ...common,
    plugins: [noAjv],
    minify: false,
    entryPoints: ['test/conformance/client.ts'],
    outfile: 'out/test/conformance/client.js',
  });
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map(b => esbuild.build(b)));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

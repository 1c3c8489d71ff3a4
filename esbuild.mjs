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
      path: path.resolve('src/core/protocol/no-json-schema.ts'),
    }));
  },
};

/**
 * The extension's second bundle: `@modelcontextprotocol/client` (and `/stdio`, `/ext/skills`) resolve to a stand-in
 * whose exports are getters that require dist/protocol.js (src/core/protocol/protocol-bundle.ts) on first use, so activation
 * does not parse the SDK (about half the code). esbuild reads a CommonJS module's exports at each use,
 * so the sources import the SDK as usual; only values reached at load time (a class `extends Client`
 * at the top of a file) would load it early, which test/host checks.
 */
const lazyProtocol = {
  name: 'lazy-protocol',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client(\/stdio|\/ext\/skills)?$/ }, args => ({
      path: args.path,
      namespace: 'lazy-protocol',
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-protocol' }, async args => {
      const names = Object.keys(await import(args.path)).filter(n => n !== 'default');
      return {
        loader: 'js',
        resolveDir: path.resolve('src/core/protocol'),
        contents: `const { reportProtocolLoad } = require('./protocol-load');
let sdk;
const load = () => {
  if (sdk) return sdk;
  const started = performance.now();
  sdk = require(require('node:path').join(__dirname, 'protocol.js'));
  reportProtocolLoad(performance.now() - started);
  return sdk;
};
for (const name of ${JSON.stringify(names)})
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
      };
    });
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
    plugins: [lazyProtocol],
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    metafile: true,
  },
  {
    ...common,
    plugins: [noAjv],
    entryPoints: ['src/core/protocol/protocol-bundle.ts'],
    outfile: 'dist/protocol.js',
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
  // test/unit: pure tests (no processes, no network); test/integration: real MCP servers, the real CLI;
  // test/static: checks of the sources, manifest, README, l10n and package.
  // Cleared first: a test moved or deleted must not keep running from an old build.
  fs.rmSync('out/test', { recursive: true, force: true });
  for (const dir of ['test/static', 'test/unit', 'test/integration']) {
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
      // Real servers from npm: tests find them with require.resolve and run them, never bundle them.
      external: [
        '@modelcontextprotocol/server-everything',
        '@modelcontextprotocol/inspector-cli',
        '@cyanheads/git-mcp-server',
        '@jpisnice/shadcn-ui-mcp-server',
        'mcp-server-kubernetes',
        '@takescake/1password-mcp',
        // The static checks parse the sources with it.
        'typescript',
      ],
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
  const results = await Promise.all(builds.map(b => esbuild.build(b)));
  // What dist/extension.js holds, for test/static/bundle.test.ts (out/ is not shipped).
  fs.mkdirSync('out', { recursive: true });
  fs.writeFileSync('out/extension.meta.json', JSON.stringify(results[0].metafile));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

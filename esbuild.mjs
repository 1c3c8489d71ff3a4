// Bundles the extension and the CLI (one minified CommonJS file each, sharing dist/protocol.js), the MCP server
// package for `mcp-prompts serve` (dist/server.js, the CLI's alone), and the unit and integration tests.
// node esbuild.mjs [--production] [--watch] [--tests]
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { minify } from 'terser';
import {
  jsoncEnums,
  schemasRead,
  sdkUnreached,
  zodMethodsRead,
  zodNamespacesRead,
  zodUncalledMethods,
  zodWithoutJsonSchema,
} from './scripts/unreached-code.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** The SDK's ajv validator checks tool outputs only; our stand-in for its runtime shims keeps ajv out of the bundle. */
const noAjv = {
  name: 'no-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({
      path: path.resolve('src/core/protocol/transport/no-json-schema.ts'),
    }));
  },
};

/**
 * The SDK's stdio transport finds and starts a server with cross-spawn; ours starts it with Node's own spawn
 * (src/core/protocol/transport/transports.ts, PATH lookup in stdio-launch.ts), so cross-spawn and its lookup helpers
 * never run: a stand-in that throws keeps them out of dist/protocol.js (a test that reached it would fail).
 */
const noCrossSpawn = {
  name: 'no-cross-spawn',
  setup(build) {
    build.onResolve({ filter: /^cross-spawn$/ }, () => ({ path: 'cross-spawn', namespace: 'no-cross-spawn' }));
    build.onLoad({ filter: /.*/, namespace: 'no-cross-spawn' }, () => ({
      loader: 'js',
      contents:
        "export default function spawn() { throw new Error('cross-spawn is not shipped: stdio servers start through src/core/protocol/transport/transports.ts'); }",
    }));
  },
};

/**
 * The packages that live in one second bundle, dist/protocol.js, shared by the extension and the CLI:
 * the MCP SDK client with its transports and its skills client, the SDK's schemas and zod. Our sources import them as usual;
 * the build resolves each to a stand-in whose exports are getters that require dist/protocol.js on
 * first use (src/core/protocol/transport/protocol-load.ts hears of it), so activation parses none of it and the
 * SDK ships once. esbuild reads a CommonJS module's exports at each use, so only values reached at load
 * time (a schema built at the top of a file, a class `extends Client`) would load it early, which the
 * host tests check. Each package is a key of dist/protocol.js's exports.
 */
const PROTOCOL = {
  '@modelcontextprotocol/client': 'client',
  '@modelcontextprotocol/client/stdio': 'stdio',
  '@modelcontextprotocol/client/ext/skills': 'skills',
  '@modelcontextprotocol/core': 'core',
  '@modelcontextprotocol/core/ext/skills': 'coreSkills',
  'zod/v4': 'zod',
};
const PROTOCOL_FILTER =
  /^(@modelcontextprotocol\/client(\/stdio|\/ext\/skills)?|@modelcontextprotocol\/core(\/ext\/skills)?|zod\/v4)$/;
const SURFACES = ['src/extension.ts', 'src/cli.ts'];

/**
 * The MCP server package, which only `mcp-prompts serve` uses: a bundle of its own, dist/server.js, that the
 * CLI loads through stand-ins like those above when the gateway starts. The extension never imports it and
 * the .vsix does not carry it. It keeps its own copy of the SDK's core and zod: dist/protocol.js holds only
 * what a client reads, and what the extension downloads stays that size.
 */
const SERVER = {
  '@modelcontextprotocol/server': 'server',
  '@modelcontextprotocol/server/stdio': 'stdio',
};
const SERVER_FILTER = /^@modelcontextprotocol\/server(\/stdio)?$/;

/** The server package's runtime shims pull in ajv, which only checks tool schemas we never declare. */
const noServerAjv = {
  name: 'no-server-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: path.resolve('src/cli/server-shims.ts'),
    }));
  },
};

/**
 * What the extension and the CLI take from each of those packages, as esbuild itself sees it: both are
 * bundled once against empty stand-ins, and esbuild names every import it cannot find (a named import,
 * or a member of a namespace import such as `z.object`). dist/protocol.js exports exactly these, so the
 * bundler keeps only what is used (a tool's or an OAuth flow's code we never call stays out). A
 * namespace passed around as a value would hide its members: use `z.member` only.
 */
async function protocolNames() {
  const empty = {
    name: 'protocol-names',
    setup(build) {
      for (const filter of [PROTOCOL_FILTER, SERVER_FILTER])
        build.onResolve({ filter }, args => ({ path: args.path, namespace: 'protocol-names' }));
      build.onLoad({ filter: /.*/, namespace: 'protocol-names' }, () => ({ loader: 'js', contents: 'export {};' }));
    },
  };
  let messages;
  try {
    const result = await esbuild.build({
      ...common,
      minify: false,
      sourcemap: false,
      format: 'esm',
      write: false,
      entryPoints: SURFACES,
      outdir: 'out/protocol-names',
      external: ['vscode'],
      plugins: [empty],
      logLevel: 'silent',
    });
    messages = result.warnings;
  } catch (err) {
    messages = [...err.errors, ...err.warnings];
  }
  const names = Object.fromEntries(Object.keys({ ...PROTOCOL, ...SERVER }).map(p => [p, new Set()]));
  for (const { text } of messages) {
    const named = /^No matching export in "protocol-names:([^"]+)" for import "([^"]+)"$/.exec(text);
    const member =
      /^Import "([^"]+)" will always be undefined because there is no matching export in "protocol-names:([^"]+)"$/.exec(
        text,
      );
    if (named) names[named[1]].add(named[2]);
    else if (member) names[member[2]].add(member[1]);
    else throw new Error(`esbuild.mjs: ${text}`);
  }
  return Object.fromEntries(Object.entries(names).map(([p, set]) => [p, [...set].sort()]));
}

/** Every runtime export of each protocol and server package. */
async function everyExport() {
  const entries = await Promise.all(
    Object.keys({ ...PROTOCOL, ...SERVER }).map(async p => [
      p,
      Object.keys(await import(p)).filter(n => n !== 'default'),
    ]),
  );
  return Object.fromEntries(entries);
}

/** dist/protocol.js's (or dist/server.js's) source: each package's used names under its key. */
function protocolEntry(names, packages = PROTOCOL) {
  return Object.entries(packages)
    .map(([from, key]) => {
      const list = names[from].map((n, i) => `${n} as ${key}${i}`).join(', ');
      const object = names[from].map((n, i) => `${JSON.stringify(n)}: ${key}${i}`).join(', ');
      return `import { ${list} } from '${from}';\nexport const ${key} = { ${object} };`;
    })
    .join('\n');
}

/**
 * The stand-in for the protocol packages in dist/extension.js and dist/cli.js (see PROTOCOL), or for the server
 * package in dist/cli.js (see SERVER): getters that require the bundle beside it on first use.
 */
function lazyBundle(names, packages = PROTOCOL) {
  const server = packages === SERVER;
  const namespace = server ? 'lazy-server' : 'lazy-protocol';
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: server ? SERVER_FILTER : PROTOCOL_FILTER }, args => ({ path: args.path, namespace }));
      build.onLoad({ filter: /.*/, namespace }, args => ({
        loader: 'js',
        resolveDir: path.resolve('src/core/protocol/transport'),
        // The protocol bundle's load is timed (protocol-load.ts hears of it); the server bundle's is not.
        contents: `${server ? '' : "const { reportProtocolLoad } = require('./protocol-load');"}
let bundle;
const load = () => {
  if (bundle) return bundle;
  const started = performance.now();
  bundle = require(require('node:path').join(__dirname, '${server ? 'server' : 'protocol'}.js'));
  ${server ? 'void started;' : 'reportProtocolLoad(performance.now() - started);'}
  return bundle;
};
for (const name of ${JSON.stringify(names[args.path])})
  Object.defineProperty(exports, name, { enumerable: true, get: () => load().${packages[args.path]}[name] });`,
      }));
    },
  };
}

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

// Watch mode serves every export instead: a name first used while watching must not be missing.
const names = watch ? await everyExport() : await protocolNames();
const builds = [
  {
    ...common,
    plugins: [lazyBundle(names), jsoncEnums],
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    metafile: true,
  },
  {
    ...common,
    // In watch mode every export is served, and the cuts refuse names they would take away.
    plugins: watch
      ? [noAjv]
      : [
          noAjv,
          noCrossSpawn,
          sdkUnreached(),
          schemasRead(),
          zodWithoutJsonSchema(names['zod/v4']),
          zodNamespacesRead(names['zod/v4']),
          zodUncalledMethods,
        ],
    stdin: { contents: protocolEntry(names), resolveDir: path.resolve('.'), sourcefile: 'protocol.ts', loader: 'ts' },
    outfile: 'dist/protocol.js',
    metafile: true,
  },
  {
    ...common,
    plugins: [lazyBundle(names), lazyBundle(names, SERVER), jsoncEnums],
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    metafile: true,
  },
  {
    ...common,
    plugins: [noServerAjv],
    stdin: {
      contents: protocolEntry(names, SERVER),
      resolveDir: path.resolve('.'),
      sourcefile: 'server.ts',
      loader: 'ts',
    },
    outfile: 'dist/server.js',
    metafile: true,
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

/**
 * A shipped bundle once more through terser: its choice of names and its rewrites of esbuild's output
 * compress to about 6 KB less in the .vsix (issue 27's 250 KB); the source map follows. A CommonJS
 * module's top level is the module's own scope, so its names are renamed too.
 */
async function terse(file) {
  const out = await minify(fs.readFileSync(file, 'utf8'), {
    ecma: 2020,
    toplevel: true,
    format: { ascii_only: true }, // as esbuild writes it
    sourceMap: { content: fs.readFileSync(`${file}.map`, 'utf8'), url: `${path.basename(file)}.map` },
  });
  fs.writeFileSync(file, out.code);
  fs.writeFileSync(`${file}.map`, out.map);
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('[esbuild] watching');
} else {
  const results = await Promise.all(builds.map(b => esbuild.build(b)));
  // What the .vsix ships (the CLI's own bundle is left as esbuild writes it).
  for (const file of ['dist/extension.js', 'dist/protocol.js']) await terse(file);
  // zod's methods left out of dist/protocol.js must stay uncalled by every bundle that loads it.
  for (const file of ['dist/extension.js', 'dist/protocol.js', 'dist/cli.js']) {
    const read = zodMethodsRead(fs.readFileSync(file, 'utf8'));
    if (read.length)
      throw new Error(`${file} calls ${read.join(', ')}, zod methods scripts/unreached-code.mjs leaves out`);
  }
  // What each bundle holds and which names dist/protocol.js serves, for test/static/bundle.test.ts (out/ is not shipped).
  fs.mkdirSync('out', { recursive: true });
  fs.writeFileSync('out/extension.meta.json', JSON.stringify(results[0].metafile));
  fs.writeFileSync('out/protocol.meta.json', JSON.stringify(results[1].metafile));
  fs.writeFileSync('out/cli.meta.json', JSON.stringify(results[2].metafile));
  fs.writeFileSync('out/server.meta.json', JSON.stringify(results[3].metafile));
  const only = packages => Object.fromEntries(Object.keys(packages).map(p => [p, names[p]]));
  fs.writeFileSync('out/protocol-names.json', JSON.stringify({ keys: PROTOCOL, names: only(PROTOCOL) }, null, 1));
  fs.writeFileSync('out/server-names.json', JSON.stringify({ keys: SERVER, names: only(SERVER) }, null, 1));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

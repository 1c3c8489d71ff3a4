// 6. Size: the shipped bundles (the extension, the CLI, and the protocol bundle both load with the first
// connection) and the .vsix, packed anew from the production build run.mjs made; what dominates them
// (esbuild metafiles); and a variant with ajv / ajv-formats stubbed out (the SDK needs them only to
// validate tool output schemas, which a prompts-only client never asks for), which the shipped build
// also stubs. The project's real build is not changed.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fixtureCommand } from '../test/fixtures/launch.mjs';
import { PROJECT_OPTIONS } from './build.mjs';
import { BENCH, ROOT, row, runProcess } from './lib.mjs';

const KB = 1024;

/**
 * Replaces the v2 client's runtime shims (`@modelcontextprotocol/client/_shims`, the only way to its
 * bundled ajv validator) with a stub, as the project's build does with src/core/protocol/transport/no-json-schema.ts.
 */
const stubAjv = {
  name: 'stub-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, args => ({
      path: args.path,
      namespace: 'stub-ajv',
    }));
    build.onLoad({ filter: /.*/, namespace: 'stub-ajv' }, () => ({
      loader: 'js',
      contents: `export const CORS_IS_POSSIBLE = false;
        export class DefaultJsonSchemaValidator { getValidator() { throw new Error('JSON Schema validation is not included in this build'); } }`,
    }));
  },
};

function packageOf(input) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? m[1] : input.startsWith('stub-ajv:') ? '(ajv stub)' : 'src (project)';
}

async function bundle(entry, outfile, extra = {}) {
  const r = await esbuild.build({
    ...PROJECT_OPTIONS,
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    metafile: true,
    sourcemap: false,
    ...extra,
  });
  const out = r.metafile.outputs[path.relative(ROOT, outfile)] ?? Object.values(r.metafile.outputs)[0];
  const byPackage = {};
  for (const [input, v] of Object.entries(out.inputs))
    byPackage[packageOf(input)] = (byPackage[packageOf(input)] ?? 0) + v.bytesInOutput;
  return { bytes: fs.statSync(outfile).size, gzip: zlib.gzipSync(fs.readFileSync(outfile)).length, byPackage };
}

/** What the production build put in dist/<bundle>.js, by package (esbuild.mjs writes the metafiles). */
function shippedByPackage(name) {
  const file = path.join(ROOT, 'out', `${name}.meta.json`);
  if (!fs.existsSync(file)) return undefined;
  const out = JSON.parse(fs.readFileSync(file, 'utf8')).outputs[`dist/${name}.js`];
  const byPackage = {};
  for (const [input, v] of Object.entries(out?.inputs ?? {}))
    byPackage[packageOf(input)] = (byPackage[packageOf(input)] ?? 0) + v.bytesInOutput;
  return byPackage;
}

export async function run() {
  const rows = [];
  const notes = [];
  const data = {};
  const ext = path.join(ROOT, 'dist', 'extension.js');
  const vsix = path.join(ROOT, 'dist', 'mcp-prompts.vsix');
  // The .vsix of this build, packed as `npm run package` packs it (run.mjs built the bundles already).
  fs.rmSync(vsix, { force: true });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const packed = await runProcess(process.execPath, [vsce, 'package', '--no-dependencies', '-o', vsix], {
    timeoutMs: 180000,
  });
  if (packed.code !== 0)
    throw new Error(
      `vsce package failed (exit ${packed.code}): ${packed.stderr.trim().split('\n').slice(-3).join(' ')}`,
    );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-size-'));
  try {
    // Baseline: a bundle of just the SDK client pieces the core uses, built the same way.
    const sdkEntry = path.join(BENCH, '.out', 'sdk-client-entry.mjs');
    fs.writeFileSync(
      sdkEntry,
      [
        "export { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';",
        "export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';",
        "export { PromptSchema } from '@modelcontextprotocol/core';",
      ].join('\n'),
    );
    const sdk = await bundle(sdkEntry, path.join(tmp, 'sdk.js'));
    // The shipped build stubs the client's shims (esbuild.mjs); `full` is the bundle without that stub.
    const full = await bundle('src/extension.ts', path.join(tmp, 'extension.js'), { external: ['vscode'] });
    const trimmed = await bundle('src/extension.ts', path.join(tmp, 'extension-trimmed.js'), {
      external: ['vscode'],
      plugins: [stubAjv],
    });
    const sdkTrimmed = await bundle(sdkEntry, path.join(tmp, 'sdk-trimmed.js'), { plugins: [stubAjv] });
    await bundle('src/cli.ts', path.join(tmp, 'cli-trimmed.js'), { plugins: [stubAjv] });

    // Does the trimmed build still work? The CLI bundled the same way lists and gets from the rich fixture.
    const { command, args } = fixtureCommand('rich');
    const config = path.join(tmp, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { rich: { command, args } } }));
    const list = await runProcess(process.execPath, [path.join(tmp, 'cli-trimmed.js'), 'list', '--config', config], {
      cwd: tmp,
      timeoutMs: 30000,
    });
    const get = await runProcess(
      process.execPath,
      [path.join(tmp, 'cli-trimmed.js'), 'get', 'rich.code_review', 'code=x=1', 'language=python', '--config', config],
      { cwd: tmp, timeoutMs: 30000 },
    );
    const works = list.code === 0 && /rich\.code_review/.test(list.stdout) && get.code === 0 && /x=1/.test(get.stdout);

    const extBytes = fs.statSync(ext).size;
    const extGzip = zlib.gzipSync(fs.readFileSync(ext)).length;
    // The SDK client, its schemas and zod: a bundle of their own, shared by the extension and the CLI (esbuild.mjs).
    const protocolBytes = fs.statSync(path.join(ROOT, 'dist', 'protocol.js')).size;
    const cliBytes = fs.statSync(path.join(ROOT, 'dist', 'cli.js')).size;
    const shipped = shippedByPackage('extension');
    const vsixBytes = fs.statSync(vsix).size;
    rows.push(
      row(
        'dist/extension.js (minified)',
        extBytes / KB,
        sdk.bytes / KB,
        'KB',
        { abs: 450 },
        `gzip ${(extGzip / KB).toFixed(0)} KB; baseline = SDK client alone (Client + stdio/HTTP/SSE transports) bundled the same way`,
      ),
    );
    rows.push(
      row(
        'dist/protocol.js (SDK client, schemas, zod; loaded on first connect)',
        protocolBytes / KB,
        sdk.bytes / KB,
        'KB',
        undefined,
        'not read at activation; baseline = the SDK client alone; the names the extension and the CLI use, nothing else',
      ),
      row('dist/cli.js (loads dist/protocol.js)', cliBytes / KB, undefined, 'KB', undefined),
    );
    rows.push(
      row(
        'dist/mcp-prompts.vsix',
        vsixBytes / KB,
        undefined,
        'KB',
        { abs: 275 },
        `packed from this build; holds dist/extension.js and dist/protocol.js, not dist/cli.js`,
      ),
    );
    rows.push(
      row(
        'one bundle (SDK not split off), ajv stubbed',
        trimmed.bytes / KB,
        full.bytes / KB,
        'KB',
        undefined,
        `baseline = the same build untrimmed; saves ${((full.bytes - trimmed.bytes) / KB).toFixed(0)} KB (gzip ${((full.gzip - trimmed.gzip) / KB).toFixed(0)} KB); SDK client alone trimmed: ${(sdkTrimmed.bytes / KB).toFixed(0)} KB; trimmed CLI list+get against rich fixture: ${works ? 'OK' : 'FAILED'}`,
      ),
    );
    if (!works)
      notes.push(
        `trimmed CLI failed: list exit ${list.code} ${list.stderr.slice(0, 300)} / get exit ${get.code} ${get.stderr.slice(0, 300)}`,
      );

    const gone = Object.keys(full.byPackage).filter(p => !(p in trimmed.byPackage));
    const top = Object.entries(full.byPackage).sort((a, b) => b[1] - a[1]);
    const shown = top
      .slice(0, 12)
      .map(([p, b]) => `${p} ${(b / KB).toFixed(1)}`)
      .join(', ');
    const rest = top.slice(12).reduce((n, [, b]) => n + b, 0);
    notes.push(`one bundle by package (KB in the minified output): ${shown}, others ${(rest / KB).toFixed(1)}`);
    for (const name of ['extension', 'protocol']) {
      const by = shippedByPackage(name);
      if (by)
        notes.push(
          `dist/${name}.js by package (KB, from out/${name}.meta.json): ${Object.entries(by)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 10)
            .map(([p, b]) => `${p} ${(b / KB).toFixed(1)}`)
            .join(', ')}`,
        );
    }
    notes.push(
      `the ajv stub removes ${((full.bytes - trimmed.bytes) / KB).toFixed(0)} KB${gone.length ? ` (${gone.map(p => `${p} ${(full.byPackage[p] / KB).toFixed(1)}`).join(', ')} KB)` : ''}: the v2 client bundles ajv in its own dist and reaches it only through @modelcontextprotocol/client/_shims (DefaultJsonSchemaValidator, for tool output schemas, built lazily); the shipped build stubs that module`,
    );
    Object.assign(data, {
      extensionBytes: extBytes,
      extensionGzipBytes: extGzip,
      protocolBytes,
      cliBytes,
      shippedByPackage: shipped,
      vsixBytes,
      metafileBytes: full.bytes,
      gzipBytes: full.gzip,
      sdkClientBytes: sdk.bytes,
      trimmedBytes: trimmed.bytes,
      trimmedGzipBytes: trimmed.gzip,
      sdkClientTrimmedBytes: sdkTrimmed.bytes,
      trimmedWorks: works,
      byPackage: full.byPackage,
      trimmedByPackage: trimmed.byPackage,
      removedByStub: gone,
    });
  } finally {
    await esbuild.stop(); // the esbuild service is a child process too
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { rows, data, notes };
}

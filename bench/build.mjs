// Bundles bench/core-entry.ts (the project's core plus the SDK, zod, ...) into bench/.out/core.cjs
// with the options of /work/main/esbuild.mjs (bundle, node, cjs, minified, SDK's CJS build).
//   node bench/build.mjs
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH, '..');
export const OUT = path.join(BENCH, '.out');

/** Options of the project's build (esbuild.mjs `common`, production). */
export const PROJECT_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
  mainFields: ['module', 'main'],
  conditions: ['require'],
};

export async function buildCore() {
  const outfile = path.join(OUT, 'core.cjs');
  await esbuild.build({
    ...PROJECT_OPTIONS,
    absWorkingDir: ROOT,
    entryPoints: [path.join(BENCH, 'core-entry.ts')],
    outfile,
    sourcemap: false,
  });
  return outfile;
}

/**
 * ValueRows from the shipped source (src/ui/argument-input.ts), bundled with the project's options.
 * That file imports `vscode`, which plain Node cannot load; ValueRows uses it only for types, so the
 * import is marked free of side effects and tree-shaken away. If ValueRows ever uses `vscode` at run
 * time, the bundle keeps a module that throws on load: the bench fails instead of measuring a copy.
 */
export async function buildArgumentRows() {
  const outfile = path.join(OUT, 'argument-rows.cjs');
  const noVscode = {
    name: 'no-vscode',
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, () => ({ path: 'vscode', namespace: 'no-vscode', sideEffects: false }));
      build.onLoad({ filter: /.*/, namespace: 'no-vscode' }, () => ({
        contents: 'throw new Error("bench: ValueRows now needs vscode at run time; move what it needs to src/core")',
        loader: 'js',
      }));
    },
  };
  await esbuild.build({
    ...PROJECT_OPTIONS,
    absWorkingDir: ROOT,
    outfile,
    sourcemap: false,
    plugins: [noVscode],
    // The rest of the file uses vscode (the input itself); only ValueRows is kept.
    logOverride: { 'import-is-undefined': 'silent' },
    stdin: {
      contents: "export { ValueRows } from './src/ui/argument-input';",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'argument-rows-entry.ts',
    },
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildCore());
  console.log(await buildArgumentRows());
}

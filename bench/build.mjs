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

/** ValueRows from the shipped source (src/core/view/value-rows.ts), bundled with the project's options. */
export async function buildArgumentRows() {
  const outfile = path.join(OUT, 'argument-rows.cjs');
  await esbuild.build({
    ...PROJECT_OPTIONS,
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, 'src', 'core', 'view', 'value-rows.ts')],
    outfile,
    sourcemap: false,
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildCore());
  console.log(await buildArgumentRows());
}

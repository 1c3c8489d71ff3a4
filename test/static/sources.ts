// The files the static checks read: the repository root and every TypeScript source under a folder.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '..', '..', '..');

/** Every .ts file under `dir`, recursively. */
export function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(e =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

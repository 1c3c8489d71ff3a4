// Which server files the CLI reads: the one `--config` names, or, without it, a folder's servers where
// VS Code keeps them (docs/vscode-versions.md): the working folder's .vscode/mcp.json, then its root
// .mcp.json, and the user's portable $COPILOT_HOME/mcp-config.json. The files the user points the CLI
// at are trusted: their servers start.
import fs from 'node:fs';
import { ConfigError, formatOfFile, parseConfigText, type ConfigFormat } from '../core/config/config.js';
import { homeRelative, userPortableFile } from '../core/config/config-locations.js';
import type { ConfigSource } from '../core/config/server-merge.js';
import type { Platform } from '../core/platform.js';

export interface CliSources {
  sources: ConfigSource[];
  /** `${workspaceFolder}` and the working folder of the servers. */
  workspaceFolder: string;
  /** What was read, when the user named no file: for the line that says so. */
  read?: string[];
}

interface Candidate {
  kind: 'user' | 'workspace';
  /** As the line names it: relative to the working folder, or under `~`. */
  label: string;
  path: string;
  format: ConfigFormat;
}

/** The sources of `--config FILE`, or of the working folder and the user's portable file. */
export function cliSources(config: string | undefined, cwd: string, platform: Platform): CliSources {
  const p = platform.path;
  if (config !== undefined) {
    const file = p.resolve(cwd, config);
    const text = readConfig(file, config);
    const workspaceFolder = p.basename(p.dirname(file)) === '.vscode' ? p.dirname(p.dirname(file)) : p.dirname(file);
    const parsed = parseConfigText(text, 'workspace', config, formatOfFile(file));
    return {
      sources: [{ kind: 'workspace', label: config, folder: workspaceFolder, config: parsed }],
      workspaceFolder,
    };
  }
  const user = userPortableFile(platform).path;
  const candidates: Candidate[] = [
    {
      kind: 'workspace',
      label: p.join('.vscode', 'mcp.json'),
      path: p.join(cwd, '.vscode', 'mcp.json'),
      format: 'vscode',
    },
    { kind: 'workspace', label: '.mcp.json', path: p.join(cwd, '.mcp.json'), format: 'portable' },
    { kind: 'user', label: homeRelative(user, platform), path: user, format: 'portable' },
  ];
  const sources: ConfigSource[] = [];
  for (const c of candidates) {
    if (!fs.existsSync(c.path)) continue;
    const parsed = parseConfigText(readConfig(c.path, c.label), c.kind, c.label, c.format);
    sources.push({ kind: c.kind, label: c.label, folder: c.kind === 'workspace' ? cwd : undefined, config: parsed });
  }
  if (!sources.length)
    throw new ConfigError(
      `no servers here: none of ${candidates.map(c => c.label).join(', ')} exists (or name one with --config FILE)`,
    );
  return { sources, workspaceFolder: cwd, read: sources.map(s => s.label) };
}

function readConfig(file: string, label: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config ${label}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

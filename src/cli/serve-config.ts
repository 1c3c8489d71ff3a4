// Which servers `mcp-prompts serve` offers: those of the files named with --config, or else the user's own
// files (VS Code's user mcp.json, the Copilot home's mcp-config.json). A file of the folder the agent runs
// in (.vscode/mcp.json, .mcp.json) is read only when named: the gateway starts with whatever folder the
// agent was opened on, and a repository must not make it start servers. The files are read by the same
// rules as the other commands (core/config: the merge, `${input:…}` from MCP_PROMPTS_INPUT_<ID>); a
// server that cannot start from them (an input with no value, the gateway itself) is held back and named.
import fs from 'node:fs';
import { ConfigError, parseConfigText, type ServerDefinition } from '../core/config/config.js';
import { substituteVariables } from '../core/config/substitute-variables.js';
import { planServers, type ConfigSource } from '../core/config/server-merge.js';
import { envValue, type Platform } from '../core/platform.js';

/** Set in the environment of every server the gateway starts: a gateway started by a gateway refuses to serve. */
export const GATEWAY_ENV = 'MCP_PROMPTS_GATEWAY';

export interface GatewayFile {
  path: string;
  /** `user`: one of the user's own files (skipped when missing); `named`: given with --config (must exist). */
  kind: 'user' | 'named';
}

/** A configured server the gateway does not start, and why (one line naming it). */
export interface HeldServer {
  name: string;
  message: string;
}

export interface GatewayServers {
  defs: ServerDefinition[];
  held: HeldServer[];
  /** Problems of the files (a malformed entry): one stderr line each. */
  problems: string[];
}

/** The files named with --config, or the user's own files when none is named. */
export function gatewayFiles(named: readonly string[], platform: Platform): GatewayFile[] {
  if (named.length) return named.map(p => ({ path: platform.path.resolve(p), kind: 'named' }));
  const { path: p, home } = platform;
  const config =
    platform.os === 'win32'
      ? envValue(platform, 'APPDATA') || p.join(home, 'AppData', 'Roaming')
      : platform.os === 'darwin'
        ? p.join(home, 'Library', 'Application Support')
        : envValue(platform, 'XDG_CONFIG_HOME') || p.join(home, '.config');
  const copilot = envValue(platform, 'COPILOT_HOME') || p.join(home, '.copilot');
  return [
    { path: p.join(config, 'Code', 'User', 'mcp.json'), kind: 'user' },
    { path: p.join(copilot, 'mcp-config.json'), kind: 'user' },
  ];
}

/**
 * The servers of `files`, substituted and marked; a named file that cannot be read is a ConfigError. `self` is
 * the path of the running CLI: an entry that starts it with `serve` is the gateway itself and is held back.
 */
export async function readGatewayServers(
  files: readonly GatewayFile[],
  platform: Platform,
  self: string,
): Promise<GatewayServers> {
  const sources: ConfigSource[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file.path, 'utf8');
    } catch (err) {
      if (file.kind === 'user') continue;
      throw new ConfigError(`cannot read config ${file.path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    const kind = file.kind === 'user' ? 'user' : 'workspace';
    sources.push({
      kind,
      label: file.path,
      folder: folderOf(file.path, platform),
      config: parseConfigText(text, kind, file.path),
    });
  }
  if (!sources.length)
    throw new ConfigError(
      `no server file: none of ${files.map(f => f.path).join(', ')} exists; name one with --config FILE`,
    );
  // The user named these files or they are the user's own: their servers may start.
  const plan = planServers(sources, { trusted: true, platform });
  const out: GatewayServers = { defs: [], held: [], problems: plan.problems.map(p => p.message) };
  for (const h of plan.held) out.held.push({ name: h.def.name, message: h.message });
  for (const { def, source } of plan.run) {
    if (isGateway(def, self, platform)) {
      out.held.push({ name: def.name, message: `${def.name} is mcp-prompts serve itself: not started` });
      continue;
    }
    try {
      const vars = { workspaceFolder: source.kind === 'workspace' ? source.folder : undefined, platform };
      out.defs.push(marked(await substituteVariables(def, vars, source.config.inputs, inputFromEnv(platform))));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      out.held.push({ name: def.name, message: inputAdvice(err) });
    }
  }
  return out;
}

/** The workspace folder of a named file: the folder holding `.vscode/`, else the file's folder (as the CLI's). */
function folderOf(file: string, platform: Platform): string {
  const dir = platform.path.dirname(file);
  return platform.path.basename(dir) === '.vscode' ? platform.path.dirname(dir) : dir;
}

/** `${input:ID}` from MCP_PROMPTS_INPUT_<ID>, else the input's default: nothing can be asked here. */
function inputFromEnv(platform: Platform) {
  return async (input: { default?: string } | undefined, id: string) =>
    envValue(platform, inputVariable(id)) ?? input?.default;
}

function inputVariable(id: string): string {
  return `MCP_PROMPTS_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** "Server "team": no value for ${input:token}" and where the value goes. */
function inputAdvice(err: ConfigError): string {
  if (!err.field) return err.message;
  return `${err.message}; set ${inputVariable(err.field)} in the environment of mcp-prompts serve (the "env" of its entry)`;
}

/** An entry that runs `mcp-prompts serve`: this very CLI, its bin, or a dist/cli.js of an mcp-prompts folder. */
function isGateway(def: ServerDefinition, self: string, platform: Platform): boolean {
  const t = def.transport;
  if (t.type !== 'stdio' || !t.args.includes('serve')) return false;
  const from = t.cwd ?? def.defaultCwd ?? platform.home;
  return [t.command, ...t.args].some(
    s =>
      platform.path.resolve(from, s) === self ||
      /(^|[\\/])mcp-prompts(\.cmd)?$/.test(s) ||
      /mcp-prompts[^\\/]*[\\/]dist[\\/]cli\.js$/.test(s),
  );
}

/** The definition with the gateway's mark in a stdio server's environment. */
function marked(def: ServerDefinition): ServerDefinition {
  const t = def.transport;
  return t.type === 'stdio' ? { ...def, transport: { ...t, env: { ...t.env, [GATEWAY_ENV]: '1' } } } : def;
}

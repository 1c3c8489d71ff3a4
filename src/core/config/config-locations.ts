// Where server definitions live outside our own setting: VS Code's user-profile mcp.json, found from the
// extension's global storage, the portable files VS Code 1.140 writes (the workspace-root .mcp.json and
// the Copilot CLI's mcp-config.json), and the files of other MCP clients that discovery reads in place.
// Pure path arithmetic and parsing; the edge reads and watches the files.
import * as l10n from '@vscode/l10n';
import { ConfigError, parseConfigObject, parseJsonc, type ServerConfig } from './config.js';
import { envValue, type Platform } from '../platform.js';

/**
 * The profile folder holding settings.json and mcp.json, from the extension's `globalStorageUri` path:
 * VS Code puts global storage at `<profile>/globalStorage/<extension id>`, where `<profile>` is the `User`
 * folder for the default profile and `User/profiles/<id>` for any other (profile.mcpResource is
 * `<profile>/mcp.json` in both). Works on a URI's path whatever its scheme (file, vscode-userdata, remote).
 * Undefined when the path does not have that shape, so a future layout is not guessed at.
 */
export function profileFolderOf(globalStoragePath: string): string | undefined {
  const parts = globalStoragePath.replace(/[\\/]+$/, '').split(/[\\/]/);
  if (parts.length < 3 || parts[parts.length - 2] !== 'globalStorage' || !parts[parts.length - 1]) return undefined;
  return parts.slice(0, -2).join(globalStoragePath.includes('/') ? '/' : '\\');
}

/**
 * The Copilot CLI's folder, where VS Code 1.140 keeps the user's portable servers (mcp-config.json):
 * `$COPILOT_HOME`, else `~/.copilot` (VS Code's getGlobalMcpConfigurationResource).
 */
export function copilotHome(platform: Platform): string {
  return envValue(platform, 'COPILOT_HOME') || platform.path.join(platform.home, '.copilot');
}

/** `~/.cursor/mcp.json` (`~\.cursor\mcp.json` on Windows) for a file in the home folder; others in full. */
export function homeRelative(file: string, platform: Platform): string {
  const inside = platform.path.relative(platform.home, file);
  return inside && !inside.startsWith('..') && !platform.path.isAbsolute(inside)
    ? `~${platform.path.sep}${inside}`
    : file;
}

/** The user's portable file, `$COPILOT_HOME/mcp-config.json` (each folder's root .mcp.json is the workspace's). */
export function userPortableFile(platform: Platform): { kind: 'user'; path: string } {
  return { kind: 'user', path: platform.path.join(copilotHome(platform), 'mcp-config.json') };
}

/** The other clients whose files discovery can read; `mcpPrompts.discovery` has one switch each. */
export const DISCOVERY_SOURCES = ['claudeDesktop', 'claudeCode', 'cursor', 'windsurf'] as const;
export type DiscoverySource = (typeof DISCOVERY_SOURCES)[number];
export type DiscoverySwitches = Record<DiscoverySource, boolean>;

/**
 * Which discovery sources are on. Only the user's own value counts (`inspect().globalValue`): a
 * workspace is hostile until trusted, and must not make us read and start what other clients configured.
 */
export function discoverySwitches(
  inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): DiscoverySwitches {
  const value = inspected?.globalValue;
  const on = (k: DiscoverySource) =>
    typeof value === 'object' && value !== null && (value as Record<string, unknown>)[k] === true;
  return {
    claudeDesktop: on('claudeDesktop'),
    claudeCode: on('claudeCode'),
    cursor: on('cursor'),
    windsurf: on('windsurf'),
  };
}

export interface DiscoveryFile {
  source: DiscoverySource;
  /** Home-folder files are the user's; files inside a workspace folder are the workspace's (trust, consent). */
  kind: 'user' | 'workspace';
  path: string;
  /** Where the same file is when `path` does not exist, in order (Claude Desktop's classic Windows install). */
  fallbacks?: readonly string[];
  /** The workspace folder of a workspace file. */
  folder?: string;
}

export interface DiscoveryEnv {
  /** Whose home folder and environment (%APPDATA%, %LOCALAPPDATA%, $XDG_CONFIG_HOME) the files are under. */
  platform: Platform;
  folders: readonly string[];
}

/**
 * The Microsoft Store / MSIX package of Claude Desktop, the default Windows install since 2026: the app
 * reads its file inside the package's own copy of %APPDATA% (`Claude_pzs8sxrjxfjjc` is its package family
 * name, fixed by the publisher), so a file left in %APPDATA%\Claude by an older install is not the one used.
 */
const CLAUDE_MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

/** Claude Desktop's file: the folder each platform's app uses (Windows: the MSIX one first, then the classic one). */
function claudeDesktopFiles(platform: Platform): string[] {
  const { path: p, home } = platform;
  const file = 'claude_desktop_config.json';
  if (platform.os === 'darwin') return [p.join(home, 'Library', 'Application Support', 'Claude', file)];
  if (platform.os === 'win32') {
    const local = envValue(platform, 'LOCALAPPDATA') || p.join(home, 'AppData', 'Local');
    const roaming = envValue(platform, 'APPDATA') || p.join(home, 'AppData', 'Roaming');
    return [
      p.join(local, 'Packages', CLAUDE_MSIX_PACKAGE, 'LocalCache', 'Roaming', 'Claude', file),
      p.join(roaming, 'Claude', file),
    ];
  }
  // No official Linux app: the community builds follow the XDG rule.
  return [p.join(envValue(platform, 'XDG_CONFIG_HOME') || p.join(home, '.config'), 'Claude', file)];
}

/** Every file an enabled discovery source reads, in precedence order (earlier wins a name clash). */
export function discoveryFiles(env: DiscoveryEnv, on: DiscoverySwitches): DiscoveryFile[] {
  const { path: p, home } = env.platform;
  const files: DiscoveryFile[] = [];
  if (on.claudeDesktop) {
    const [path, ...fallbacks] = claudeDesktopFiles(env.platform);
    files.push({ source: 'claudeDesktop', kind: 'user', path, ...(fallbacks.length ? { fallbacks } : {}) });
  }
  // A folder's .mcp.json, Claude Code's project file, is read without discovery: VS Code reads it too.
  if (on.claudeCode) files.push({ source: 'claudeCode', kind: 'user', path: p.join(home, '.claude.json') });
  if (on.cursor) {
    files.push({ source: 'cursor', kind: 'user', path: p.join(home, '.cursor', 'mcp.json') });
    for (const folder of env.folders)
      files.push({ source: 'cursor', kind: 'workspace', path: p.join(folder, '.cursor', 'mcp.json'), folder });
  }
  if (on.windsurf)
    files.push({ source: 'windsurf', kind: 'user', path: p.join(home, '.codeium', 'windsurf', 'mcp_config.json') });
  return files;
}

/** Every place a discovered file may be, in order of preference: each is watched, so one that appears is read. */
export function placesOf(file: DiscoveryFile): string[] {
  return [file.path, ...(file.fallbacks ?? [])];
}

/**
 * The place of a discovered file that discovery reads and Import offers: the first of its places that
 * exists (on Windows Claude Desktop's MSIX file, else the classic one), else the first place, where
 * the app itself would write it. `exists` is the edge's file check.
 */
export async function chosenPlace(file: DiscoveryFile, exists: (path: string) => Promise<boolean>): Promise<string> {
  // A file with one place is read there (a missing one simply is not there): no check to make.
  if (!file.fallbacks?.length) return file.path;
  for (const place of placesOf(file)) if (await exists(place)) return place;
  return file.path;
}

/** The servers of one discovered file, and the names its own client has switched off. */
export interface DiscoveredConfig {
  config: ServerConfig;
  disabled: string[];
}

/**
 * Reads another client's file. All of them keep `mcpServers`; Windsurf names a remote server's address
 * `serverUrl`; `~/.claude.json` also keeps per-project servers under `projects[<folder>]`, and the names of
 * the project `.mcp.json` servers the user turned off there (`disabledMcpjsonServers`), which `claudeProjects`
 * returns for the workspace files. A `"disabled": true` entry (Windsurf, Cursor) stays listed but off.
 */
export function parseDiscoveredText(
  file: DiscoveryFile,
  text: string,
  origin: string,
  env?: DiscoveryEnv,
): DiscoveredConfig {
  const value = parseJsonc(text, origin);
  if (!isObject(value)) throw new ConfigError(l10n.t('{0}: expected an object with "servers" or "mcpServers"', origin));
  let raw: Record<string, unknown> = isObject(value.mcpServers) ? { ...value.mcpServers } : {};
  if (file.source === 'claudeCode' && file.kind === 'user') {
    // Per-project ("local scope") servers of the open folders are the user's own, kept in the home file.
    if (env) for (const project of claudeProjects(value, env)) Object.assign(raw, project.mcpServers);
  }
  if (file.source === 'windsurf') {
    raw = Object.fromEntries(
      Object.entries(raw).map(([name, e]) => [
        name,
        isObject(e) && e.url === undefined && typeof e.serverUrl === 'string'
          ? { ...e, url: e.serverUrl, serverUrl: undefined }
          : e,
      ]),
    );
  }
  return { config: parseConfigObject({ mcpServers: raw }, file.kind, origin), disabled: disabledEntries(raw) };
}

/** Names of entries marked `"disabled": true` (Windsurf, Cursor, and any mcp.json that carries it). */
export function disabledEntries(servers: unknown): string[] {
  if (!isObject(servers)) return [];
  return Object.entries(servers)
    .filter(([, e]) => isObject(e) && e.disabled === true)
    .map(([name]) => name);
}

/**
 * A folder as Claude Code's project keys spell it, for comparison: Windows keys use `/` and either case
 * of the drive letter (`C:/ws` for VS Code's `c:\ws`) and Windows and macOS file names ignore case;
 * a trailing separator does not count.
 */
export function projectKey(folder: string, platform: Platform): string {
  const key = platform.os === 'win32' ? folder.replace(/\\/g, '/') : folder;
  const bare = key.replace(/(?<!^|:)\/+$/, '');
  return platform.os === 'win32' || platform.os === 'darwin' ? bare.normalize('NFC').toLowerCase() : bare;
}

/**
 * `~/.claude.json` projects of the open folders: their own servers and the `.mcp.json` names turned off,
 * keyed by the open folder's own path. One folder written several ways (Claude Code keeps each spelling
 * it was started from) gets all of them.
 */
export function claudeProjects(
  value: unknown,
  env: DiscoveryEnv,
): { folder: string; mcpServers: Record<string, unknown>; disabledMcpjson: string[] }[] {
  if (!isObject(value) || !isObject(value.projects)) return [];
  const names = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const out = [];
  for (const folder of env.folders) {
    const key = projectKey(folder, env.platform);
    const mcpServers: Record<string, unknown> = {};
    const disabledMcpjson: string[] = [];
    let found = false;
    for (const [written, p] of Object.entries(value.projects)) {
      if (!isObject(p) || projectKey(written, env.platform) !== key) continue;
      found = true;
      if (isObject(p.mcpServers)) Object.assign(mcpServers, p.mcpServers);
      disabledMcpjson.push(...names(p.disabledMcpjsonServers), ...names(p.disabledMcpServers));
    }
    if (found) out.push({ folder, mcpServers, disabledMcpjson });
  }
  return out;
}

/** The `mcp` section of a .code-workspace file: under `settings` where VS Code keeps it, or at the top level. */
export function workspaceFileMcp(text: string, origin: string): unknown {
  const value = parseJsonc(text, origin);
  if (!isObject(value)) return undefined;
  if (isObject(value.settings) && isObject(value.settings.mcp)) return value.settings.mcp;
  return isObject(value.mcp) ? value.mcp : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

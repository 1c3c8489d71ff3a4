// Reads every configuration source of the window: the user profile's mcp.json (VS Code's own global
// servers), the user's portable mcp-config.json, each folder's .vscode/mcp.json and root .mcp.json, the
// `mcp` section of a .code-workspace file, the setting mcpPrompts.servers per level, and the other
// clients' files that discovery is switched on for. A
// workspace's value of the setting (its settings.json or .code-workspace file) is workspace-defined,
// exactly like its mcp.json; only the user's own places are the user's.
// Which of them run, and why the others do not, is core/server-merge.ts (shared with the CLI).
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { parseConfigObject, parseConfigText, type ConfigFormat } from '../core/config/config';
import {
  chosenPlace,
  claudeProjects,
  disabledEntries,
  discoveryFiles,
  homeRelative,
  parseDiscoveredText,
  profileFolderOf,
  userPortableFile,
  workspaceFileMcp,
  type DiscoveryEnv,
  type DiscoveryFile,
  type DiscoverySource,
} from '../core/config/config-locations';
import type { ConfigProblemEntry, ConfigSource } from '../core/config/server-merge';
import type { Platform } from '../core/platform';
import { inspectServers, readDiscovery } from '../settings';

export interface ReadSources {
  sources: ConfigSource[];
  problems: ConfigProblemEntry[];
  retry: boolean;
}

/**
 * Each mcp.json's (and .code-workspace file's) servers as last read whole, by source key. A file caught
 * mid-write, or mid-edit with auto-save, reads as empty or broken: its problem is reported and its
 * servers stay as they were, rather than stopping and coming back on demand once it reads whole again.
 */
export type LastGoodSources = Map<string, ConfigSource>;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The user profile's mcp.json: two levels above the extension's global storage (see profileFolderOf). */
export function profileMcpJson(globalStorageUri: vscode.Uri): vscode.Uri | undefined {
  const folder = profileFolderOf(globalStorageUri.path);
  return folder === undefined ? undefined : globalStorageUri.with({ path: `${folder}/mcp.json` });
}

/** The extension host's platform and the window's local folders: where discovered files are. */
function discoveryEnv(platform: Platform): DiscoveryEnv {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  return { platform, folders };
}

/** Every file discovery reads now, as paths in the extension host's file system. */
export function discoveredFiles(platform: Platform): DiscoveryFile[] {
  return discoveryFiles(discoveryEnv(platform), readDiscovery());
}

const DISCOVERY_LABEL: Record<DiscoverySource, () => string> = {
  claudeDesktop: () => vscode.l10n.t('Claude Desktop'),
  claudeCode: () => vscode.l10n.t('Claude Code'),
  cursor: () => vscode.l10n.t('Cursor'),
  windsurf: () => vscode.l10n.t('Windsurf'),
};

type Read = { text: string } | { missing: true } | { failed: true };

async function readText(uri: vscode.Uri): Promise<Read> {
  try {
    return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
  } catch (err) {
    return err instanceof vscode.FileSystemError && err.code === 'FileNotFound' ? { missing: true } : { failed: true };
  }
}

/** `retry`: a file could not be read for a reason other than its absence (early in a remote window). */
export async function readConfigSources(
  platform: Platform,
  globalStorageUri?: vscode.Uri,
  lastGood: LastGoodSources = new Map(),
): Promise<ReadSources> {
  const read: ReadSources = { sources: [], problems: [], retry: false };
  const profile = globalStorageUri && profileMcpJson(globalStorageUri);
  const label = vscode.l10n.t('user profile mcp.json');
  if (profile) await readMcpJson(read, lastGood, profile, 'user', label, 'profile');
  const copilot = userPortableFile(platform).path;
  const copilotLabel = homeRelative(copilot, platform);
  await readMcpJson(
    read,
    lastGood,
    vscode.Uri.file(copilot),
    'user',
    copilotLabel,
    'portable:user',
    undefined,
    'portable',
  );
  // VS Code's order: every folder's .vscode/mcp.json, then every folder's root .mcp.json.
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    const relative = vscode.workspace.asRelativePath(uri);
    await readMcpJson(read, lastGood, uri, 'workspace', relative, uri.toString(), folder.uri.fsPath);
  }
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, '.mcp.json');
    const relative = vscode.workspace.asRelativePath(uri);
    await readMcpJson(read, lastGood, uri, 'workspace', relative, uri.toString(), folder.uri.fsPath, 'portable');
  }
  await readWorkspaceFile(read, lastGood);
  readSettings(read);
  read.sources.push(...(await readDiscovered(read, platform)));
  return read;
}

/** The folder a `.code-workspace` file's settings belong to: the file's own, else the first folder's. */
function settingsFolder(): string | undefined {
  const file = vscode.workspace.workspaceFile;
  return file?.scheme === 'file' ? path.dirname(file.fsPath) : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/**
 * One mcp.json: the profile's or a folder's `.vscode/mcp.json`, or a portable file (the user's
 * mcp-config.json, a folder's `.mcp.json`); a missing file is no source.
 */
function readMcpJson(
  into: ReadSources,
  lastGood: LastGoodSources,
  uri: vscode.Uri,
  kind: 'user' | 'workspace',
  label: string,
  key: string,
  folder?: string,
  format: ConfigFormat = 'vscode',
): Promise<void> {
  return readSource(into, lastGood, uri, key, label, text => ({
    kind,
    label,
    key,
    folder,
    config: parseConfigText(text, kind, label, format),
    disabled: disabledOf(text, format === 'portable' ? 'mcpServers' : 'servers'),
  }));
}

/** The `mcp` section of the open `.code-workspace` file. */
async function readWorkspaceFile(into: ReadSources, lastGood: LastGoodSources): Promise<void> {
  const file = vscode.workspace.workspaceFile;
  if (!file || file.scheme === 'untitled') return;
  const label = path.posix.basename(file.path);
  const key = file.toString();
  await readSource(into, lastGood, file, key, label, text => {
    const section = workspaceFileMcp(text, label);
    if (section === undefined) return undefined;
    return {
      kind: 'workspace',
      label,
      key,
      folder: settingsFolder(),
      config: parseConfigObject(section, 'workspace', label),
      disabled: disabledEntries((section as { servers?: unknown }).servers),
    };
  });
}

/**
 * A file's source, parsed now and kept as its last good read; if it does not parse, its problem and that
 * last read. A missing file is no source (and forgets its last read); one that could not be read asks
 * for a retry.
 */
async function readSource(
  into: ReadSources,
  lastGood: LastGoodSources,
  uri: vscode.Uri,
  key: string,
  label: string,
  parse: (text: string) => ConfigSource | undefined,
): Promise<void> {
  const file = await readText(uri);
  if (!('text' in file)) {
    if ('failed' in file) into.retry = true;
    else lastGood.delete(key);
    return;
  }
  let source: ConfigSource | undefined;
  try {
    source = parse(file.text);
  } catch (err) {
    into.problems.push({ origin: label, message: message(err) });
    const kept = lastGood.get(key);
    if (kept) into.sources.push(kept);
    return;
  }
  if (source) {
    lastGood.set(key, source);
    into.sources.push(source);
  } else lastGood.delete(key);
}

/** `mcpPrompts.servers` in user, workspace and (in a multi-root window) folder settings. */
function readSettings(into: ReadSources): void {
  const add = (value: unknown, kind: 'user' | 'workspace', label: string, key: string, folder?: string) => {
    if (!value || typeof value !== 'object' || !Object.keys(value).length) return;
    try {
      into.sources.push({ kind, label, key, folder, config: parseConfigObject({ servers: value }, kind, label) });
    } catch (err) {
      into.problems.push({ origin: label, message: message(err) });
    }
  };
  const inspected = inspectServers();
  add(inspected.user, 'user', vscode.l10n.t('user settings'), 'settings');
  add(inspected.workspace, 'workspace', vscode.l10n.t('workspace settings'), 'settings:workspace', settingsFolder());
  if (!vscode.workspace.workspaceFile) return;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const label = vscode.l10n.t('folder settings of {0}', folder.name);
    add(inspectServers(folder.uri).folder, 'workspace', label, `settings:${folder.uri.toString()}`, folder.uri.fsPath);
  }
}

/** Whether a file is there: discovery and Import choose a discovered file's place by it. */
export async function fileExists(file: string): Promise<boolean> {
  return vscode.workspace.fs.stat(vscode.Uri.file(file)).then(
    () => true,
    () => false,
  );
}

/** The chosen place of a discovered file and its text; nothing when it is missing or unreadable. */
async function readChosen(file: DiscoveryFile): Promise<{ path: string; text: string } | undefined> {
  const place = await chosenPlace(file, fileExists);
  const read = await readText(vscode.Uri.file(place));
  return 'text' in read ? { path: place, text: read.text } : undefined;
}

/**
 * The files of other clients, read in place (never written); a missing file is simply not there. With
 * Claude Code's on, the `.mcp.json` servers the user turned off in Claude Code stay off here too.
 */
async function readDiscovered(into: ReadSources, platform: Platform): Promise<ConfigSource[]> {
  const { problems } = into;
  const sources: ConfigSource[] = [];
  const env = discoveryEnv(platform);
  const files = discoveryFiles(env, readDiscovery());
  // Claude Code keeps the names of the project .mcp.json servers the user turned off in ~/.claude.json.
  const claudeOff = new Map<string, string[]>();
  for (const file of files) {
    const read = await readChosen(file);
    if (!read) continue;
    const name = DISCOVERY_LABEL[file.source]();
    const where = file.kind === 'user' ? homeRelative(read.path, platform) : vscode.workspace.asRelativePath(read.path);
    const label = `${name} (${where})`;
    try {
      const { config, disabled } = parseDiscoveredText(file, read.text, label, env);
      if (file.source === 'claudeCode' && file.kind === 'user') {
        for (const p of claudeProjects(jsonc.parse(read.text), env)) claudeOff.set(p.folder, p.disabledMcpjson);
      }
      const key = `discovery:${file.source}:${file.path}`;
      sources.push({ kind: file.kind, label, key, folder: file.folder, config, disabled });
    } catch (err) {
      problems.push({ origin: label, message: message(err) });
    }
  }
  for (const [i, source] of into.sources.entries()) {
    const off =
      source.folder !== undefined && source.key === rootMcpJsonKey(source.folder)
        ? claudeOff.get(source.folder)
        : undefined;
    if (off?.length) into.sources[i] = { ...source, disabled: [...(source.disabled ?? []), ...off] };
  }
  return sources;
}

/** The source key of a folder's root .mcp.json. */
function rootMcpJsonKey(folder: string): string {
  return vscode.Uri.joinPath(vscode.Uri.file(folder), '.mcp.json').toString();
}

/** The names an mcp.json marks `"disabled": true` under `field`, if the text parses. */
function disabledOf(text: string, field: string): string[] {
  const value: unknown = jsonc.parse(text);
  return typeof value === 'object' && value !== null ? disabledEntries((value as Record<string, unknown>)[field]) : [];
}

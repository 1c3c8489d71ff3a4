// Reads every configuration source of the window: the user profile's mcp.json (VS Code's own global
// servers), each folder's .vscode/mcp.json, the `mcp` section of a .code-workspace file, the setting
// mcpPrompts.servers per level, and the other clients' files that discovery is switched on for. A
// workspace's value of the setting (its settings.json or .code-workspace file) is workspace-defined,
// exactly like its mcp.json; only the user's own places are the user's.
// Which of them run, and why the others do not, is core/server-merge.ts (shared with the CLI).
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { parseConfigObject, parseConfigText } from '../core/config/config';
import {
  claudeProjects,
  disabledEntries,
  discoveryFiles,
  parseDiscoveredText,
  profileFolderOf,
  workspaceFileMcp,
  type DiscoveryFile,
  type DiscoverySource,
} from '../core/config/config-locations';
import type { ConfigProblemEntry, ConfigSource } from '../core/config/server-merge';
import { inspectServers, readDiscovery } from '../settings';

export interface ReadSources {
  sources: ConfigSource[];
  problems: ConfigProblemEntry[];
  retry: boolean;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The user profile's mcp.json: two levels above the extension's global storage (see profileFolderOf). */
export function profileMcpJson(globalStorageUri: vscode.Uri): vscode.Uri | undefined {
  const folder = profileFolderOf(globalStorageUri.path);
  return folder === undefined ? undefined : globalStorageUri.with({ path: `${folder}/mcp.json` });
}

/** Every file discovery reads now, as URIs in the extension host's file system. */
export function discoveredFiles(): DiscoveryFile[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  const env = {
    platform: process.platform,
    home: os.homedir(),
    appData: process.env.APPDATA,
    xdgConfigHome: process.env.XDG_CONFIG_HOME,
    folders,
  };
  return discoveryFiles(env, readDiscovery());
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
export async function readConfigSources(globalStorageUri?: vscode.Uri): Promise<ReadSources> {
  const problems: ConfigProblemEntry[] = [];
  const sources: ConfigSource[] = [];
  let retry = false;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const profile = globalStorageUri && profileMcpJson(globalStorageUri);
  if (profile) {
    const read = await readText(profile);
    const label = vscode.l10n.t('user profile mcp.json');
    if ('text' in read) {
      try {
        const config = parseConfigText(read.text, 'user', label);
        sources.push({ kind: 'user', label, key: 'profile', config, disabled: disabledOf(read.text, 'servers') });
      } catch (err) {
        problems.push({ origin: label, message: message(err) });
      }
    } else if ('failed' in read) retry = true;
  }
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    const read = await readText(uri);
    if (!('text' in read)) {
      if ('failed' in read) retry = true;
      continue;
    }
    const origin = vscode.workspace.asRelativePath(uri);
    try {
      const config = parseConfigText(read.text, 'workspace', origin);
      const disabled = disabledOf(read.text, 'servers');
      sources.push({
        kind: 'workspace',
        label: origin,
        key: uri.toString(),
        folder: folder.uri.fsPath,
        config,
        disabled,
      });
    } catch (err) {
      problems.push({ origin, message: message(err) });
    }
  }
  const file = vscode.workspace.workspaceFile;
  const workspaceFile = file?.scheme === 'file' ? file.fsPath : undefined;
  const settingsFolder = workspaceFile ? path.dirname(workspaceFile) : folders[0]?.uri.fsPath;
  if (file && file.scheme !== 'untitled') {
    const read = await readText(file);
    const label = path.posix.basename(file.path);
    if ('text' in read) {
      try {
        const section = workspaceFileMcp(read.text, label);
        if (section !== undefined) {
          const config = parseConfigObject(section, 'workspace', label);
          sources.push({
            kind: 'workspace',
            label,
            key: file.toString(),
            folder: settingsFolder,
            config,
            disabled: disabledEntries((section as { servers?: unknown }).servers),
          });
        }
      } catch (err) {
        problems.push({ origin: label, message: message(err) });
      }
    } else if ('failed' in read) retry = true;
  }
  const addSetting = (value: unknown, kind: 'user' | 'workspace', label: string, key: string, folder?: string) => {
    if (!value || typeof value !== 'object' || !Object.keys(value).length) return;
    try {
      sources.push({ kind, label, key, folder, config: parseConfigObject({ servers: value }, kind, label) });
    } catch (err) {
      problems.push({ origin: label, message: message(err) });
    }
  };
  const inspected = inspectServers();
  addSetting(inspected.user, 'user', vscode.l10n.t('user settings'), 'settings');
  addSetting(
    inspected.workspace,
    'workspace',
    vscode.l10n.t('workspace settings'),
    'settings:workspace',
    settingsFolder,
  );
  if (vscode.workspace.workspaceFile) {
    for (const folder of folders) {
      const label = vscode.l10n.t('folder settings of {0}', folder.name);
      addSetting(
        inspectServers(folder.uri).folder,
        'workspace',
        label,
        `settings:${folder.uri.toString()}`,
        folder.uri.fsPath,
      );
    }
  }
  sources.push(...(await readDiscovered(problems)));
  return { sources, problems, retry };
}

/** The files of other clients, read in place (never written); a missing file is simply not there. */
async function readDiscovered(problems: ConfigProblemEntry[]): Promise<ConfigSource[]> {
  const sources: ConfigSource[] = [];
  const files = discoveredFiles();
  const folders = files.filter(f => f.kind === 'workspace').map(f => f.folder!);
  // Claude Code keeps the names of the project .mcp.json servers the user turned off in ~/.claude.json.
  const claudeOff = new Map<string, string[]>();
  for (const file of files) {
    const read = await readText(vscode.Uri.file(file.path));
    if (!('text' in read)) continue;
    const name = DISCOVERY_LABEL[file.source]();
    const where =
      file.kind === 'user' ? file.path.replace(os.homedir(), '~') : vscode.workspace.asRelativePath(file.path);
    const label = `${name} (${where})`;
    try {
      const { config, disabled } = parseDiscoveredText(file, read.text, label, folders);
      if (file.source === 'claudeCode' && file.kind === 'user') {
        for (const p of claudeProjects(jsonc.parse(read.text), folders)) claudeOff.set(p.folder, p.disabledMcpjson);
      }
      const off = file.source === 'claudeCode' && file.folder ? (claudeOff.get(file.folder) ?? []) : [];
      const key = `discovery:${file.source}:${file.path}`;
      sources.push({
        kind: file.kind,
        label,
        key,
        folder: file.folder,
        config,
        disabled: [...disabled, ...off],
        discovered: true,
      });
    } catch (err) {
      problems.push({ origin: label, message: message(err) });
    }
  }
  return sources;
}

/** The names an mcp.json marks `"disabled": true` under `field`, if the text parses. */
function disabledOf(text: string, field: string): string[] {
  const value: unknown = jsonc.parse(text);
  return typeof value === 'object' && value !== null ? disabledEntries((value as Record<string, unknown>)[field]) : [];
}

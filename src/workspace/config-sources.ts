// Reads every configuration source of the window: each folder's .vscode/mcp.json and the setting
// mcpPrompts.servers per level. A workspace's value of the setting (its settings.json or .code-workspace
// file) is workspace-defined, exactly like its mcp.json; only the user's own value is the user's.
// Which of them run, and why the others do not, is core/server-merge.ts (shared with the CLI).
import * as vscode from 'vscode';
import * as path from 'node:path';
import { parseConfigObject, parseConfigText } from '../core/config';
import type { ConfigProblemEntry, ConfigSource } from '../core/server-merge';
import { inspectServers } from '../settings';

export interface ReadSources { sources: ConfigSource[]; problems: ConfigProblemEntry[]; retry: boolean }

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** `retry`: a file could not be read for a reason other than its absence (early in a remote window). */
export async function readConfigSources(): Promise<ReadSources> {
  const problems: ConfigProblemEntry[] = [];
  const sources: ConfigSource[] = [];
  let retry = false;
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (err) {
      if (!(err instanceof vscode.FileSystemError && err.code === 'FileNotFound')) retry = true;
      continue;
    }
    const origin = vscode.workspace.asRelativePath(uri);
    try {
      const config = parseConfigText(text, 'workspace', origin);
      sources.push({ kind: 'workspace', label: origin, folder: folder.uri.fsPath, config });
    } catch (err) {
      problems.push({ origin, message: message(err) });
    }
  }
  const addSetting = (value: unknown, kind: 'user' | 'workspace', label: string, folder?: string) => {
    if (!value || typeof value !== 'object' || !Object.keys(value).length) return;
    try {
      sources.push({ kind, label, folder, config: parseConfigObject({ servers: value }, kind, label) });
    } catch (err) {
      problems.push({ origin: label, message: message(err) });
    }
  };
  const inspected = inspectServers();
  addSetting(inspected.user, 'user', vscode.l10n.t('user settings'));
  const file = vscode.workspace.workspaceFile;
  const workspaceFile = file?.scheme === 'file' ? file.fsPath : undefined;
  const settingsFolder = workspaceFile ? path.dirname(workspaceFile) : folders[0]?.uri.fsPath;
  addSetting(inspected.workspace, 'workspace', vscode.l10n.t('workspace settings'), settingsFolder);
  if (vscode.workspace.workspaceFile) {
    for (const folder of folders) {
      const label = vscode.l10n.t('folder settings of {0}', folder.name);
      addSetting(inspectServers(folder.uri).folder, 'workspace', label, folder.uri.fsPath);
    }
  }
  return { sources, problems, retry };
}

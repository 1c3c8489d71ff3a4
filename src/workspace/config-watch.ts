// Watches the configuration files that live outside the workspace's .vscode folders: the user profile's
// mcp.json, the portable files (the user's mcp-config.json, each folder's root .mcp.json), the
// .code-workspace file, and the files discovery reads. Each change reloads the servers, so nothing needs
// a window reload. The set of watched files follows the discovery setting and folders.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { DISCOVERY_SETTING } from '../settings';
import type { Platform } from '../core/platform';
import { placesOf, userPortableFile } from '../core/config/config-locations';
import { discoveredFiles, profileMcpJson } from './config-sources';

export function watchOutsideConfig(
  globalStorageUri: vscode.Uri,
  platform: Platform,
  reload: () => void,
): vscode.Disposable {
  let watchers: vscode.Disposable[] = [];
  const watch = (base: vscode.Uri, pattern: string) => {
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern));
    watchers.push(w, w.onDidChange(reload), w.onDidCreate(reload), w.onDidDelete(reload));
  };
  const rewatch = () => {
    for (const w of watchers) w.dispose();
    watchers = [];
    const profile = profileMcpJson(globalStorageUri);
    if (profile) watch(vscode.Uri.joinPath(profile, '..'), 'mcp.json');
    // The Copilot CLI's folder may not be there yet, or go: that is seen from the folder above it, and
    // its file is watched again.
    const portable = userPortableFile(platform).path;
    const copilot = platform.path.dirname(portable);
    watch(vscode.Uri.file(copilot), platform.path.basename(portable));
    const above = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(platform.path.dirname(copilot)), platform.path.basename(copilot)),
      false,
      true,
      false,
    );
    const again = () => {
      rewatch();
      reload();
    };
    watchers.push(above, above.onDidCreate(again), above.onDidDelete(again));
    for (const folder of vscode.workspace.workspaceFolders ?? []) watch(folder.uri, '.mcp.json');
    const file = vscode.workspace.workspaceFile;
    if (file && file.scheme !== 'untitled') watch(vscode.Uri.joinPath(file, '..'), path.posix.basename(file.path));
    // A workspace file is watched from its folder, so a .cursor folder created later is seen too; every
    // place of a file that may be in two (Claude Desktop on Windows), so the one that appears is read.
    const p = platform.path;
    for (const f of discoveredFiles(platform)) {
      if (f.folder) watch(vscode.Uri.file(f.folder), p.relative(f.folder, f.path).split(p.sep).join('/'));
      else for (const place of placesOf(f)) watch(vscode.Uri.file(p.dirname(place)), p.basename(place));
    }
  };
  rewatch();
  const subs = [
    vscode.workspace.onDidChangeConfiguration(e => {
      if (!e.affectsConfiguration(DISCOVERY_SETTING)) return;
      rewatch();
      reload();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(rewatch),
  ];
  return {
    dispose: () => {
      for (const d of [...watchers, ...subs]) d.dispose();
    },
  };
}

// The saved prompt lists live in the extension's global storage folder: on this machine (and, in a
// remote window, on the remote side with the servers), never in Settings Sync.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { FolderStorage, PromptCache } from '../core/prompt-cache';
import { mainLog } from './main-log';

/** The window's cache of prompt lists; undefined where the storage is no local folder (a web worker). */
export function openPromptCache(globalStorage: vscode.Uri): PromptCache | undefined {
  if (globalStorage.scheme !== 'file') return undefined;
  return new PromptCache(new FolderStorage(path.join(globalStorage.fsPath, 'prompt-cache')), {
    log: message => mainLog().warn(message),
  });
}

// The saved prompt lists live in the extension's global storage folder: on this machine (and, in a
// remote window, on the remote side with the servers), never in Settings Sync.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { FolderStorage } from '../core/catalog/cache-storage';
import { PromptCache } from '../core/catalog/prompt-cache';
import { mainLog } from './main-log';

/** Pruning waits this long after activation: it never competes with showing the saved lists. */
const PRUNE_DELAY_MS = 10_000;

/** The window's cache of prompt lists; undefined where the storage is no local folder (a web worker). */
export function openPromptCache(globalStorage: vscode.Uri): PromptCache | undefined {
  if (globalStorage.scheme !== 'file') return undefined;
  const cache = new PromptCache(new FolderStorage(path.join(globalStorage.fsPath, 'prompt-cache')), {
    log: message => mainLog().warn(message),
  });
  // Lists of servers no window uses any more (see PRUNE_LIMITS), once per window.
  setTimeout(() => void cache.prune(), PRUNE_DELAY_MS).unref();
  return cache;
}

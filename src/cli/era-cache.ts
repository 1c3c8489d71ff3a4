// The CLI's memory of each server's protocol era, kept between runs in the user's cache folder, so a
// second `mcp-prompts list` goes straight to the era its servers speak (no probe, no refused initialize).
// Same store as the extension's (PromptCache.eraStore: keyed hashes, a random key next to it).
import os from 'node:os';
import path from 'node:path';
import { EraMemory } from '../core/protocol/eras.js';
import { FolderStorage } from '../core/catalog/cache-storage.js';
import { PromptCache } from '../core/catalog/prompt-cache.js';

/** XDG_CACHE_HOME, else the platform's cache folder (%LOCALAPPDATA%, ~/Library/Caches, ~/.cache). */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : platform === 'win32'
        ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
        : platform === 'darwin'
          ? path.join(home, 'Library', 'Caches')
          : path.join(home, '.cache');
  return path.join(base, 'mcp-prompts');
}

/** The era memory and the cache that stores it (flush it before exit: writes are queued). */
export function openEraCache(warn: (message: string) => void): { eras: EraMemory; cache: PromptCache } {
  const cache = new PromptCache(new FolderStorage(cacheFolder()), { log: warn });
  return { eras: new EraMemory(cache.eraStore()), cache };
}

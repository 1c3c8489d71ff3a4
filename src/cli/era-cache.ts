// The CLI's memory of each server's protocol era, kept between runs in the user's cache folder, so a
// second `mcp-prompts list` goes straight to the era its servers speak (no probe, no refused initialize).
// Same store as the extension's (PromptCache.eraStore: keyed hashes, a random key next to it).
import { EraMemory } from '../core/protocol/transport/eras.js';
import { envValue, type Platform } from '../core/platform.js';
import { FolderStorage } from '../core/catalog/cache-storage.js';
import { PromptCache } from '../core/catalog/prompt-cache.js';

/**
 * `mcp-prompts` in $XDG_CACHE_HOME when it is set to a full path (on any platform: tests and users who
 * keep caches elsewhere), else in the platform's cache folder: %LOCALAPPDATA% (Windows),
 * ~/Library/Caches (macOS), ~/.cache (Linux).
 */
export function cacheFolder(platform: Platform): string {
  const { path: p, home } = platform;
  const xdg = envValue(platform, 'XDG_CACHE_HOME');
  const local = envValue(platform, 'LOCALAPPDATA');
  const base =
    xdg && p.isAbsolute(xdg)
      ? xdg
      : platform.os === 'win32'
        ? local && p.isAbsolute(local)
          ? local
          : p.join(home, 'AppData', 'Local')
        : platform.os === 'darwin'
          ? p.join(home, 'Library', 'Caches')
          : p.join(home, '.cache');
  return p.join(base, 'mcp-prompts');
}

/** The era memory and the cache that stores it (flush it before exit: writes are queued). */
export function openEraCache(
  platform: Platform,
  warn: (message: string) => void,
): { eras: EraMemory; cache: PromptCache } {
  const cache = new PromptCache(new FolderStorage(cacheFolder(platform)), { log: warn });
  return { eras: new EraMemory(cache.eraStore()), cache };
}

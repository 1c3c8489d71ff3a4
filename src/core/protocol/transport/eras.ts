// Each server's protocol era (2026 "modern" or 2025 "legacy"), remembered from its last successful
// connect: the next connect adopts a 2026 server with no round trip (`prior`) and sends a 2025 one its
// initialize at once (docs/protocol.md). With an EraStore (the prompt cache's storage) it outlives the
// window, keyed by a keyed hash: eraKey() holds the environment and headers in clear.
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/config.js';

/** Where eras persist between windows (see PromptCache.eraStore). */
export interface EraStore {
  hash(key: string): string;
  load(): Map<string, PriorDiscovery>;
  save(eras: ReadonlyMap<string, PriorDiscovery>): void;
}

export class EraMemory {
  private eras?: Map<string, PriorDiscovery>;
  constructor(private readonly store?: EraStore) {}

  get(key: string): PriorDiscovery | undefined {
    return this.map().get(this.key(key));
  }
  set(key: string, era: PriorDiscovery): void {
    const k = this.key(key);
    const map = this.map();
    if (JSON.stringify(map.get(k)) === JSON.stringify(era)) return;
    map.delete(k);
    map.set(k, era);
    this.store?.save(map);
  }
  delete(key: string): void {
    if (this.map().delete(this.key(key))) this.store?.save(this.map());
  }

  private key(key: string): string {
    return this.store ? this.store.hash(key) : key;
  }
  /** Read once, on first use: a window that starts no server never reads the file. */
  private map(): Map<string, PriorDiscovery> {
    return (this.eras ??= this.store?.load() ?? new Map<string, PriorDiscovery>());
  }
}

export const defaultEraMemory = new EraMemory();

/** One entry per definition: a changed command, URL or environment is another server. */
export function eraKey(def: ServerDefinition): string {
  return JSON.stringify([def.id, def.transport]);
}

// Each server's protocol era (2026 "modern" or 2025 "legacy"), remembered from its last successful
// connect and handed back to the SDK as `prior`: the next connect skips the `server/discover` probe
// (one throw-away process per stdio start). Kept in memory for the process's life; persisting it is later.
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerDefinition } from './config.js';

export class EraMemory {
  private readonly eras = new Map<string, PriorDiscovery>();
  get(key: string): PriorDiscovery | undefined {
    return this.eras.get(key);
  }
  set(key: string, era: PriorDiscovery): void {
    this.eras.set(key, era);
  }
  delete(key: string): void {
    this.eras.delete(key);
  }
}

export const defaultEraMemory = new EraMemory();

/** One entry per definition: a changed command, URL or environment is another server. */
export function eraKey(def: ServerDefinition): string {
  return JSON.stringify([def.id, def.transport]);
}

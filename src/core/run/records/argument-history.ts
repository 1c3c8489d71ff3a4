// Each argument's last-used values, offered first the next time it is asked for. Kept in a key-value
// store that outlives the window (VS Code's globalState in the extension, memory in the CLI).
import type { CatalogPrompt } from '../../catalog/catalog.js';
import { historyKey } from './history-key.js';
import { keptValues } from './kept-values.js';

/** The part of VS Code's Memento the history uses (the CLI and the tests pass memoryStore()). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

const HISTORY_LIMIT = 10;

export class ArgumentHistory {
  constructor(private readonly memory: KeyValueStore) {}

  /** Last-used values of one argument of `prompt`, newest first. */
  values(prompt: CatalogPrompt, argument: string): string[] {
    return this.memory.get<string[]>(storageKey(prompt, argument), []);
  }

  /** Remembers what the person typed: `sourced` names the values that came from the editor, which are not kept (kept-values.ts). */
  async remember(prompt: CatalogPrompt, values: Record<string, string>, sourced: Iterable<string> = []): Promise<void> {
    for (const [arg, value] of Object.entries(keptValues(values, sourced))) {
      const list = [value, ...this.values(prompt, arg).filter(v => v !== value)].slice(0, HISTORY_LIMIT);
      await this.memory.update(storageKey(prompt, arg), list);
    }
  }
}

/** Per server definition (historyKey), not per name: another repository's `api` server gets no values typed for this one. */
function storageKey(prompt: CatalogPrompt, argument: string): string {
  return `history:${historyKey(prompt)}:${argument}`;
}

/** A KeyValueStore in memory: the CLI's (nothing outlives the process) and the tests'. */
export function memoryStore(): KeyValueStore {
  const map = new Map<string, unknown>();
  return {
    get: <T>(key: string, defaultValue: T) => (map.has(key) ? (map.get(key) as T) : defaultValue),
    update: (key, value) => {
      map.set(key, value);
      return Promise.resolve();
    },
  };
}

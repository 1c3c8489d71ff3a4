// Each argument's last-used values, offered first the next time it is asked for. Kept in a key-value
// store that outlives the window (VS Code's globalState in the extension, memory in the CLI).

/** The part of VS Code's Memento the history uses (the CLI and the tests pass memoryStore()). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

const HISTORY_LIMIT = 10;

export class ArgumentHistory {
  constructor(private readonly memory: KeyValueStore) {}

  /** Last-used values of one argument, newest first. */
  values(invocationName: string, argument: string): string[] {
    return this.memory.get<string[]>(historyKey(invocationName, argument), []);
  }

  async remember(invocationName: string, values: Record<string, string>): Promise<void> {
    for (const [arg, value] of Object.entries(values)) {
      if (!value) continue;
      const list = [value, ...this.values(invocationName, arg).filter(v => v !== value)].slice(0, HISTORY_LIMIT);
      await this.memory.update(historyKey(invocationName, arg), list);
    }
  }
}

function historyKey(invocationName: string, argument: string): string {
  return `history:${invocationName}:${argument}`;
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

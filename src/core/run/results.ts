// What runs leave behind: recent results (for the buttons and commands that act on one), the arguments
// of the last failed attempt per prompt (the next attempt starts from them), each argument's last-used
// values, and the last invocation (Re-run Last). vscode-free: the extension hands it globalState.
import type { Transcript } from '../render/content.js';
import { BoundedMap, heldChars } from '../bounded.js';
import type { InvokeResult } from './invocation.js';

export interface StoredResult {
  id: string;
  invocation: string;
  result: InvokeResult;
  transcript: Transcript;
}

/** The part of VS Code's Memento the store uses (tests pass a Map-backed one). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

const HISTORY_LIMIT = 10;
const RESULTS_LIMIT = 50;
/**
 * Characters of strings the kept results may hold, counted in the server's answer and in its transcript (which
 * share the base64, so this is about twice what they hold): one result with a 5 MB image, two of 3 MB. Each
 * result shown in the editor also has its transcript document, which VS Code keeps in the extension host
 * at 3 bytes per character of base64 (its lines and its text); with 20 Mi, 5 MB images cost 27 MB.
 */
export const RESULTS_CHARS_LIMIT = 20 * 1024 * 1024;

export class ResultStore {
  /** What mcp-prompts-media: and the result buttons serve; bounded by count and by size (bounded.ts). */
  private readonly results = new BoundedMap<StoredResult>(
    RESULTS_LIMIT,
    RESULTS_CHARS_LIMIT,
    // The server's answer and its parsed transcript (each holds its own copy of the base64), not the
    // prompt: that leads into the whole catalog.
    r => heldChars(r.result.result) + heldChars(r.transcript),
    (_, r) => this.evictListeners.forEach(listener => listener(r)),
  );
  private readonly evictListeners = new Set<(evicted: StoredResult) => void>();
  private readonly drafts = new Map<string, Record<string, string>>();
  private counter = 0;
  private last?: string;
  /** The stored result "Send to Model" hands to the chat request of its own invocation, once. */
  private offered?: StoredResult;

  constructor(private readonly memory: KeyValueStore) {}

  /** Keeps a result under a fresh id; the oldest go beyond RESULTS_LIMIT results or RESULTS_CHARS_LIMIT. */
  store(invocation: string, result: InvokeResult, transcript: Transcript): StoredResult {
    const stored = { id: `r${++this.counter}`, invocation, result, transcript };
    this.results.set(stored.id, stored);
    this.last = invocation;
    return stored;
  }

  /**
   * Hears of each result the bounds evict: whoever handed a copy of it to VS Code (the transcript
   * document, which VS Code keeps for minutes after its tab closes) replaces that copy.
   */
  onEvict(listener: (evicted: StoredResult) => void): { dispose(): void } {
    this.evictListeners.add(listener);
    return { dispose: () => this.evictListeners.delete(listener) };
  }

  get latest(): StoredResult | undefined {
    return this.results.values().pop();
  }

  get(id: unknown): StoredResult | undefined {
    return typeof id === 'string' ? this.results.get(id) : undefined;
  }

  /** What "Re-run Last" runs: the last result's invocation, or a line handed to chat since. */
  get lastInvocation(): string | undefined {
    return this.last;
  }

  handedToChat(line: string): void {
    this.last = line;
  }

  /**
   * "Send to Model": the chat request that arrives for this result's invocation answers from it instead
   * of asking the server again. Any other request drops the offer (claim() is called for every request).
   */
  offer(stored: StoredResult): void {
    this.offered = stored;
  }

  claim(line: string): StoredResult | undefined {
    const offered = this.offered;
    this.offered = undefined;
    return offered && offered.invocation === line ? offered : undefined;
  }

  /** Arguments of the last failed attempt of a prompt, or {}. */
  draft(invocationName: string): Record<string, string> {
    return this.drafts.get(invocationName) ?? {};
  }

  /** Keeps `args` after a failure; `undefined` (a success) forgets them. */
  setDraft(invocationName: string, args: Record<string, string> | undefined): void {
    if (args) this.drafts.set(invocationName, args);
    else this.drafts.delete(invocationName);
  }

  /** Last-used values of one argument, newest first; `key` is the prompt's historyKey(). */
  history(key: string, argument: string): string[] {
    return this.memory.get<string[]>(`history:${key}:${argument}`, []);
  }

  async remember(key: string, values: Record<string, string>): Promise<void> {
    for (const [arg, value] of Object.entries(values)) {
      if (!value) continue;
      const list = [value, ...this.history(key, arg).filter(v => v !== value)].slice(0, HISTORY_LIMIT);
      await this.memory.update(`history:${key}:${arg}`, list);
    }
  }
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

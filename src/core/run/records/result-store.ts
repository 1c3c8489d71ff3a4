// Recent results, for the buttons and commands that act on one (and the media and transcripts served
// from them), bounded by count and by size.
import type { Transcript } from '../../render/content.js';
import { BoundedMap, heldChars } from '../../bounded.js';
import { formatInvocation, type InvokeResult } from '../invocation.js';

export interface StoredResult {
  id: string;
  /** The line that runs it again (`server.prompt name=value`): what a person reads, and what Send to Model types. */
  readonly invocation: string;
  result: InvokeResult;
  transcript: Transcript;
}

const RESULTS_LIMIT = 50;
/**
 * Characters of strings the kept results may hold, counted in the server's answer and in its transcript (which
 * share the base64, so this is about twice what they hold): one result with a 5 MB image, two of 3 MB. Each
 * result shown in the editor also has its transcript document, which VS Code keeps in the extension host
 * at 3 bytes per character of base64 (its lines and its text); with 20 Mi, 5 MB images cost 27 MB.
 */
export const RESULTS_CHARS_LIMIT = 20 * 1024 * 1024;

/** A kept result; a class, not an object with a getter: no closure and accessor made on every get. */
class Stored implements StoredResult {
  private line: string | undefined;
  constructor(
    readonly id: string,
    readonly result: InvokeResult,
    readonly transcript: Transcript,
  ) {}

  /** Written when a surface first shows it: the CLI and a run nobody looks at again never need it. */
  get invocation(): string {
    return (this.line ??= formatInvocation(this.result.prompt.invocationName, this.result.args));
  }
}

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
  private counter = 0;

  /** Keeps a result under a fresh id; the oldest go beyond RESULTS_LIMIT results or RESULTS_CHARS_LIMIT. */
  store(result: InvokeResult, transcript: Transcript): StoredResult {
    const stored = new Stored(`r${++this.counter}`, result, transcript);
    this.results.set(stored.id, stored);
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
}

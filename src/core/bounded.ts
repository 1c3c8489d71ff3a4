// Memory kept for results (their media, their transcripts) is bounded by size, not only by count:
// 50 results with 5 MB images are 700 MB of base64 in the extension host. Oldest entries go first;
// the newest always stays, whatever its size (the buttons of the result just shown act on it).

/** Characters held by the strings in `value` (base64 and text are one byte per character in V8). */
export function heldChars(value: unknown): number {
  const chars = shallowChars(value, 0);
  return chars >= 0 ? chars : walkedChars(value);
}

/** Past this depth the walk with a set of objects seen counts instead (a cycle, or a server's deep nesting). */
const SHALLOW_DEPTH = 32;

/**
 * The usual answer (a few levels of parsed JSON, no object twice) without the set and stack of a full
 * walk: it ran on every result stored. −1 when it went deeper than SHALLOW_DEPTH. An object reached
 * twice is counted twice here: the bound errs on the side of less memory.
 */
function shallowChars(v: unknown, depth: number): number {
  if (typeof v === 'string') return v.length;
  if (!v || typeof v !== 'object') return 0;
  if (depth > SHALLOW_DEPTH) return -1;
  let total = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const chars = shallowChars(v[i], depth + 1);
      if (chars < 0) return -1;
      total += chars;
    }
  } else {
    for (const key in v) {
      const chars = shallowChars((v as Record<string, unknown>)[key], depth + 1);
      if (chars < 0) return -1;
      total += chars;
    }
  }
  return total;
}

function walkedChars(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (v && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (const child of v) stack.push(child);
      else for (const key in v) stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return total;
}

/**
 * Insertion-ordered map that evicts its oldest entries beyond `maxEntries` or `maxChars`; `onEvict` hears
 * of each (not of a delete() or a replaced key), so copies made elsewhere of an evicted value can go too.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; chars: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
    private readonly size: (value: V) => number = heldChars,
    private readonly onEvict?: (key: string, value: V) => void,
  ) {}

  set(key: string, value: V): void {
    this.delete(key);
    const chars = this.size(value);
    this.entries.set(key, { value, chars });
    this.total += chars;
    while (this.entries.size > 1 && (this.entries.size > this.maxEntries || this.total > this.maxChars)) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.delete(oldest);
      this.onEvict?.(oldest, entry.value);
    }
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.total -= old.chars;
    this.entries.delete(key);
  }

  /** Newest last. */
  values(): V[] {
    return [...this.entries.values()].map(e => e.value);
  }

  get count(): number {
    return this.entries.size;
  }

  /** Characters held by the kept values, as `size` counts them. */
  get chars(): number {
    return this.total;
  }
}

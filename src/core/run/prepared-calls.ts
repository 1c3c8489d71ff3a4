// A language-model tool is asked twice for one call: prepareInvocation (whose confirmation the person
// answers) and then invoke, with the same input. What was prepared and shown is kept here under that
// input, so invoke sends exactly what the person allowed, and a call nobody prepared sends nothing.
// Calls the person declined are never invoked; the oldest entries go beyond a small bound.

/** The input as a key: JSON with its object keys sorted, so equal inputs give equal keys. */
export function inputKey(input: unknown): string {
  return JSON.stringify(input, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : value,
  );
}

export class PreparedCalls<T> {
  private readonly entries: { key: string; value: T }[] = [];

  constructor(private readonly max = 32) {}

  /** What prepareInvocation decided for `input`. */
  add(input: unknown, value: T): void {
    this.entries.push({ key: inputKey(input), value });
    if (this.entries.length > this.max) this.entries.shift();
  }

  /** What was prepared for `input`, newest first, taken out: each preparation is used once. */
  take(input: unknown): T | undefined {
    const key = inputKey(input);
    for (let i = this.entries.length - 1; i >= 0; i--)
      if (this.entries[i].key === key) return this.entries.splice(i, 1)[0].value;
    return undefined;
  }
}

// JSON.stringify recurses: a server can nest a reply thousands of levels deep and make it throw
// "Maximum call stack size exceeded" in `--json`, `--verbose` or the trace. This falls back to a loop.

/** Indentation grows with depth (100,000 levels at 2 spaces would be 10 GB): deeper levels are printed compact. */
const MAX_INDENTED_DEPTH = 64;

/** JSON.stringify(value, null, indent) for JSON data, at any depth (beyond MAX_INDENTED_DEPTH levels without indentation). */
export function stringifyJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  return stringifyIteratively(value, indent ?? 0);
}

interface Frame {
  items: Array<[string | undefined, unknown]>;
  next: number;
  array: boolean;
  depth: number;
}

/** The same text as JSON.stringify for plain data (objects, arrays, strings, numbers, booleans, null), with an explicit stack. */
export function stringifyIteratively(root: unknown, indent = 0): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const pretty = (depth: number) => indent > 0 && depth <= MAX_INDENTED_DEPTH;
  const newline = (depth: number) => (pretty(depth) ? '\n' + ' '.repeat(indent * depth) : '');
  const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const open = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object') {
      out.push(skipped(v) ? 'null' : JSON.stringify(v));
      return;
    }
    const array = Array.isArray(v);
    const items: Array<[string | undefined, unknown]> = array
      ? (v as unknown[]).map(x => [undefined, x])
      : Object.keys(v)
          .filter(k => !skipped((v as Record<string, unknown>)[k]))
          .map(k => [k, (v as Record<string, unknown>)[k]]);
    if (!items.length) {
      out.push(array ? '[]' : '{}');
      return;
    }
    out.push(array ? '[' : '{');
    stack.push({ items, next: 0, array, depth });
  };
  open(root, 0);
  while (stack.length) {
    const f = stack[stack.length - 1];
    if (f.next === f.items.length) {
      out.push(newline(f.depth) + (f.array ? ']' : '}'));
      stack.pop();
      continue;
    }
    const [key, value] = f.items[f.next++];
    out.push(
      (f.next > 1 ? ',' : '') +
        newline(f.depth + 1) +
        (key === undefined ? '' : JSON.stringify(key) + (pretty(f.depth + 1) ? ': ' : ':')),
    );
    open(value, f.depth + 1);
  }
  return out.join('');
}

/**
 * Whether two JSON values are equal, whatever the order of their keys. Values nested deeper than
 * `maxDepth` count as different (the caller then does the work it wanted to skip), so a hostile depth
 * costs no stack.
 */
export function sameJson(a: unknown, b: unknown, maxDepth = 32): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || maxDepth <= 0) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i], maxDepth - 1));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every(k => Object.prototype.hasOwnProperty.call(y, k) && sameJson(x[k], y[k], maxDepth - 1))
  );
}

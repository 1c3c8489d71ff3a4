// A server's prompt list in its saved form, by column: the fields of a prompt we show or use (no
// `_meta`), each distinct argument list once. What is read back is hostile: every field is checked by
// hand as PromptSchema would (zod's first run over 20,000 prompts costs ~100 ms of activation).
import type { Prompt, PromptArgument } from '@modelcontextprotocol/client';

/** Prompts kept per server (a real server's largest list is far below; docs/limits.md). */
export const MAX_CACHED_PROMPTS = 10000;

/** Prompts read back, with the short name each was given so suffixes (`a_b-2`) survive a restart. */
export interface DecodedPrompts {
  prompts: Prompt[];
  shortNames: Map<string, string>;
}

/** An argument as saved: [name, description, required]; absent = null, trailing ones left out. */
type StoredArgument = [string, (string | null)?, (boolean | null)?];

/**
 * The stored form, by column: one array per field (absent = null; a column of nulls is left out) and
 * each distinct argument list once (servers repeat the same arguments across many prompts). Fewer
 * bytes and far fewer objects for JSON.parse than the SDK's shape: a third of the activation time.
 */
export interface StoredPrompts {
  names: string[];
  titles?: (string | null)[];
  descriptions?: (string | null)[];
  /** Index into `args`. */
  argRefs?: (number | null)[];
  icons?: (Prompt['icons'] | null)[];
  /** The short name given to each prompt; null when it is the prompt's name. */
  shorts?: (string | null)[];
  args?: StoredArgument[][];
}

/** The fields of a prompt we show or use (no `_meta`), in the stored form. */
export function encodePrompts(prompts: Prompt[], shortNames: ReadonlyMap<string, string>): StoredPrompts {
  const args: StoredArgument[][] = [];
  const argIndex = new Map<string, number>();
  const column = <T>(value: (p: Prompt) => T | undefined): (T | null)[] | undefined => {
    const out = prompts.map(p => value(p) ?? null);
    return out.some(v => v !== null) ? out : undefined;
  };
  const argRefs = column(p => {
    if (!p.arguments) return undefined;
    const list = p.arguments.map((a): StoredArgument => trim([a.name, a.description ?? null, a.required ?? null]));
    const key = JSON.stringify(list);
    const ref = argIndex.get(key) ?? args.push(list) - 1;
    argIndex.set(key, ref);
    return ref;
  });
  return {
    names: prompts.map(p => p.name),
    titles: column(p => p.title),
    descriptions: column(p => p.description),
    argRefs,
    icons: column(p => p.icons?.map(i => ({ src: i.src, mimeType: i.mimeType, sizes: i.sizes, theme: i.theme }))),
    shorts: column(p => {
      const short = shortNames.get(p.name);
      return short === p.name ? undefined : short;
    }),
    args: args.length ? args : undefined,
  };
}

/** Leaves out trailing absent fields. */
function trim<T extends unknown[]>(tuple: T): T {
  while (tuple.length > 1 && tuple[tuple.length - 1] === null) tuple.pop();
  return tuple;
}

/**
 * The stored form back to prompts, checking every field as PromptSchema would (by hand: zod's first
 * run over 20,000 prompts costs ~100 ms). Throws on anything malformed: the whole list is dropped.
 */
export function decodePrompts(stored: Record<keyof StoredPrompts, unknown>): DecodedPrompts {
  const { names } = stored;
  if (!Array.isArray(names) || names.length > MAX_CACHED_PROMPTS) throw new Error('names');
  const col = (v: unknown, what: string): unknown[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length !== names.length) throw new Error(what);
    return v as unknown[];
  };
  const titles = col(stored.titles, 'titles');
  const descriptions = col(stored.descriptions, 'descriptions');
  const argRefs = col(stored.argRefs, 'argRefs');
  const icons = col(stored.icons, 'icons');
  const shorts = col(stored.shorts, 'shorts');
  const args = stored.args ?? [];
  if (!Array.isArray(args) || args.length > MAX_CACHED_PROMPTS) throw new Error('args');
  const argLists = args.map(list => {
    if (!Array.isArray(list)) throw new Error('args');
    return deepFreeze(
      list.map((a): PromptArgument => {
        if (!Array.isArray(a) || a.length < 1 || a.length > 3 || typeof a[0] !== 'string') throw new Error('args');
        const [name, description, required] = a as unknown[];
        const out: PromptArgument = { name: name as string };
        if (description != null) out.description = string(description, 'args');
        if (required != null) {
          if (typeof required !== 'boolean') throw new Error('args');
          out.required = required;
        }
        return out;
      }),
    );
  });
  const shortNames = new Map<string, string>();
  const prompts = names.map((name: unknown, i): Prompt => {
    const out: Prompt = { name: string(name, 'names') };
    const title = titles?.[i];
    if (title != null) out.title = string(title, 'titles');
    const description = descriptions?.[i];
    if (description != null) out.description = string(description, 'descriptions');
    const ref = argRefs?.[i];
    if (ref != null) {
      if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0 || ref >= argLists.length)
        throw new Error('argRefs');
      // Shared by the prompts that have the same arguments (frozen: nothing may change one for all).
      out.arguments = argLists[ref];
    }
    const icon = icons?.[i];
    if (icon != null) {
      if (!Array.isArray(icon) || !icon.every(isIcon)) throw new Error('icons');
      out.icons = icon as Prompt['icons'];
    }
    const short = shorts?.[i];
    shortNames.set(out.name, short == null ? out.name : string(short, 'shorts'));
    return out;
  });
  return { prompts, shortNames };
}

function deepFreeze<T extends object>(list: T[]): T[] {
  for (const item of list) Object.freeze(item);
  return Object.freeze(list) as T[];
}

function string(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new Error(what);
  return v;
}

function isIcon(i: unknown): boolean {
  return (
    isRecord(i) &&
    typeof i.src === 'string' &&
    optional(i.mimeType, isString) &&
    optional(i.sizes, s => Array.isArray(s) && s.every(isString)) &&
    optional(i.theme, t => t === 'light' || t === 'dark')
  );
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isString(v: unknown): boolean {
  return typeof v === 'string';
}

export function optional(v: unknown, check: (v: unknown) => boolean): boolean {
  return v === undefined || check(v);
}

// The catalog's names of prompts: each prompt's typeable short name on its server (assignShortNames), and
// the index of bare names across servers: which `shortName`s are offered once (usable alone) and which
// by several servers. Pure over plain items, so the in-place swap is tested alone.

export interface IndexedName {
  shortName: string;
  unique: boolean;
}

export type NameIndex<T extends IndexedName> = Map<string, T[]>;

/** The whole index again from `items` (the set of servers changed). */
export function buildIndex<T extends IndexedName>(index: NameIndex<T>, items: Iterable<T>): void {
  index.clear();
  for (const p of items) {
    const list = index.get(p.shortName);
    if (list) list.push(p);
    else index.set(p.shortName, [p]);
  }
  for (const list of index.values()) for (const p of list) p.unique = list.length === 1;
}

/** Swaps one server's items `prev` for `next` in the index; only the names involved get their `unique` flag again. */
export function replaceInIndex<T extends IndexedName>(
  index: NameIndex<T>,
  prev: readonly T[],
  next: readonly T[],
): void {
  // The usual re-list brings the same names in the same order: swap the objects in place.
  if (prev.length === next.length && prev.every((p, i) => p.shortName === next[i].shortName)) {
    for (let i = 0; i < prev.length; i++) {
      const list = index.get(prev[i].shortName)!;
      list[list.indexOf(prev[i])] = next[i];
      next[i].unique = prev[i].unique;
    }
    return;
  }
  const touched = new Set<string>();
  for (const p of prev) {
    const list = index.get(p.shortName);
    const i = list?.indexOf(p) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    if (list && !list.length) index.delete(p.shortName);
    touched.add(p.shortName);
  }
  for (const p of next) {
    const list = index.get(p.shortName);
    if (list) list.push(p);
    else index.set(p.shortName, [p]);
    touched.add(p.shortName);
  }
  for (const name of touched) for (const p of index.get(name) ?? []) p.unique = index.get(name)!.length === 1;
}

/** Prompt names go into a slash command: keep them typeable (no spaces or quotes). */
export function sanitizePromptName(name: string): string {
  // The common case without the Unicode regex (seeding 20,000 saved prompts runs this twice each).
  if (/^[\w.:-]+$/.test(name)) return name;
  return name.replace(/[^\p{L}\p{N}_.:-]+/gu, '_') || '_';
}

/**
 * Typeable short names for one server's prompts, all distinct: `a/b`, `a b` and `a_b` all sanitise to
 * `a_b`, so the prompt literally named `a_b` keeps it and the others get `a_b-2`, `a_b-3` in code-point
 * order of their names. A name keeps what it had in `previous`, so re-lists do not shuffle suffixes.
 */
export function assignShortNames(
  names: readonly string[],
  previous?: ReadonlyMap<string, string>,
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const give = (name: string, short: string) => {
    out.set(name, short);
    taken.add(short);
  };
  for (const name of names) if (sanitizePromptName(name) === name) give(name, name);
  for (const name of names) {
    const before = previous?.get(name);
    if (!out.has(name) && before !== undefined && !taken.has(before) && before.startsWith(sanitizePromptName(name)))
      give(name, before);
  }
  // The next suffix to try per base name: a server with 10,000 names that sanitise alike costs one pass,
  // not a scan from -2 for each name. Nothing is freed within one call, so this is the lowest free one.
  const nextSuffix = new Map<string, number>();
  for (const name of names.filter(n => !out.has(n)).sort()) {
    const base = sanitizePromptName(name);
    let short = base;
    let i = nextSuffix.get(base) ?? 2;
    if (taken.has(short)) while (taken.has((short = `${base}-${i}`))) i++;
    if (short !== base) nextSuffix.set(base, i + 1);
    give(name, short);
  }
  return out;
}

// The catalog's index of bare prompt names across servers: which `shortName`s are offered once (usable
// alone) and which by several servers. Pure over plain items, so the in-place swap is tested alone.

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

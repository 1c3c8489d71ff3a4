// The catalog's bare-name index (src/core/catalog/name-index.ts): how one server's new listing is swapped in.
// Plain objects with the catalog's own short-name assignment; no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IndexedName,
  NameIndex,
  assignShortNames,
  buildIndex,
  replaceInIndex,
} from '../../src/core/catalog/name-index';

interface Item extends IndexedName {
  server: string;
  name: string;
}

/** One server's listing as the catalog builds it: short names assigned, stable against `previous`. */
function listing(
  server: string,
  names: string[],
  previous?: Map<string, string>,
): { items: Item[]; shortNames: Map<string, string> } {
  const shortNames = assignShortNames(names, previous);
  return { items: names.map(name => ({ server, name, shortName: shortNames.get(name)!, unique: true })), shortNames };
}

/** The index as `shortName → [server:name unique?]`, to compare whole. */
function show(index: NameIndex<Item>): Record<string, string[]> {
  return Object.fromEntries(
    [...index].map(([k, list]) => [k, list.map(p => `${p.server}:${p.name}${p.unique ? '' : ' (shared)'}`)]),
  );
}

test('a re-list with the same names swaps the new objects into the same slots and keeps their flags', () => {
  const index: NameIndex<Item> = new Map();
  const alpha = listing('alpha', ['review', 'explain']).items;
  const beta = listing('beta', ['review']).items;
  buildIndex(index, [...alpha, ...beta]);
  const again = listing('alpha', ['review', 'explain']).items;
  replaceInIndex(index, alpha, again);
  assert.deepEqual(show(index), {
    review: ['alpha:review (shared)', 'beta:review (shared)'],
    explain: ['alpha:explain'],
  });
  assert.equal(index.get('review')![0], again[0], 'the new object sits where the old one was (config order kept)');
  assert.equal(again[0].unique, false, 'the new "review" is still shared with beta');
  assert.ok(!index.get('review')!.includes(alpha[0]), 'the old object is gone from the index');
});

test('a re-list with changed names frees the names it dropped and claims the new ones', () => {
  const index: NameIndex<Item> = new Map();
  const alpha = listing('alpha', ['review', 'explain']).items;
  const beta = listing('beta', ['review', 'summarize']).items;
  buildIndex(index, [...alpha, ...beta]);
  assert.deepEqual(show(index).review, ['alpha:review (shared)', 'beta:review (shared)']);
  const next = listing('alpha', ['explain', 'summarize']).items;
  replaceInIndex(index, alpha, next);
  assert.deepEqual(
    show(index),
    {
      review: ['beta:review'],
      explain: ['alpha:explain'],
      summarize: ['beta:summarize (shared)', 'alpha:summarize (shared)'],
    },
    'beta alone offers "review" now; "summarize" is shared',
  );
  replaceInIndex(index, next, []);
  assert.deepEqual(
    show(index),
    { review: ['beta:review'], summarize: ['beta:summarize'] },
    'an emptied name leaves the index',
  );
});

test('names that sanitise alike keep their suffixes when a re-list reorders them', () => {
  const index: NameIndex<Item> = new Map();
  const first = listing('alpha', ['a/b', 'a b', 'a_b']);
  buildIndex(index, first.items);
  const before = Object.fromEntries(first.items.map(p => [p.name, p.shortName]));
  assert.deepEqual(before, { 'a/b': 'a_b-3', 'a b': 'a_b-2', a_b: 'a_b' });
  // The server lists them in another order, with a fourth clash added.
  const second = listing('alpha', ['a_b', 'a b', 'a:b', 'a/b', 'a?b'], first.shortNames);
  replaceInIndex(index, first.items, second.items);
  const after = Object.fromEntries(second.items.map(p => [p.name, p.shortName]));
  assert.deepEqual(
    { 'a/b': after['a/b'], 'a b': after['a b'], a_b: after.a_b },
    before,
    'each old prompt keeps its short name',
  );
  assert.equal(after['a?b'], 'a_b-4', 'the newcomer takes the next free suffix');
  assert.deepEqual(show(index), {
    a_b: ['alpha:a_b'],
    'a_b-2': ['alpha:a b'],
    'a_b-3': ['alpha:a/b'],
    'a:b': ['alpha:a:b'],
    'a_b-4': ['alpha:a?b'],
  });
});

test('10,000 names that sanitise alike are named in about the time of 10,000 that do not', () => {
  // Three characters from a set the sanitiser replaces, between `a` and `b`: every name becomes `a_b`.
  const odd = ' /?!#$%&()*+,;<=>@[]^`{|}~';
  const alike = Array.from({ length: 10_000 }, (_, i) => {
    const c = (k: number) => odd[Math.floor(i / odd.length ** k) % odd.length];
    return `a${c(2)}${c(1)}${c(0)}b`;
  });
  // The same shape, but each sanitises to a name of its own (`a_b0`, `a_b1`, …).
  const distinct = Array.from({ length: 10_000 }, (_, i) => `a b${i}`);
  assert.equal(new Set(alike).size, alike.length);
  const shorts = assignShortNames(alike);
  assert.equal(new Set(shorts.values()).size, alike.length, 'every name has a short name of its own');
  assert.equal(shorts.get([...alike].sort()[0]), 'a_b');
  assert.equal(shorts.get([...alike].sort()[9_999]), 'a_b-10000');
  const fastest = (names: string[]) => {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      assignShortNames(names);
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  fastest(distinct);
  const ratio = fastest(alike) / fastest(distinct);
  assert.ok(ratio < 5, `names that sanitise alike took ${ratio.toFixed(1)}× the time of distinct ones`);
});

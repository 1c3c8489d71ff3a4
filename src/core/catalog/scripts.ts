// Look-alike names: a prompt called "dеploy" with a Cyrillic "е" reads as "deploy" but is another
// prompt. A name whose letters mix scripts (beyond the usual CJK combinations) is marked where a user
// picks prompts, in the spirit of Unicode TS #39's "highly restrictive" profile.
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Thai',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
].map(name => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));
/** Combinations that are ordinary writing, not disguise (Japanese, Chinese with Bopomofo, Korean; each with Latin). */
const USUAL = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** The scripts a name's letters come from when they are a suspicious mix (`['Latin', 'Cyrillic']`); undefined otherwise. */
export function mixedScripts(name: string): string[] | undefined {
  // Printable ASCII has Latin letters only (checked first: 20,000 saved prompts are seeded at activation).
  if (/^[ -~]*$/.test(name)) return undefined;
  const found = new Set<string>();
  for (const ch of name) {
    // Letters shared by scripts (the Japanese prolonged sound mark is Common) say nothing.
    if (!/\p{L}/u.test(ch) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(ch)) continue;
    found.add(SCRIPTS.find(s => s.test.test(ch))?.name ?? 'other');
  }
  if (found.size < 2 || USUAL.some(set => [...found].every(s => set.includes(s)))) return undefined;
  return [...found];
}

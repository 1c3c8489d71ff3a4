// Which names the chat input offers after `@mcp /`: only those that start with what is typed (VS Code
// filters fuzzily on its own; what we hand it must not hold a loosely matching name), and none once the
// typed word is a name in full, so Enter then sends instead of taking a row.

/** Indices of `names` offered for the typed word `typed`, in their order. */
export function completeNames(typed: string, names: readonly string[]): number[] {
  if (typed && names.includes(typed)) return [];
  const low = typed.toLowerCase();
  const offered: number[] = [];
  names.forEach((name, i) => {
    if (name.toLowerCase().startsWith(low)) offered.push(i);
  });
  return offered;
}

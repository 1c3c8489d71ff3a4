// The prompts of one listing (or saved list) as the catalog shows them: one per name (a second of the
// same name is a warning), each with its `server.prompt` name, a short name that keeps its `-2` suffix
// across re-lists (name-index.ts), and a mark when the name mixes scripts (scripts.ts).
import * as l10n from '@vscode/l10n';
import type { Prompt } from '@modelcontextprotocol/client';
import { sameJson } from '../json.js';
import type { CatalogEntry, CatalogPrompt } from './catalog-entry.js';
import { assignShortNames } from './name-index.js';
import { mixedScripts } from './scripts.js';

/** `prompts` as the entry's: names given (kept in `entry.shortNames`), duplicates told in `warnings`. */
export function toCatalogPrompts(entry: CatalogEntry, prompts: Prompt[], warnings: string[]): CatalogPrompt[] {
  const distinct: Prompt[] = [];
  const names = new Set<string>();
  for (const prompt of prompts) {
    if (names.has(prompt.name)) {
      warnings.push(
        l10n.t('{0} lists the prompt "{1}" more than once; the first one is used', entry.def.name, prompt.name),
      );
      continue;
    }
    names.add(prompt.name);
    distinct.push(prompt);
  }
  const shortNames = assignShortNames(
    distinct.map(p => p.name),
    entry.shortNames,
  );
  entry.shortNames = shortNames;
  return distinct.map(prompt => {
    const shortName = shortNames.get(prompt.name)!;
    return {
      server: entry,
      prompt,
      shortName,
      invocationName: `${entry.id}.${shortName}`,
      unique: true,
      mixedScripts: mixedScripts(prompt.name) ?? (prompt.title ? mixedScripts(prompt.title) : undefined),
    };
  });
}

/** The listed prompts are those the entry shows, in the same order (a re-list of an unchanged list). */
export function samePrompts(shown: readonly CatalogPrompt[], fresh: readonly Prompt[]): boolean {
  return shown.length === fresh.length && shown.every((p, i) => sameJson(p.prompt, fresh[i]));
}

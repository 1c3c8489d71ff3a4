// Which names the chat input offers after `@mcp /`: only those that start with what is typed (VS Code
// filters fuzzily on its own; what we hand it must not hold a loosely matching name), and none once the
// typed word is a name in full, so Enter then sends instead of taking a row. The names are sorted once
// per catalog change; a request looks its prefix up (binary search) and takes at most `limit` names,
// pinned and recent ones first, so what one keystroke costs does not grow with the catalog.
import type { CatalogPrompt } from '../catalog/catalog.js';
import { skillCommand, type CatalogSkill } from '../catalog/skills.js';

export interface SlashName {
  /** What is typed after `/`: `server.prompt`, or the short name of a prompt no other server has. */
  readonly name: string;
  readonly prompt?: CatalogPrompt;
  /** A skill, always named with its server (`server.name`, or `server.skill:name`). */
  readonly skill?: CatalogSkill;
  /** One of the participant's own words (`list`, `help`), by its position. */
  readonly builtIn?: number;
}

export interface Offered {
  names: SlashName[];
  /** How many of `names` (the first ones) came from the preferred names. */
  preferred: number;
  /** False when more names start with the typed word than were offered: VS Code asks again as the user types. */
  complete: boolean;
}

/** The participant's own words: a prompt's short name equal to one of them is reached as `server.name` only. */
export const BUILT_IN_WORDS = ['list', 'help'] as const;

/**
 * Every name a prompt is typed by: its short name when unique (and not one of ours), and `server.prompt`;
 * then each skill's one name.
 */
export function slashNamesOf(prompts: readonly CatalogPrompt[], skills: readonly CatalogSkill[] = []): SlashName[] {
  const names: SlashName[] = BUILT_IN_WORDS.map((name, builtIn) => ({ name, builtIn }));
  for (const prompt of prompts) {
    if (prompt.unique && !(BUILT_IN_WORDS as readonly string[]).includes(prompt.shortName.toLowerCase()))
      names.push({ name: prompt.shortName, prompt });
    names.push({ name: prompt.invocationName, prompt });
  }
  for (const skill of skills) names.push({ name: skillCommand(skill), skill });
  return names;
}

export class SlashNames {
  private readonly sorted: { lower: string; name: SlashName }[];
  private readonly exact: Set<string>;

  constructor(names: readonly SlashName[]) {
    this.sorted = names.map(name => ({ lower: name.name.toLowerCase(), name }));
    this.sorted.sort((a, b) => (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0));
    this.exact = new Set(names.map(n => n.name));
  }

  /**
   * The names offered for `typed`: those of `first` that start with it (pinned and recent prompts, in
   * their order), then the others in name order, at most `limit` in all.
   */
  complete(typed: string, first: readonly SlashName[] = [], limit = Infinity): Offered {
    if (typed && this.exact.has(typed)) return { names: [], preferred: 0, complete: true };
    const low = typed.toLowerCase();
    const start = this.lowerBound(low);
    const end = this.lowerBound(`${low}\uffff`);
    const names: SlashName[] = [];
    const taken = new Set<string>();
    for (const name of first) {
      if (names.length >= limit) break;
      if (name.name.toLowerCase().startsWith(low) && !taken.has(name.name)) {
        names.push(name);
        taken.add(name.name);
      }
    }
    const preferred = names.length;
    for (let i = start; i < end && names.length < limit; i++) {
      const { name } = this.sorted[i];
      if (!taken.has(name.name)) names.push(name);
    }
    return { names, preferred, complete: end - start <= names.length };
  }

  /** The first index whose name is not below `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid].lower < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

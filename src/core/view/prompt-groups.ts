// The pinned and the recently run prompts, found in the servers as they are now: the picker, the chat
// completion and the tree show these groups first. A recent prompt its server no longer lists is left
// out (and forgotten); a pinned prompt of a server held back (trust, consent, disabled) shows as held.
import type { CatalogPrompt, ServerEntry } from '../catalog/catalog.js';
import type { HeldEntry } from '../config/server-merge.js';
import { historyKey } from '../run/records/history-key.js';
import { formatName, formatValue } from '../run/invocation.js';
import { scopeOf, type Pin, type PromptPlace, type RecentRun } from '../run/records/prompt-usage.js';

export type PinnedPrompt = { prompt: CatalogPrompt } | { held: HeldEntry; place: PromptPlace };

export interface RecentPrompt {
  prompt: CatalogPrompt;
  /** The values last typed, when they were typed for this definition of the server. */
  args?: Record<string, string>;
}

export interface PromptGroups {
  pinned: PinnedPrompt[];
  recent: RecentPrompt[];
  /** Recent runs of prompts their server has listed without: to forget. */
  gone: PromptPlace[];
}

/** What the groups are made from: the usage as stored (PromptUsage.pins() and recent()). */
export interface UsageLists {
  pins(): readonly Pin[];
  recent(): readonly RecentRun[];
}

const byName = new WeakMap<readonly CatalogPrompt[], Map<string, CatalogPrompt>>();

/** The server's prompt called `name`: one map per listing, so a look-up does not grow with the server. */
function promptNamed(entry: ServerEntry, name: string): CatalogPrompt | undefined {
  let names = byName.get(entry.prompts);
  if (!names) {
    names = new Map(entry.prompts.map(p => [p.prompt.name, p]));
    byName.set(entry.prompts, names);
  }
  return names.get(name);
}

/** The server has said what it offers now: a prompt it does not list is gone, not merely not known yet. */
function listed(entry: ServerEntry): boolean {
  return !entry.cached && !entry.loading && !entry.listError && entry.connection.state.kind !== 'starting';
}

function serverKey(scope: string, id: string): string {
  return JSON.stringify([scope, id]);
}

export function promptGroups(
  servers: readonly ServerEntry[],
  held: readonly HeldEntry[],
  usage: UsageLists,
  maxRecent = Infinity,
): PromptGroups {
  const entries = new Map(servers.map(s => [serverKey(scopeOf(s.def), s.id), s]));
  const holds = new Map(held.map(h => [serverKey(scopeOf(h.def), h.def.id), h]));
  const pinned: PinnedPrompt[] = [];
  const pinnedPrompts = new Set<CatalogPrompt>();
  for (const { place } of usage.pins()) {
    const entry = entries.get(serverKey(place.scope, place.server));
    const prompt = entry && promptNamed(entry, place.prompt);
    if (prompt) {
      pinned.push({ prompt });
      pinnedPrompts.add(prompt);
    } else {
      const h = !entry ? holds.get(serverKey(place.scope, place.server)) : undefined;
      if (h) pinned.push({ held: h, place });
    }
  }
  const recent: RecentPrompt[] = [];
  const gone: PromptPlace[] = [];
  for (const run of usage.recent()) {
    const entry = entries.get(serverKey(run.place.scope, run.place.server));
    if (!entry) continue;
    const prompt = promptNamed(entry, run.place.prompt);
    if (!prompt) {
      if (listed(entry)) gone.push(run.place);
      continue;
    }
    if (recent.length >= maxRecent) continue;
    const args = run.args && run.definition === historyKey(prompt) ? run.args : undefined;
    // A pinned prompt is one row away already; it is recent again only as a re-run with its values.
    if (args) recent.push({ prompt, args });
    else if (!pinnedPrompts.has(prompt)) recent.push({ prompt });
  }
  return { pinned, recent, gone };
}

/**
 * The values of a recent run as the row shows them, as the invocation rule writes them (`team=beta
 * code="x = 1"`), each value cut short.
 */
export function argumentsText(args: Record<string, string>, maxValueChars = 40): string {
  return Object.entries(args)
    .map(([k, v]) => {
      const chars = [...v];
      const shown = chars.length > maxValueChars ? `${chars.slice(0, maxValueChars - 1).join('')}…` : v;
      return `${formatName(k)}=${formatValue(shown)}`;
    })
    .join(' ');
}

// Which prompt or skill a typed name means: `server.prompt` on that server, a bare `prompt` when exactly
// one server offers it, `server.skill` or `server.skill:name`; else the reason there is none (several
// servers offer it, the server is down or does not have it), as the message a person reads.
import * as l10n from '@vscode/l10n';
import { PromptError } from '../errors.js';
import { stateError } from '../protocol/connection/connection-state.js';
import type { CatalogPrompt, ServerEntry } from './catalog-entry.js';
import type { NameIndex } from './name-index.js';
import { SKILL_PREFIX, type CatalogSkill } from './skills.js';

export type ResolveResult = { prompt: CatalogPrompt } | { error: PromptError };

/** What a lookup reads of the catalog: the named server (if any), every server and the name index now, and a wait. */
export interface CatalogNames {
  entry: ServerEntry | undefined;
  entries(): readonly ServerEntry[];
  index: NameIndex<CatalogPrompt>;
  /** Resolves when the lists a name may be in are current (a server still listing, a re-list due). */
  listed(): Promise<void>;
}

/**
 * What a typed name runs (`server.prompt`, `prompt`, `server.skill`, `server.skill:name`): a prompt when
 * one has that name, else a skill of the server it names (never a skill by its bare name). Throws the
 * PromptError saying why there is neither.
 */
export function lookUpCommand(
  name: string,
  names: CatalogNames,
): Promise<{ prompt: CatalogPrompt } | { skill: CatalogSkill }> {
  const resolve = (entries: readonly ServerEntry[]) => resolveCommand(name, names.entry, entries, names.index);
  // A prompt of a server that listed it (every typed run in chat): found at once, as in lookUpPrompt.
  const found = names.entry ? resolve(names.entries()) : undefined;
  if (found && 'prompt' in found) return Promise.resolve(found);
  return afterListing(names, resolve, found);
}

/** The prompt `server.prompt` or a unique bare `prompt` names; throws the PromptError saying why there is none. */
export function lookUpPrompt(name: string, names: CatalogNames): Promise<CatalogPrompt> {
  const resolve = (entries: readonly ServerEntry[]) => resolveName(name, names.entry, entries, names.index);
  // `server.prompt` of a server that listed it (every typed run): found at once, without afterListing's async frames.
  const found = names.entry ? resolve(names.entries()) : undefined;
  if (found && 'prompt' in found) return Promise.resolve(found.prompt);
  return afterListing(names, resolve, found).then(r => r.prompt);
}

/**
 * A name no prompt has now is resolved again once the lists are current: a fresh start must not say
 * "unknown". A bare name is resolved only then, once every server has listed or failed: any server may
 * offer it, and one that lists first (a workspace's) must not take it from one still starting.
 */
async function afterListing<R extends { prompt: CatalogPrompt } | { skill: CatalogSkill } | { error: PromptError }>(
  names: CatalogNames,
  resolve: (entries: readonly ServerEntry[]) => R,
  first: R | undefined = names.entry ? resolve(names.entries()) : undefined,
): Promise<Exclude<R, { error: PromptError }>> {
  let found = first;
  if (!found || !('prompt' in found)) {
    await names.listed();
    found = resolve(names.entries());
  }
  if ('error' in found) throw found.error;
  return found as Exclude<R, { error: PromptError }>;
}

function resolveCommand(
  name: string,
  entry: ServerEntry | undefined,
  entries: readonly ServerEntry[],
  index: NameIndex<CatalogPrompt>,
): { prompt: CatalogPrompt } | { skill: CatalogSkill } | { error: PromptError } {
  const found = resolveName(name, entry, entries, index);
  if ('prompt' in found || !entry) return found;
  const part = name.slice(entry.id.length + 1);
  const skill = skillNamed(entry, part);
  if (skill) return { skill };
  if (found.error.kind !== 'input') return found;
  return {
    error: new PromptError(l10n.t('{0} has no prompt or skill "{1}"', entry.def.name, part), 'input', entry.def.name),
  };
}

/**
 * The skill the part after `server.` names: `skill:name` always, a plain `name` when no prompt of the
 * server has it (a prompt's name means the prompt). Undefined when none.
 */
export function skillNamed(entry: ServerEntry, name: string): CatalogSkill | undefined {
  if (name.startsWith(SKILL_PREFIX)) return entry.skills.find(s => s.name === name.slice(SKILL_PREFIX.length));
  if (entry.prompts.some(p => p.shortName === name || p.prompt.name === name)) return undefined;
  return entry.skills.find(s => s.name === name);
}

/** `entry`: the server the name starts with, if any; `entries` in configuration order. */
export function resolveName(
  name: string,
  entry: ServerEntry | undefined,
  entries: readonly ServerEntry[],
  index: NameIndex<CatalogPrompt>,
): ResolveResult {
  if (entry) {
    const promptName = name.slice(entry.id.length + 1);
    const found = entry.prompts.find(p => p.shortName === promptName || p.prompt.name === promptName);
    if (found) return { prompt: found };
    if (entry.listError) return { error: entry.listError };
    const down = stateError(entry.connection.state);
    if (down && !entry.prompts.length) return { error: down };
    return {
      error: new PromptError(l10n.t('{0} has no prompt "{1}"', entry.def.name, promptName), 'input', entry.def.name),
    };
  }
  const matches = index.get(name) ?? [];
  if (matches.length === 1) return onlyOffer(name, matches[0], entries);
  if (matches.length > 1) {
    const inConfigOrder = [...matches].sort((a, b) => entries.indexOf(a.server) - entries.indexOf(b.server));
    return {
      error: new PromptError(
        l10n.t(
          '"{0}" is offered by several servers; use one of: {1}',
          name,
          inConfigOrder.map(m => m.invocationName).join(', '),
        ),
        'input',
      ),
    };
  }
  const failed = entries.filter(e => e.listError || (stateError(e.connection.state) && !e.prompts.length));
  const hint = failed.length ? ' ' + l10n.t('(not reachable: {0})', failed.map(e => e.def.name).join(', ')) : '';
  return { error: new PromptError(l10n.t('No prompt named "{0}"', name) + hint, 'input') };
}

/**
 * The one prompt offering a bare name, unless it is a workspace server's while one of the user's own
 * servers has not listed (down, failing, starting): that server may offer the name too, and a
 * repository's server must not take the user's name meanwhile. `server.prompt` still runs it.
 */
function onlyOffer(name: string, only: CatalogPrompt, entries: readonly ServerEntry[]): ResolveResult {
  if (only.server.def.source !== 'workspace') return { prompt: only };
  const unlisted = entries.filter(e => e.def.source === 'user' && !e.listKnown);
  if (!unlisted.length) return { prompt: only };
  return {
    error: new PromptError(
      l10n.t(
        '"{0}" is offered by {1}, a server of the workspace, while your own {2} has not listed its prompts; type {3} to run that one',
        name,
        only.server.def.name,
        unlisted.map(e => e.def.name).join(', '),
        only.invocationName,
      ),
      'input',
    ),
  };
}

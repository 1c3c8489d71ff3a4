// How a prompt or a server is named on screen: a prompt's title, the slash command that runs it, and the
// warning for a name that may imitate another (mixed scripts; for servers invisible characters too, and
// where each of two servers named alike is defined). Chat /list, picker, tree, "Copy Invocation" and the
// agent's confirmation all say the same.
import * as l10n from '@vscode/l10n';
import type { CatalogPrompt } from '../catalog/catalog.js';
import { mixedScripts } from '../catalog/scripts.js';
import type { ServerDefinition } from '../config/config.js';
import { countHidden, replaceHidden } from '../hidden-text.js';

type Named = Pick<CatalogPrompt, 'prompt' | 'invocationName' | 'shortName' | 'unique' | 'mixedScripts'>;

/** The title the server gave, else its name. */
export function promptLabel(p: Pick<CatalogPrompt, 'prompt'>): string {
  return p.prompt.title ?? p.prompt.name;
}

/** What the user types after `/`: the short name when no other server has it. */
export function slashName(p: Named): string {
  return p.unique ? p.shortName : p.invocationName;
}

/** A name mixing scripts (a Cyrillic "а" among Latin letters) may imitate another prompt: said where it is picked. */
export function lookAlikeWarning(p: Named): string | undefined {
  if (!p.mixedScripts) return undefined;
  return l10n.t('mixes {0} letters: it may imitate another name', p.mixedScripts.join(' + '));
}

/** Characters that change no reading of a name but make it another: zero-width joiners and variation selectors. */
const INVISIBLE_IN_NAMES = /\u200c|\u200d|[\ufe00-\ufe0f]/gu;

/**
 * A server name that may imitate another: one holding characters no one sees (`git\u200bhub`), or whose
 * letters mix scripts (a Cyrillic "і" in "gіthub"). Said wherever a prompt's look-alike name is.
 */
export function serverNameWarning(name: string): string | undefined {
  const invisible = countHidden(name) + (name.match(INVISIBLE_IN_NAMES)?.length ?? 0);
  if (invisible) return l10n.t('holds {0} invisible characters: it may imitate another name', invisible);
  const scripts = mixedScripts(name);
  return scripts && l10n.t('mixes {0} letters: it may imitate another name', scripts.join(' + '));
}

/**
 * A server's label (`gіthub — ⚠ mixes …`) or row description (`⚠ mixes … · running · stdio`) with its
 * name's warning when the name may imitate another: where a narrow row cut the text, the mark still shows.
 */
export function markLookAlike(name: string, text: string, where: 'label' | 'description' = 'label'): string {
  const warning = serverNameWarning(name);
  if (!warning) return text;
  return where === 'label' ? `${text} — ⚠ ${warning}` : `⚠ ${warning} · ${text}`;
}

/** A name as it reads: without the characters no one sees, compatibility forms folded, in lower case. */
function reading(name: string): string {
  return replaceHidden(name.normalize('NFKC'), () => '')
    .replace(INVISIBLE_IN_NAMES, '')
    .toLowerCase();
}

/** The other servers whose names read as `entry`'s does (the same name, or the same once case and invisible characters go). */
export function namedAlike<S extends { def: Pick<ServerDefinition, 'name'> }>(entry: S, servers: readonly S[]): S[] {
  const read = reading(entry.def.name);
  return servers.filter(s => s !== entry && reading(s.def.name) === read);
}

/** Where a server is defined, for people: its file, else whose settings. */
export function definedIn(def: Pick<ServerDefinition, 'origin' | 'source'>): string {
  return def.origin ?? (def.source === 'workspace' ? l10n.t('this workspace') : l10n.t('your user settings'));
}

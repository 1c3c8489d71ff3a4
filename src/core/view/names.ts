// How a prompt is named on screen: its title, the slash command that runs it, and the warning for a
// name that mixes scripts. Chat /list, picker, tree and "Copy Invocation" all say the same.
import * as l10n from '@vscode/l10n';
import type { CatalogPrompt } from '../catalog/catalog.js';

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

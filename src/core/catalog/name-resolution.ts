// Which prompt a typed name means: `server.prompt` on that server, a bare `prompt` when exactly one
// server offers it; else the reason there is none (several servers offer it, the server is down or
// does not have it), as the message a person reads.
import * as l10n from '@vscode/l10n';
import { PromptError } from '../errors.js';
import { stateError } from '../protocol/connection-state.js';
import type { CatalogPrompt, ServerEntry } from './catalog.js';
import type { NameIndex } from './name-index.js';

export type ResolveResult = { prompt: CatalogPrompt } | { error: PromptError };

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
  if (matches.length === 1) return { prompt: matches[0] };
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

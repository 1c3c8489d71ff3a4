// Which argument history a prompt's values belong to: its server's definition (the consent fingerprint
// of the definition as written) and the prompt's name. Values typed for one repository's `api` server
// are never offered to another repository's `api` server, nor to a definition that changed.
import type { CatalogPrompt } from '../../catalog/catalog.js';
import { definitionFingerprint } from '../../config/consent.js';

export function historyKey(p: Pick<CatalogPrompt, 'server' | 'prompt'>): string {
  const def = p.server.def;
  return JSON.stringify([def.fingerprint ?? definitionFingerprint(def), p.prompt.name]);
}

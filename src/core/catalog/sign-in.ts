// The end of an OAuth sign-in: the browser is back at our loopback address with a code and the state
// we sent; find the server whose sign-in it answers and let it exchange the code for tokens.
import * as l10n from '@vscode/l10n';
import type { Catalog } from './catalog.js';
import type { ServerEntry } from './catalog-entry.js';
import { printable, type CallbackAnswer } from '../protocol/transport/oauth.js';

export function signInCallback(catalog: Catalog): (query: URLSearchParams) => Promise<CallbackAnswer> {
  return async query => {
    const state = query.get('state');
    let entry: ServerEntry | undefined;
    // Each state is taken once: a replayed redirect finds no sign-in under way.
    for (const e of catalog.servers) if (!entry && (await e.connection.oauth?.consumeState(state))) entry = e;
    if (!entry)
      return {
        ok: false,
        message: l10n.t('This sign-in was not started by MCP Prompts, or it has expired. Start it again from VS Code.'),
      };
    const refused = await entry.connection.oauth!.refuseIssuer(query.get('iss'));
    const code = query.get('code');
    if (refused || !code) {
      const message =
        refused?.message ??
        l10n.t(
          '{0}: the sign-in was refused: {1}',
          entry.def.name,
          printable(query.get('error_description') ?? query.get('error') ?? l10n.t('no code'), 500),
        );
      entry.connection.log.warn(message);
      // The state is spent: start over, so that Sign In offers a fresh address.
      await entry.connection.restart().catch(() => undefined);
      return { ok: false, message };
    }
    try {
      await entry.connection.finishAuthorization(query);
    } catch (err) {
      await entry.connection.restart().catch(() => undefined);
      throw err;
    }
    return {
      ok: true,
      message: l10n.t('Signed in to {0}. You can close this page and return to VS Code.', entry.def.name),
    };
  };
}

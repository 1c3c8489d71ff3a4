// Which welcome content the MCP Prompts view shows instead of rows, decided from the catalog and the
// configuration read. VS Code shows a view's welcome content only while the tree has no rows, so when
// this answers a case the tree returns none and the edge sets the context key `mcpPrompts.welcome`
// that package.json's viewsWelcome entries match.
import type { HeldEntry } from '../config/server-merge.js';
import { serverState, type ServerSnapshot } from './server-state.js';

/**
 * `noServers`: nothing configured anywhere (action: Add Server…).
 * `allFailing`: servers are configured and every one is down with nothing to offer (action: Show Log).
 * `untrusted`: Restricted Mode holds back every configured server (action: Manage Workspace Trust).
 */
export type ViewWelcome = 'noServers' | 'allFailing' | 'untrusted';

export interface ViewSnapshot {
  readonly trusted: boolean;
  readonly servers: readonly ServerSnapshot[];
  readonly held: readonly Pick<HeldEntry, 'reason'>[];
  /** Configuration files that could not be read: their rows say what is wrong, so they are always shown. */
  readonly problems: number;
}

/** Held back only because the workspace is not trusted (its servers, or a user server's envFile or folder in it). */
const RESTRICTED: ReadonlySet<string> = new Set(['untrusted', 'envFile', 'workspaceFolder']);

/** The welcome case, or undefined when the rows say more than a welcome would. */
export function viewWelcome(v: ViewSnapshot): ViewWelcome | undefined {
  if (v.problems > 0) return undefined;
  if (!v.servers.length) {
    if (!v.held.length) return 'noServers';
    // Consent, declined, disabled or shadowed rows each have their own click: keep them.
    return !v.trusted && v.held.every(h => RESTRICTED.has(h.reason)) ? 'untrusted' : undefined;
  }
  if (v.held.length) return undefined;
  // Only servers that are down with no prompts: a cached list, a sign-in or a start in progress keeps rows.
  return v.servers.every(s => serverState(s).kind === 'failed') ? 'allFailing' : undefined;
}

/** Some server is configured (running or not): the walkthrough's "find your servers" step is done. */
export function serversFound(v: ViewSnapshot): boolean {
  return v.servers.length > 0 || v.held.length > 0;
}

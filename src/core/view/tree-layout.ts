// The tree at a glance: which servers start expanded, which rows come first, and the view's badge.
// Decided here from plain data; src/ui/tree.ts only applies it.
import * as l10n from '@vscode/l10n';
import type { HeldEntry } from '../config/server-merge.js';
import { isFailing, serverState, type ServerSnapshot, type ServerState } from './server-state.js';

/** Rows a sidebar of ordinary height shows without scrolling (22 px rows in about 700 px). */
export const VISIBLE_ROWS = 30;

/**
 * A server starts expanded when its prompts fit its share of the visible rows: every server row
 * stays on screen, and the expanded ones together never push one off. 6 servers: up to 4 prompts each;
 * 1 server: up to 29; 30 servers or more: all collapsed. Per server, so it does not depend on which
 * server answered first.
 */
export function expandByDefault(promptCount: number, serverCount: number): boolean {
  const share = Math.floor(VISIBLE_ROWS / Math.max(1, serverCount)) - 1;
  return promptCount <= share;
}

/** A server the user should look at: it fails (or its listing does) or waits for them to sign in. */
export function needsAttention(state: ServerState): boolean {
  return state.kind === 'signIn' || isFailing(state);
}

/** Rows that need attention first, then the rest; each group keeps its order (the configuration's). */
export function attentionFirst<T>(rows: readonly T[], attention: (row: T) => boolean): T[] {
  return [...rows.filter(attention), ...rows.filter(r => !attention(r))];
}

export interface Badge {
  value: number;
  tooltip: string;
}

/** The view's badge: how many things need the user (failing servers, sign-ins, consents, unreadable files). */
export function attentionBadge(
  servers: readonly ServerSnapshot[],
  held: readonly HeldEntry[],
  problems: number,
): Badge | undefined {
  const states = servers.map(serverState);
  const signIn = states.filter(s => s.kind === 'signIn').length;
  const failing = states.filter(s => s.kind !== 'signIn' && isFailing(s)).length;
  const consent = held.filter(h => h.reason === 'consent').length;
  const value = failing + signIn + consent + problems;
  if (!value) return undefined;
  const parts = [
    failing ? l10n.t('{0} failing', failing) : '',
    signIn ? l10n.t('{0} waiting for you to sign in', signIn) : '',
    consent ? l10n.t('{0} waiting for your consent', consent) : '',
    problems ? l10n.t('{0} configuration files not read', problems) : '',
  ].filter(Boolean);
  return { value, tooltip: l10n.t('MCP Prompts: {0}', parts.join(', ')) };
}

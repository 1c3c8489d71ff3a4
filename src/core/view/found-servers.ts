// "Show Found Servers" (the walkthrough's first step): what the configuration read found, grouped by
// the file or setting that defines it, then the discovery sources that are switched off, then the ways
// to add more. Rows for the quick pick; the edge only shows them and runs the chosen action.
import * as l10n from '@vscode/l10n';
import type { DiscoverySource, DiscoverySwitches } from '../config/config-locations.js';
import type { HeldEntry } from '../config/server-merge.js';
import { heldItem, serverItem, type ServerView } from './tree-items.js';
import { definedIn } from './names.js';

export type FoundAction =
  | { kind: 'log'; id: string }
  | { kind: 'discovery' }
  | { kind: 'addServer' }
  | { kind: 'importServers' }
  /** A held-back server's own action, as its tree row has it (trust, allow, enable…). */
  | { kind: 'command'; command: string; arguments?: readonly unknown[] }
  | { kind: 'none' };

export interface FoundRow {
  readonly label: string;
  readonly description?: string;
  /** A group heading (the quick pick's separator), not a row to pick. */
  readonly separator?: boolean;
  readonly action: FoundAction;
}

export interface FoundInput {
  readonly servers: readonly ServerView[];
  readonly held: readonly HeldEntry[];
  readonly problems: readonly { readonly origin: string; readonly message: string }[];
  readonly discovery: DiscoverySwitches;
}

const CLIENT_NAMES: Record<DiscoverySource, string> = {
  claudeDesktop: 'Claude Desktop',
  claudeCode: 'Claude Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
};

export function foundServerRows(input: FoundInput): FoundRow[] {
  const groups = new Map<string, FoundRow[]>();
  const add = (origin: string, row: FoundRow) => groups.set(origin, [...(groups.get(origin) ?? []), row]);
  for (const p of input.problems) add(p.origin, { label: p.message, action: { kind: 'none' } });
  for (const s of input.servers) {
    const item = serverItem(s);
    add(definedIn(s.def), { label: s.def.name, description: item.description, action: { kind: 'log', id: s.id } });
  }
  for (const h of input.held) {
    const item = heldItem(h);
    const action: FoundAction = item.command
      ? { kind: 'command', command: item.command.command, arguments: item.command.arguments }
      : { kind: 'none' };
    add(h.origin, { label: h.def.name, description: item.description ?? h.message, action });
  }
  const rows: FoundRow[] = [];
  if (!groups.size) rows.push({ label: l10n.t('No MCP servers are configured.'), action: { kind: 'none' } });
  for (const [origin, members] of groups)
    rows.push({ label: origin, separator: true, action: { kind: 'none' } }, ...members);
  const off = (Object.keys(CLIENT_NAMES) as DiscoverySource[]).filter(k => !input.discovery[k]);
  if (off.length) {
    rows.push(
      { label: l10n.t('Not read (switched off in mcpPrompts.discovery)'), separator: true, action: { kind: 'none' } },
      {
        label: off.map(k => CLIENT_NAMES[k]).join(', '),
        description: l10n.t('Switch on…'),
        action: { kind: 'discovery' },
      },
    );
  }
  rows.push(
    { label: '', separator: true, action: { kind: 'none' } },
    { label: l10n.t('Add Server…'), action: { kind: 'addServer' } },
    { label: l10n.t('Import Servers…'), action: { kind: 'importServers' } },
  );
  return rows;
}

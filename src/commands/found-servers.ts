// mcpPrompts.showFoundServers (linked from the walkthrough's first step): what the configuration read
// found, as a quick pick whose rows lead on: a server to its log, a held-back one to its own action.
import * as vscode from 'vscode';
import { Command, Workbench } from '../core/command-ids';
import { foundServerRows, type FoundRow } from '../core/view/found-servers';
import { DISCOVERY_SETTING, readDiscovery } from '../settings';
import type { ServerParts } from './servers';

type Item = vscode.QuickPickItem & { row?: FoundRow };

export async function showFoundServers(p: ServerParts): Promise<void> {
  const rows = foundServerRows({
    servers: p.catalog.servers,
    held: p.configuration.held,
    problems: p.configuration.problems,
    discovery: readDiscovery(),
  });
  const items: Item[] = rows.map(row =>
    row.separator
      ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
      : { label: row.label, description: row.description, row },
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('MCP servers found'),
    placeHolder: vscode.l10n.t('Select a server to see its log'),
  });
  const action = picked?.row?.action;
  switch (action?.kind) {
    case 'log': {
      const entry = p.catalog.servers.find(s => s.id === action.id);
      if (entry) p.logs.channel(entry.def).show();
      return;
    }
    case 'discovery':
      await vscode.commands.executeCommand(Workbench.openSettings, DISCOVERY_SETTING);
      return;
    case 'addServer':
      await vscode.commands.executeCommand(Command.addServer);
      return;
    case 'importServers':
      await vscode.commands.executeCommand(Command.importServers);
      return;
    case 'command':
      await vscode.commands.executeCommand(action.command, ...(action.arguments ?? []));
      return;
    case 'none':
    case undefined:
      return;
  }
}

// Status bar: servers running / failing; a click opens the sidebar.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import { statusSummary } from '../core/view/status-summary';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerConfiguration } from '../workspace/server-configuration';

export function registerStatus(catalog: Catalog, configuration: ServerConfiguration): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpPrompts.status', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('MCP Prompts');
  item.command = Command.focusView;
  const update = () => {
    const summary = statusSummary(catalog.servers, configuration.held.length, catalog.prompts.length);
    if (!summary) {
      item.hide();
      return;
    }
    item.text = summary.text;
    item.tooltip = summary.tooltip;
    item.accessibilityInformation = { label: summary.tooltip };
    item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  const subs = [catalog.onDidChange(update), configuration.onDidLoad(update)];
  update();
  return {
    dispose: () => {
      item.dispose();
      for (const s of subs) s.dispose();
    },
  };
}

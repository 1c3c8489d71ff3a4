// Status bar: servers running / failing; a click opens the sidebar.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import { statusSummary } from '../core/view/items';
import type { ExtensionState } from '../state';

export function registerStatus(state: ExtensionState): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpPrompts.status', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('MCP Prompts');
  item.command = Command.focusView;
  const update = () => {
    const summary = statusSummary(state.catalog.servers, state.held.length, state.catalog.prompts.length);
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
  const subs = [state.catalog.onDidChange(update), state.onDidLoadConfig(update)];
  update();
  return {
    dispose: () => {
      item.dispose();
      for (const s of subs) s.dispose();
    },
  };
}

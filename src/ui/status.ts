// Status bar: servers running / failing; a click opens the sidebar.
import * as vscode from 'vscode';
import { serverError } from '../core/catalog';
import type { ExtensionState } from '../state';

export function registerStatus(state: ExtensionState): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpPrompts.status', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('MCP Prompts');
  item.command = 'mcpPrompts.focusView';
  const update = () => {
    const servers = state.catalog.servers;
    const running = servers.filter(s => s.connection.status === 'running').length;
    const failing = servers.filter(s => serverError(s)).length;
    if (!servers.length && !state.held.length) { item.hide(); return; }
    item.text = failing ? `$(plug) ${running} $(error) ${failing}` : `$(plug) ${running}`;
    item.tooltip = vscode.l10n.t('MCP Prompts: {0} running, {1} failing, {2} prompts', running, failing, state.catalog.prompts.length);
    item.accessibilityInformation = { label: item.tooltip };
    item.backgroundColor = failing ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  const subs = [state.catalog.onDidChange(update), state.onDidLoadConfig(update)];
  update();
  return { dispose: () => { item.dispose(); for (const s of subs) s.dispose(); } };
}

// "MCP Prompts: Run Prompt…": one quick pick over every prompt of every server, grouped by server.
import * as vscode from 'vscode';
import { serverError, type CatalogPrompt, type ServerEntry } from '../core/catalog';
import { argumentList } from '../core/invocation';
import type { ExtensionState } from '../state';

export interface PickerItem extends vscode.QuickPickItem { prompt?: CatalogPrompt; logOf?: ServerEntry }

/** Items for the picker; a plain function of the catalog so the benchmark can time it. */
export function pickerItems(servers: readonly ServerEntry[]): PickerItem[] {
  const items: PickerItem[] = [];
  for (const s of servers) {
    items.push({ label: s.def.name, kind: vscode.QuickPickItemKind.Separator });
    if (s.loading && !s.prompts.length) {
      items.push({ label: `$(loading~spin) ${vscode.l10n.t('{0} is starting…', s.def.name)}`, alwaysShow: true });
      continue;
    }
    const error = serverError(s);
    if (error && !s.prompts.length) {
      items.push({ label: `$(error) ${vscode.l10n.t('{0} failed', s.def.name)}`, description: error.message, detail: vscode.l10n.t('Select to open its log'), logOf: s, alwaysShow: true });
      continue;
    }
    const icon = iconOf(s);
    for (const p of s.prompts) {
      const args = argumentList(p);
      // A name mixing scripts (a Cyrillic "а" among Latin letters) may imitate another prompt: say so where it is picked.
      const lookAlike = p.mixedScripts ? vscode.l10n.t('mixes {0} letters: it may imitate another name', p.mixedScripts.join(' + ')) : undefined;
      items.push({
        label: `${lookAlike ? '$(warning) ' : ''}${p.prompt.title ?? p.prompt.name}`,
        description: `/${p.unique ? p.shortName : p.invocationName}`,
        detail: [lookAlike, p.prompt.description, args ? vscode.l10n.t('arguments: {0}', args) : undefined].filter(Boolean).join(' — ') || undefined,
        iconPath: icon,
        prompt: p,
      });
    }
  }
  return items;
}

function iconOf(s: ServerEntry): vscode.Uri | undefined {
  const src = s.connection.info?.serverInfo?.icons?.find(i => /^data:image\/(png|jpeg|gif|webp);base64,/.test(i.src))?.src;
  return src ? vscode.Uri.parse(src) : undefined;
}

/** Shows the picker; it follows the catalog live while open. Resolves the chosen prompt. */
export function pickPrompt(state: ExtensionState): Promise<CatalogPrompt | undefined> {
  const qp = vscode.window.createQuickPick<PickerItem>();
  qp.title = vscode.l10n.t('Run MCP Prompt');
  qp.placeholder = vscode.l10n.t('Type to filter by name, title or description');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const update = () => {
    qp.items = pickerItems(state.catalog.servers);
    qp.busy = state.catalog.servers.some(s => s.loading);
    if (!state.catalog.servers.length) qp.items = [{ label: `$(add) ${vscode.l10n.t('No MCP servers configured — add one…')}`, alwaysShow: true }];
  };
  const sub = state.catalog.onDidChange(update);
  update();
  return new Promise(resolve => {
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (!item) return;
      qp.hide();
      if (item.prompt) resolve(item.prompt);
      else {
        resolve(undefined);
        if (item.logOf) state.log(item.logOf.def).show();
        else if (!state.catalog.servers.length) void vscode.commands.executeCommand('mcpPrompts.addServer');
      }
    });
    qp.onDidHide(() => { sub.dispose(); qp.dispose(); resolve(undefined); });
    qp.show();
  });
}

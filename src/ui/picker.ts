// "MCP Prompts: Run Prompt…": one quick pick over every prompt and skill of every server, grouped by
// server. A skill's row loads it when accepted; its button inspects it.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import type { Catalog, CatalogPrompt, ServerEntry } from '../core/catalog/catalog';
import type { CatalogSkill } from '../core/catalog/skills';
import { mergePickerRows, pickerItems as itemViews, type PickerItemView } from '../core/view/items';
import type { ServerLogs } from '../workspace/server-logs';
import { questionShowing } from './question-input';
import { labelText } from '../core/label';

export interface PickerItem extends vscode.QuickPickItem {
  prompt?: CatalogPrompt;
  skill?: CatalogSkill;
  logOf?: ServerEntry;
}

/** What the person chose: a prompt, or a skill to load (or, by its button, to inspect). */
export type Picked = { prompt: CatalogPrompt } | { skill: CatalogSkill; inspect: boolean };

/** A skill row's button. */
function inspectButton(): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon('eye'), tooltip: vscode.l10n.t('Inspect Skill') };
}

/** The picker's rows (decided in core/view/items.ts) as quick pick items; the benchmark times this. */
export function pickerItems(servers: readonly ServerEntry[]): PickerItem[] {
  return toQuickPickItems(itemViews(servers));
}

function toQuickPickItems(views: readonly PickerItemView<ServerEntry>[]): PickerItem[] {
  return views.map(v => {
    if (v.separator) return { label: v.label, kind: vscode.QuickPickItemKind.Separator };
    const item: PickerItem = { label: v.label };
    if (v.description !== undefined) item.description = v.description;
    if (v.detail !== undefined) item.detail = v.detail;
    if (v.alwaysShow) item.alwaysShow = true;
    if (v.prompt) {
      item.prompt = v.prompt;
      item.iconPath = v.iconUri ? vscode.Uri.parse(v.iconUri) : undefined;
    }
    if (v.skill) {
      item.skill = v.skill;
      item.buttons = [inspectButton()];
    }
    if (v.logOf) item.logOf = v.logOf;
    return item;
  });
}

/** Shows the picker; it follows the catalog live while open. Resolves what was chosen. */
export function pickPrompt(catalog: Catalog, logs: ServerLogs): Promise<Picked | undefined> {
  const qp = vscode.window.createQuickPick<PickerItem>();
  qp.title = vscode.l10n.t('Run MCP Prompt');
  qp.placeholder = vscode.l10n.t('Type to filter by name, title or description');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  // The rows shown so far: while the picker is open they only change in place or grow at the end
  // (mergePickerRows), so the index VS Code reports for an accepted row is the row the person chose.
  let shown: PickerItemView<ServerEntry>[] = [];
  const update = () => {
    const next: PickerItemView<ServerEntry>[] = catalog.servers.length
      ? itemViews(catalog.servers)
      : [{ label: `$(add) ${vscode.l10n.t('No MCP servers configured — add one…')}`, alwaysShow: true, key: 'none' }];
    shown = shown.length ? mergePickerRows(shown, next) : next;
    qp.items = toQuickPickItems(shown);
    qp.busy = catalog.servers.some(s => s.loading);
  };
  const sub = catalog.onDidChange(update);
  update();
  return new Promise(resolve => {
    qp.onDidTriggerItemButton(({ item }) => {
      if (!item.skill) return;
      qp.hide();
      const skill = skillStillOffered(catalog, item.skill);
      resolve(skill && { skill, inspect: true });
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (!item) return;
      qp.hide();
      if (item.prompt) {
        const prompt = stillOffered(catalog, item.prompt);
        resolve(prompt && { prompt });
      } else if (item.skill) {
        const skill = skillStillOffered(catalog, item.skill);
        resolve(skill && { skill, inspect: false });
      } else {
        resolve(undefined);
        if (item.logOf) logs.channel(item.logOf.def).show();
        else if (!catalog.servers.length) void vscode.commands.executeCommand(Command.addServer);
      }
    });
    qp.onDidHide(() => {
      // A server's question (asked while the catalog re-lists) took the one quick input VS Code has:
      // the picker comes back as it was, text included, once the question is answered.
      const question = questionShowing();
      if (question) {
        const value = qp.value;
        void question.then(() => {
          // VS Code selects a pre-filled value on show (QuickPick has no stable valueSelection): the
          // text and the row it filtered are back, Enter runs it, typing replaces it.
          qp.value = value;
          qp.show();
        });
        return;
      }
      sub.dispose();
      qp.dispose();
      resolve(undefined);
    });
    qp.show();
  });
}

/**
 * The accepted prompt as its server offers it now; a prompt it dropped (its row marked, or removed
 * after the last update) is not run, and the person is told which server dropped it.
 */
function stillOffered(catalog: Catalog, picked: CatalogPrompt): CatalogPrompt | undefined {
  const server = catalog.servers.find(s => s.id === picked.server.id);
  const now = server?.prompts.find(p => p.prompt.name === picked.prompt.name);
  if (!now) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The prompt "{0}" is no longer offered by the server {1}.',
        labelText(picked.prompt.name),
        labelText(picked.server.def.name),
      ),
    );
  }
  return now;
}

/** The skill as its server offers it now (by its URI); one it dropped is said, not used. */
function skillStillOffered(catalog: Catalog, picked: CatalogSkill): CatalogSkill | undefined {
  const server = catalog.servers.find(s => s.id === picked.server.id);
  const now = server?.skills.find(k => k.skill.uri === picked.skill.uri);
  if (!now) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The skill "{0}" is no longer offered by the server {1}.',
        labelText(picked.name),
        labelText(picked.server.def.name),
      ),
    );
  }
  return now;
}

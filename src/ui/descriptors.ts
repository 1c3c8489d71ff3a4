// Turns the view layer's plain descriptors (src/core/view/tree-items.ts) into VS Code objects. Nothing is
// decided here: what a row says and shows is decided in the core, where plain-Node tests reach it.
import * as vscode from 'vscode';
import type { CommandRef, Icon, TooltipPart, TreeItemView } from '../core/view/tree-items';

export function toIcon(icon: Icon): vscode.ThemeIcon | vscode.Uri {
  if ('uri' in icon) return vscode.Uri.parse(icon.uri);
  return new vscode.ThemeIcon(icon.codicon, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** Our markdown as markdown, server text as text (escaped by appendText). */
export function toTooltip(tooltip: string | TooltipPart[] | undefined): string | vscode.MarkdownString | undefined {
  if (!Array.isArray(tooltip)) return tooltip;
  const md = new vscode.MarkdownString(undefined, false);
  for (const part of tooltip) {
    if ('markdown' in part) md.appendMarkdown(part.markdown);
    else md.appendText(part.text);
  }
  return md;
}

/** Runs a descriptor's command as a click on its row would (a held server's way out). */
export function executeRef(ref: CommandRef): Thenable<unknown> {
  return vscode.commands.executeCommand(ref.command, ...(ref.arguments ?? []));
}

export function toCommand(ref: CommandRef): vscode.Command {
  return { command: ref.command, title: ref.title, ...(ref.arguments ? { arguments: ref.arguments } : {}) };
}

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

export function toTreeItem(view: TreeItemView): vscode.TreeItem {
  const item = new vscode.TreeItem(view.label, COLLAPSIBLE[view.collapsible]);
  if (view.id !== undefined) item.id = view.id;
  item.description = view.description;
  item.tooltip = toTooltip(view.tooltip);
  item.iconPath = toIcon(view.icon);
  item.contextValue = view.contextValue;
  if (view.command) item.command = toCommand(view.command);
  return item;
}

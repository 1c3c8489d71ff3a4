// The sidebar's nodes (what each row stands for) and the rows of its groups, the pinned prompt of a server
// that does not run, and a filter's "more" row. Only nodes made here are taken as a row's command argument.
import * as vscode from 'vscode';
import type { CatalogPrompt, ServerEntry } from '../core/catalog/catalog';
import type { CatalogSkill } from '../core/catalog/skills';
import type { HeldEntry } from '../core/view/server-state';
import { heldItem, heldWayOut } from '../core/view/tree-items';
import type { PromptGroups } from '../core/view/prompt-groups';
import { placeKey, placeOf, type PromptPlace } from '../core/run/records/prompt-usage';
import { labelText } from '../core/label';
import { toTreeItem } from './descriptors';

export type Group = 'pinned' | 'recent';

export type Node =
  /** `listed`: the entry had prompts or skills when this row was made (a row without has another id, core/view/tree-items.ts). */
  | { type: 'server'; entry: ServerEntry; listed: boolean; filtered?: boolean }
  | { type: 'skills'; entry: ServerEntry }
  | { type: 'skill'; skill: CatalogSkill }
  | { type: 'blocked'; held: HeldEntry }
  | { type: 'problem'; origin: string; message: string }
  | { type: 'group'; group: Group }
  /** `args`: a recent run's values, which its Run Again action runs it with. */
  | { type: 'prompt'; prompt: CatalogPrompt; group?: Group; args?: Record<string, string> }
  /** A pinned prompt of a server that does not run. */
  | { type: 'heldPin'; held: HeldEntry; place: PromptPlace }
  | { type: 'more'; count: number }
  | { type: 'argument'; prompt: CatalogPrompt; index: number };

/** Every node this tree handed to VS Code: a command's argument is one of them, or not a node at all. */
const made = new WeakSet<object>();

export function mk<T extends Node>(node: T): T {
  made.add(node);
  return node;
}

/** `arg` when it is a node of the tree (a row's command), not an object from elsewhere (a key binding's `args`). */
export function treeNode(arg: unknown): Node | undefined {
  return arg && typeof arg === 'object' && made.has(arg) ? (arg as Node) : undefined;
}

/** The server row has something under it: prompts, or skills. */
export function hasRows(entry: ServerEntry): boolean {
  return entry.prompts.length > 0 || entry.skills.length > 0;
}

/** The pinned prompts' places (placeKey) and their servers' ids. */
export function pinnedPlaces(groups: PromptGroups): Map<string, string> {
  return new Map(
    groups.pinned.flatMap(p => ('prompt' in p ? [[placeKey(placeOf(p.prompt)), p.prompt.server.id]] : [])),
  );
}

export function groupItem(group: Group): vscode.TreeItem {
  const item = new vscode.TreeItem(
    group === 'pinned' ? vscode.l10n.t('Pinned') : vscode.l10n.t('Recently used'),
    vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `group:${group}`;
  item.iconPath = new vscode.ThemeIcon(group === 'pinned' ? 'pinned' : 'history');
  item.contextValue = `group.${group}`;
  return item;
}

/** A pinned prompt whose server does not run: why, and a click on it is the way out (trust, consent, enable). */
export function heldPinItem(held: HeldEntry, place: PromptPlace): vscode.TreeItem {
  const row = heldItem(held);
  const way = heldWayOut(held);
  return toTreeItem({
    ...row,
    id: `pinned-held:${placeKey(place)}`,
    label: labelText(place.prompt),
    description: `${row.label} — ${row.description ?? ''}`,
    contextValue: 'heldPin',
    ...(way ? { command: way } : {}),
  });
}

export function moreItem(count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('{0} more prompts match: type more words', count));
  item.id = 'filter:more';
  item.iconPath = new vscode.ThemeIcon('search');
  return item;
}

// "MCP Prompts: Run Prompt…": one quick pick over every prompt of every server, pinned and recent ones
// first (core/view/picker-rows.ts). The filter is ours, word by word over title, name, description,
// server and argument names; VS Code gets the rows that match (a bounded number, all `alwaysShow`) and
// keeps their order. It follows the catalog live while open.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import type { Catalog, CatalogPrompt, ServerEntry } from '../core/catalog/catalog';
import type { HeldEntry } from '../core/config/server-merge';
import type { PickerItemView } from '../core/view/items';
import { heldWayOut, pickerItems } from '../core/view/items';
import { whenQuiet } from '../core/events';
import { filterPickerRows, MAX_PICKER_ROWS, mergePickerRows, pickerRows } from '../core/view/picker-rows';
import { promptGroups } from '../core/view/prompt-groups';
import type { PromptPlace, PromptUsage } from '../core/run/prompt-usage';
import type { ServerLogs } from '../workspace/server-logs';
import { questionShowing } from './question-input';
import { labelText } from '../core/label';
import { executeRef } from './descriptors';

type Row = PickerItemView<ServerEntry>;

export interface PickerItem extends vscode.QuickPickItem {
  row?: Row;
}

/** What the picker uses: the catalog, the logs a failed server's row opens, the usage, the held servers. */
export interface PickerParts {
  catalog: Catalog;
  logs: ServerLogs;
  usage: PromptUsage;
  configuration: { readonly held: readonly HeldEntry[] };
}

/** The chosen prompt, with the values of a recent run when that row was chosen. */
export interface Picked {
  prompt: CatalogPrompt;
  values?: Record<string, string>;
}

const items = new WeakMap<Row, PickerItem>();

function pinButton(pinned: boolean): vscode.QuickInputButton {
  return pinned
    ? { iconPath: new vscode.ThemeIcon('pinned'), tooltip: vscode.l10n.t('Unpin') }
    : { iconPath: new vscode.ThemeIcon('pin'), tooltip: vscode.l10n.t('Pin') };
}

/** A row as VS Code's item, made once per row (rows are made once per listing). */
function toItem(row: Row): PickerItem {
  const made = items.get(row);
  if (made) return made;
  const item: PickerItem = row.separator
    ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
    : { label: row.label, alwaysShow: true, row };
  if (!row.separator) {
    if (row.description !== undefined) item.description = row.description;
    if (row.detail !== undefined) item.detail = row.detail;
    if (row.iconUri) item.iconPath = vscode.Uri.parse(row.iconUri);
    if (row.prompt || row.place) item.buttons = [pinButton(!!row.pinned)];
  }
  items.set(row, item);
  return item;
}

/**
 * Makes the picker's rows once the catalog has settled, so the first Run Prompt… after the servers
 * listed does not make 10,000 rows while the person waits (rows are kept per listing: items.ts).
 */
export function preparePickerRows(catalog: Catalog): vscode.Disposable {
  const d = whenQuiet(catalog.onDidChange, SETTLE_MS, () => {
    pickerItems(catalog.servers);
  });
  return { dispose: () => d.dispose() };
}

/** How long the catalog stays unchanged before the rows are made ahead of use. */
const SETTLE_MS = 500;

/** Shows the picker; resolves the chosen prompt. `title`: what choosing does (Run, Pin). */
export function pickPrompt(parts: PickerParts, title = vscode.l10n.t('Run MCP Prompt')): Promise<Picked | undefined> {
  const { catalog, usage } = parts;
  const qp = vscode.window.createQuickPick<PickerItem>();
  qp.title = title;
  qp.placeholder = vscode.l10n.t('Type words of a title, name, description, server or argument');
  // Our filter decides what matches: VS Code neither searches the descriptions again nor re-sorts.
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  Object.assign(qp, { sortByLabel: false });
  let rows: Row[] = [];
  // The rows shown so far. After a catalog change they only change in place or grow at the end
  // (mergePickerRows), so the index VS Code reports for an accepted row is the row the person chose.
  let shown: Row[] = [];
  const build = () => {
    if (!catalog.servers.length) {
      rows = [
        { label: `$(add) ${vscode.l10n.t('No MCP servers configured — add one…')}`, alwaysShow: true, key: 'none' },
      ];
      return;
    }
    const groups = promptGroups(catalog.servers, parts.configuration.held, usage);
    void usage.forget(groups.gone);
    rows = pickerRows(catalog.servers, groups);
  };
  const show = () => {
    qp.items = shown.map(toItem);
    qp.busy = catalog.servers.some(s => s.loading);
  };
  const typed = () => {
    shown = filterPickerRows(rows, qp.value);
    show();
  };
  const changed = () => {
    build();
    shown = mergePickerRows(shown, filterPickerRows(rows, qp.value, Infinity), MAX_PICKER_ROWS);
    show();
  };
  const subs = [
    catalog.onDidChange(changed),
    // Pinned or unpinned: the rows show it where they are; the groups change the next time the picker opens.
    usage.onDidChange(() => {
      build();
      shown = shown.map(row => (row.prompt || row.place ? { ...row, pinned: usage.isPinned(placeOfRow(row)) } : row));
      show();
    }),
    // Answered at once, in the same turn: an Enter that follows in the same batch then takes a row of
    // the list for the whole query (VS Code maps the accepted row by its index in the list set last).
    qp.onDidChangeValue(typed),
    qp.onDidTriggerItemButton(e => {
      const row = e.item.row;
      if (row && (row.prompt || row.place)) void usage.setPinned(placeOfRow(row), !row.pinned);
    }),
  ];
  build();
  typed();
  return new Promise(resolve => {
    qp.onDidAccept(() => {
      const row = qp.selectedItems[0]?.row;
      if (!row || row.more) return;
      qp.hide();
      if (row.prompt) {
        const prompt = stillOffered(catalog, row.prompt);
        resolve(prompt && { prompt, ...(row.args ? { values: row.args } : {}) });
        return;
      }
      resolve(undefined);
      if (row.held) offerWayOut(row.held);
      else if (row.logOf) parts.logs.channel(row.logOf.def).show();
      else if (!catalog.servers.length) void vscode.commands.executeCommand(Command.addServer);
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
          typed();
          qp.show();
        });
        return;
      }
      for (const s of subs) s.dispose();
      qp.dispose();
      resolve(undefined);
    });
    qp.show();
  });
}

/** The prompt (or the held server's pinned place) a row stands for. */
function placeOfRow(row: Row): CatalogPrompt | PromptPlace {
  return row.prompt ?? row.place!;
}

/** A pinned prompt of a server that does not run: the reason, and the one action that lets it run. */
function offerWayOut(held: HeldEntry): void {
  const way = heldWayOut(held);
  const message = labelText(held.message, 1000);
  void vscode.window.showInformationMessage(message, ...(way ? [way.title] : [])).then(choice => {
    if (way && choice === way.title) void executeRef(way);
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

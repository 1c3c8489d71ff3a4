// "MCP Prompts: Run Prompt…": one quick pick over every prompt and skill of every server, pinned and
// recent prompts first (core/view/picker-rows.ts). A skill's row loads it when accepted; its button
// inspects it. The filter is ours, word by word over title, name, description,
// server and argument names; VS Code gets the rows that match (a bounded number, all `alwaysShow`) and
// keeps their order. It follows the catalog live while open.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import type { Catalog, CatalogPrompt, ServerEntry } from '../core/catalog/catalog';
import type { CatalogSkill } from '../core/catalog/skills';
import type { HeldEntry } from '../core/config/server-merge';
import { heldWayOut } from '../core/view/tree-items';
import { whenQuiet } from '../core/events';
import {
  filterPickerRows,
  MAX_PICKER_ROWS,
  mergePickerRows,
  pickerItems,
  pickerRows,
  type PickerRow,
  type PinnableRow,
} from '../core/view/picker-rows';
import { argumentsText, promptGroups } from '../core/view/prompt-groups';
import type { PromptPlace, PromptUsage } from '../core/run/records/prompt-usage';
import type { ServerLogs } from '../workspace/server-logs';
import { questionShowing } from './question-input';
import { labelText } from '../core/label';
import { executeRef } from './descriptors';

type Row = PickerRow<ServerEntry>;

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

/**
 * The chosen prompt, with the values of a recent run when that row was chosen; or a skill to load (or,
 * by its button, to inspect).
 */
export type Picked =
  { prompt: CatalogPrompt; values?: Record<string, string> } | { skill: CatalogSkill; inspect: boolean };

const items = new WeakMap<Row, PickerItem>();
/** The buttons that run a recent row again with its values (the other item button pins or unpins). */
const rerunButtons = new WeakSet<vscode.QuickInputButton>();

function rerunButton(args: Record<string, string>): vscode.QuickInputButton {
  const button = {
    iconPath: new vscode.ThemeIcon('debug-rerun'),
    tooltip: vscode.l10n.t('Run again with {0}', labelText(argumentsText(args))),
  };
  rerunButtons.add(button);
  return button;
}

/** A skill row's button. */
const inspectButton = (): vscode.QuickInputButton => ({
  iconPath: new vscode.ThemeIcon('eye'),
  tooltip: vscode.l10n.t('Inspect Skill'),
});

function pinButton(pinned: boolean): vscode.QuickInputButton {
  return pinned
    ? { iconPath: new vscode.ThemeIcon('pinned'), tooltip: vscode.l10n.t('Unpin') }
    : { iconPath: new vscode.ThemeIcon('pin'), tooltip: vscode.l10n.t('Pin') };
}

/** A row as VS Code's item, made once per row (rows are made once per listing). */
function toItem(row: Row): PickerItem {
  const made = items.get(row);
  if (made) return made;
  const item: PickerItem =
    row.kind === 'separator'
      ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
      : { label: row.label, alwaysShow: true, row };
  if (row.kind !== 'separator' && row.kind !== 'more') {
    if (row.description !== undefined) item.description = row.description;
    if (row.detail !== undefined) item.detail = row.detail;
  }
  if (row.kind === 'prompt' && row.iconUri) item.iconPath = vscode.Uri.parse(row.iconUri);
  if (row.kind === 'prompt') item.buttons = [...(row.args ? [rerunButton(row.args)] : []), pinButton(!!row.pinned)];
  if (row.kind === 'held') item.buttons = [pinButton(row.pinned)];
  if (row.kind === 'skill') item.buttons = [inspectButton()];
  items.set(row, item);
  return item;
}

/**
 * Makes the picker's rows once the catalog has settled, so the first Run Prompt… after the servers
 * listed does not make 10,000 rows while the person waits (rows are kept per listing: core/view/picker-rows.ts).
 */
export function preparePickerRows(catalog: Catalog): vscode.Disposable {
  const d = whenQuiet(catalog.onDidChange, SETTLE_MS, () => {
    pickerItems(catalog.servers);
  });
  return { dispose: () => d.dispose() };
}

/** How long the catalog stays unchanged before the rows are made ahead of use. */
const SETTLE_MS = 500;

/** What the picker is for: its title says what choosing does (Run, Pin); Pin offers no skills. */
export interface PickerPurpose {
  title: string;
  skills: boolean;
}

/** Shows the picker; resolves the chosen prompt or skill. */
export function pickPrompt(
  parts: PickerParts,
  purpose: PickerPurpose = { title: vscode.l10n.t('Run MCP Prompt'), skills: true },
): Promise<Picked | undefined> {
  return new Promise(resolve => new PromptPicker(parts, purpose, resolve));
}

/** One open picker: its rows, what it shows of them, and the events that change either. */
class PromptPicker {
  private readonly qp = vscode.window.createQuickPick<PickerItem>();
  private rows: Row[] = [];
  /**
   * The rows shown so far. After a catalog change they only change in place or grow at the end
   * (mergePickerRows), so the index VS Code reports for an accepted row is the row the person chose.
   */
  private shown: Row[] = [];
  /** The rows VS Code has. */
  private sent: readonly Row[] = [];
  private readonly subs: { dispose(): void }[];

  constructor(
    private readonly parts: PickerParts,
    private readonly purpose: PickerPurpose,
    private readonly resolve: (picked: Picked | undefined) => void,
  ) {
    const { qp } = this;
    const { catalog, usage } = parts;
    qp.title = purpose.title;
    qp.placeholder = vscode.l10n.t('Type words of a title, name, description, server or argument');
    // Our filter decides what matches: VS Code neither searches the descriptions again nor re-sorts.
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    Object.assign(qp, { sortByLabel: false });
    this.subs = [
      catalog.onDidChange(() => this.catalogChanged()),
      usage.onDidChange(() => this.pinsChanged()),
      // Answered at once, in the same turn: an Enter that follows in the same batch then takes a row of
      // the list for the whole query (VS Code maps the accepted row by its index in the list set last).
      qp.onDidChangeValue(() => this.typed()),
      qp.onDidTriggerItemButton(e => {
        const row = e.item.row;
        if (row?.kind === 'skill') this.chooseSkill(row.skill, true);
        else if (row?.kind === 'prompt' && row.args && rerunButtons.has(e.button)) this.choose(row.prompt, row.args);
        else if (row?.kind === 'prompt' || row?.kind === 'held') void usage.setPinned(placeOfRow(row), !row.pinned);
      }),
      qp.onDidAccept(() => this.accept()),
      qp.onDidHide(() => this.hidden()),
    ];
    this.build();
    this.typed();
    qp.show();
  }

  private build(): void {
    const { catalog, usage, configuration } = this.parts;
    if (!catalog.servers.length) {
      this.rows = [
        { kind: 'status', label: `$(add) ${vscode.l10n.t('No MCP servers configured — add one…')}`, key: 'none' },
      ];
      return;
    }
    const groups = promptGroups(catalog.servers, configuration.held, usage);
    void usage.forget(groups.gone);
    const rows = pickerRows(catalog.servers, groups);
    this.rows = this.purpose.skills ? rows : rows.filter(r => r.kind !== 'skill');
  }

  /**
   * `where`: after typing the list starts at its top; after a catalog or pin change it stays scrolled
   * where the person left it (a server re-listing every second must not pull the list back up).
   */
  private show(where: 'top' | 'kept' = 'kept'): void {
    // The same rows again (a keystroke that matches what is shown already) are not sent: VS Code would
    // draw every row anew a round trip later, and a click landing in that redraw selects nothing.
    if (!sameRows(this.shown, this.sent)) {
      this.qp.keepScrollPosition = where === 'kept';
      this.qp.items = this.shown.map(toItem);
      this.sent = this.shown;
    }
    this.qp.busy = this.parts.catalog.servers.some(s => s.loading);
  }

  private typed(): void {
    this.shown = filterPickerRows(this.rows, this.qp.value);
    this.show('top');
  }

  private catalogChanged(): void {
    this.build();
    this.shown = mergePickerRows(this.shown, filterPickerRows(this.rows, this.qp.value, Infinity), MAX_PICKER_ROWS);
    this.show();
  }

  /** Pinned or unpinned: the rows show it where they are; the groups change the next time the picker opens. */
  private pinsChanged(): void {
    const { usage } = this.parts;
    this.build();
    this.shown = this.shown.map(row =>
      row.kind === 'prompt' || row.kind === 'held' ? { ...row, pinned: usage.isPinned(placeOfRow(row)) } : row,
    );
    this.show();
  }

  private accept(): void {
    const { catalog, logs } = this.parts;
    const row = this.qp.selectedItems[0]?.row;
    if (!row || row.kind === 'more' || row.kind === 'separator') return;
    this.qp.hide();
    if (row.kind === 'prompt') {
      this.choose(row.prompt);
      return;
    }
    if (row.kind === 'skill') {
      this.chooseSkill(row.skill, false);
      return;
    }
    this.resolve(undefined);
    if (row.kind === 'held') offerWayOut(row.held);
    else if (row.logOf) logs.channel(row.logOf.def).show();
    else if (!catalog.servers.length) void vscode.commands.executeCommand(Command.addServer);
  }

  /** The prompt chosen (as its server offers it now); `values`: a recent run's, to run again with. */
  private choose(picked: CatalogPrompt, values?: Record<string, string>): void {
    this.qp.hide();
    const prompt = stillOffered(
      this.parts.catalog,
      picked,
      s => s.prompts.find(p => p.prompt.name === picked.prompt.name),
      server =>
        vscode.l10n.t(
          'The prompt "{0}" is no longer offered by the server {1}.',
          labelText(picked.prompt.name),
          server,
        ),
    );
    this.resolve(prompt && { prompt, ...(values ? { values } : {}) });
  }

  /** The skill chosen (as its server offers it now): to load, or by its button to inspect. */
  private chooseSkill(picked: CatalogSkill, inspect: boolean): void {
    this.qp.hide();
    // By its URI: the name of a skill is not its identity.
    const skill = stillOffered(
      this.parts.catalog,
      picked,
      s => s.skills.find(k => k.skill.uri === picked.skill.uri),
      server =>
        vscode.l10n.t('The skill "{0}" is no longer offered by the server {1}.', labelText(picked.name), server),
    );
    this.resolve(skill && { skill, inspect });
  }

  private hidden(): void {
    const { qp } = this;
    // A server's question (asked while the catalog re-lists) took the one quick input VS Code has:
    // the picker comes back as it was, text included, once the question is answered.
    const question = questionShowing();
    if (question) {
      const value = qp.value;
      void question.then(() => {
        // VS Code selects a pre-filled value on show (QuickPick has no stable valueSelection): the
        // text and the row it filtered are back, Enter runs it, typing replaces it.
        qp.value = value;
        this.typed();
        qp.show();
      });
      return;
    }
    for (const s of this.subs) s.dispose();
    qp.dispose();
    this.resolve(undefined);
  }
}

/** The same rows in the same order (the row counting the rest is made anew each time: equal by its text). */
function sameRows(a: readonly Row[], b: readonly Row[]): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) => row === b[i] || (row.kind === 'more' && b[i].kind === 'more' && row.label === b[i].label))
  );
}

/** The prompt (or the held server's pinned place) a row stands for. */
function placeOfRow(row: PinnableRow<ServerEntry>): CatalogPrompt | PromptPlace {
  return row.kind === 'prompt' ? row.prompt : row.place;
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
 * The accepted prompt or skill as its server offers it now (`find` looks it up on the server as it is);
 * one it dropped (its row marked, or removed after the last update) is not used, and `gone` says to the
 * person which server dropped it.
 */
function stillOffered<T extends { server: ServerEntry }>(
  catalog: Catalog,
  picked: T,
  find: (server: ServerEntry) => T | undefined,
  gone: (server: string) => string,
): T | undefined {
  const server = catalog.servers.find(s => s.id === picked.server.id);
  const now = server && find(server);
  if (!now) void vscode.window.showWarningMessage(gone(labelText(picked.server.def.name)));
  return now;
}

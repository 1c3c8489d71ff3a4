// The sidebar: servers (live status) → prompts → arguments, and a Skills group → skills. Nodes are cached per server so a change
// refreshes only that server's subtree (no flicker, no re-listing of unchanged servers). At a glance:
// rows that need the user come first, the view's badge counts them, servers whose prompts would not fit
// start collapsed, and what the user expanded or collapsed is remembered per workspace.
import * as vscode from 'vscode';
import type { CatalogPrompt, ServerEntry } from '../core/catalog/catalog';
import type { CatalogSkill } from '../core/catalog/skills';
import { serverState, type HeldEntry } from '../core/view/server-state';
import {
  argumentItem,
  heldItem,
  problemItem,
  promptItem,
  serverItem,
  skillGroupItem,
  skillItem,
  type TreeItemView,
} from '../core/view/items';
import { attentionBadge, attentionFirst, expandByDefault, needsAttention } from '../core/view/tree-layout';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerConfiguration } from '../workspace/server-configuration';
import { toTreeItem } from './descriptors';
import { currentWelcome } from './view-welcome';

/** workspaceState: server id → expanded, as the user left it. */
const EXPANDED_KEY = 'tree.expanded';
/** Servers remembered; the oldest choices go first. */
const MAX_REMEMBERED = 500;

export type Node =
  /** `listed`: the entry had prompts or skills when this row was made (a row without has another id, items.ts). */
  | { type: 'server'; entry: ServerEntry; listed: boolean }
  | { type: 'skills'; entry: ServerEntry }
  | { type: 'skill'; skill: CatalogSkill }
  | { type: 'blocked'; held: HeldEntry }
  | { type: 'problem'; origin: string; message: string }
  | { type: 'prompt'; prompt: CatalogPrompt }
  | { type: 'argument'; prompt: CatalogPrompt; index: number };

export class PromptTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private serverNodes = new Map<string, Node>();
  private readonly subs: vscode.Disposable[] = [];
  /** The view it fills (after attach()); host tests read its badge. */
  view?: vscode.TreeView<Node>;

  /** `workspaceState`: where what the user expanded is kept. */
  constructor(
    private readonly catalog: Catalog,
    private readonly configuration: ServerConfiguration,
    private readonly workspaceState: vscode.Memento,
  ) {
    this.subs.push(
      catalog.onDidChange(entry => {
        const node = entry && this.serverNodes.get(entry.id);
        // The order depends on states (failing first): a change of one may move it. A server whose
        // prompts came or went gets a new row (getChildren), so its parent is refreshed.
        if (node && node.type === 'server' && this.keeps(node, entry) && !this.orderChanged()) {
          if (!this.unchanged(node)) this.emitter.fire(node);
        } else this.emitter.fire(undefined);
        this.update();
      }),
    );
    this.subs.push(
      configuration.onDidLoad(() => {
        this.emitter.fire(undefined);
        this.update();
      }),
    );
  }

  /** The view this provider fills: its badge and the user's expand/collapse. */
  attach(view: vscode.TreeView<Node>): vscode.Disposable {
    this.view = view;
    const subs = [
      view.onDidExpandElement(e => this.remember(e.element, true)),
      view.onDidCollapseElement(e => this.remember(e.element, false)),
    ];
    this.update();
    return vscode.Disposable.from(...subs);
  }

  /**
   * The server's row and prompts are as VS Code last got them. A refresh gives every row a new command
   * reference and drops the old one, so a click on a row the window has not redrawn yet runs nothing
   * ("Actual command not found", seen when a sign-in row was clicked): rows are refreshed only when
   * something on them changed.
   */
  private unchanged(node: Node & { type: 'server' }): boolean {
    const last = this.given.get(node);
    return (
      !!last &&
      last.prompts === node.entry.prompts &&
      last.skills === node.entry.skills &&
      last.row === this.rowText(node)
    );
  }

  private rowText(node: Node & { type: 'server' }): string {
    return JSON.stringify(this.serverRow(node));
  }

  private serverRow(node: Node & { type: 'server' }): TreeItemView {
    return serverItem(node.entry, this.configuration.notes.get(node.entry.id) ?? [], this.collapsible(node));
  }

  /** The row text and prompt list VS Code last got for each server row. */
  private readonly given = new WeakMap<
    Node,
    { row: string; prompts: readonly CatalogPrompt[]; skills: readonly CatalogSkill[] }
  >();

  /** The row made for `entry` still fits it: same entry, and its prompts and skills neither came nor went. */
  private keeps(node: Node & { type: 'server' }, entry: ServerEntry): boolean {
    return node.entry === entry && node.listed === hasRows(entry);
  }

  private lastOrder = '';
  /** True when the servers' order (attention first) differs from the one shown last. */
  private orderChanged(): boolean {
    return this.order().join('\n') !== this.lastOrder;
  }

  private order(): string[] {
    return attentionFirst(this.catalog.servers, e => needsAttention(serverState(e))).map(e => e.id);
  }

  private update(): void {
    const view = this.view;
    if (!view) return;
    const badge = attentionBadge(this.catalog.servers, this.configuration.held, this.configuration.problems.length);
    // Every catalog change comes here: send the badge to the window only when it changed.
    if (JSON.stringify(badge) !== JSON.stringify(view.badge)) view.badge = badge;
  }

  private byRule(entry: ServerEntry): boolean {
    return expandByDefault(entry.prompts.length + (entry.skills.length ? 1 : 0), this.catalog.servers.length);
  }

  private memory(): Record<string, boolean> {
    const stored = this.workspaceState.get<unknown>(EXPANDED_KEY);
    return stored && typeof stored === 'object' ? (stored as Record<string, boolean>) : {};
  }

  private remembered(id: string): boolean | undefined {
    const value = this.memory()[id];
    return typeof value === 'boolean' ? value : undefined;
  }

  private remember(node: Node, expanded: boolean): void {
    if (node.type !== 'server') return;
    const id = node.entry.id;
    const memory = { ...this.memory() };
    delete memory[id];
    memory[id] = expanded;
    const ids = Object.keys(memory);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED))) delete memory[old];
    void this.workspaceState.update(EXPANDED_KEY, memory);
  }

  /**
   * How a server row starts: as the user left it, else by the rule. Nothing to show (yet, or it failed):
   * no twistie. VS Code keeps a row's first expand state for its id and ignores a later one, so a row
   * made before the prompts came is replaced by a new row (new id) once they do: it starts as said here,
   * with no reveal() that a busy or hidden view can drop.
   */
  private collapsible(node: Node & { type: 'server' }): TreeItemView['collapsible'] {
    if (!node.listed) return 'none';
    return (this.remembered(node.entry.id) ?? this.byRule(node.entry)) ? 'expanded' : 'collapsed';
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      // VS Code shows the view's welcome content (no servers, all failing, untrusted) only with no rows.
      if (currentWelcome(this.catalog, this.configuration)) {
        this.serverNodes = new Map();
        return [];
      }
      const nodes: Node[] = this.configuration.problems.map(p => ({
        type: 'problem' as const,
        origin: p.origin,
        message: p.message,
      }));
      const next = new Map<string, Node>();
      for (const entry of this.catalog.servers) {
        const existing = this.serverNodes.get(entry.id);
        const kept = existing && existing.type === 'server' && this.keeps(existing, entry);
        next.set(entry.id, kept ? existing : { type: 'server' as const, entry, listed: hasRows(entry) });
      }
      this.serverNodes = next;
      const order = this.order();
      this.lastOrder = order.join('\n');
      const consent = (h: HeldEntry) => h.reason === 'consent';
      const held = attentionFirst(this.configuration.held, consent).map(h => ({ type: 'blocked' as const, held: h }));
      // Rows that need the user on top: failing servers, then those waiting for consent, then the rest.
      const servers = order.map(id => next.get(id)!);
      const attention = servers.filter(n => n.type === 'server' && needsAttention(serverState(n.entry)));
      nodes.push(...attention, ...held.filter(n => consent(n.held)));
      nodes.push(...servers.filter(n => !attention.includes(n)), ...held.filter(n => !consent(n.held)));
      return nodes;
    }
    if (node.type === 'server') {
      const prompts: Node[] = node.entry.prompts.map(prompt => ({ type: 'prompt' as const, prompt }));
      return node.entry.skills.length ? [...prompts, { type: 'skills', entry: node.entry }] : prompts;
    }
    if (node.type === 'skills') return node.entry.skills.map(skill => ({ type: 'skill' as const, skill }));
    if (node.type === 'prompt') {
      const { prompt } = node;
      return (prompt.prompt.arguments ?? []).map((_, index) => ({ type: 'argument' as const, prompt, index }));
    }
    return [];
  }

  getParent(node: Node): Node | undefined {
    if (node.type === 'prompt') return this.serverNodes.get(node.prompt.server.id);
    if (node.type === 'argument') return { type: 'prompt', prompt: node.prompt };
    if (node.type === 'skills') return this.serverNodes.get(node.entry.id);
    if (node.type === 'skill') return { type: 'skills', entry: node.skill.server };
    return undefined;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'server': {
        const row = this.serverRow(node);
        this.given.set(node, { row: JSON.stringify(row), prompts: node.entry.prompts, skills: node.entry.skills });
        return toTreeItem(row);
      }
      case 'blocked':
        return toTreeItem(heldItem(node.held));
      case 'problem':
        return toTreeItem(problemItem(node.origin, node.message));
      case 'prompt': {
        const item = toTreeItem(promptItem(node.prompt));
        item.command!.arguments = [node];
        return item;
      }
      case 'argument':
        return toTreeItem(argumentItem(node.prompt, node.index));
      case 'skills':
        return toTreeItem(skillGroupItem(node.entry));
      case 'skill': {
        const item = toTreeItem(skillItem(node.skill));
        item.command!.arguments = [node];
        return item;
      }
    }
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** The server row has something under it: prompts, or skills. */
function hasRows(entry: ServerEntry): boolean {
  return entry.prompts.length > 0 || entry.skills.length > 0;
}

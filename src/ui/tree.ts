// The sidebar: the pinned and the recently run prompts, then servers (live status) → prompts →
// arguments, and a Skills group → skills. Nodes are cached per server so a change refreshes only that
// server's subtree (no flicker, no re-listing of unchanged servers), and a prompt's row is made once per
// listing (its tooltip when hovered), so opening a server of 1,000 prompts costs little. At a glance:
// rows that need the user come first, the view's badge counts them, servers whose prompts would not fit
// start collapsed, and what the user expanded or collapsed is remembered per workspace. A filter
// (tree-filter.ts) shows only the prompts whose words match, across every server.
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
} from '../core/view/tree-items';
import { promptSearchText } from '../core/view/picker-rows';
import { attentionBadge, attentionFirst, expandByDefault, needsAttention } from '../core/view/tree-layout';
import { promptGroups, type PromptGroups } from '../core/view/prompt-groups';
import { queryWords } from '../core/view/picker-rows';
import { placeKey, placeOf, type PromptUsage } from '../core/run/records/prompt-usage';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerConfiguration } from '../workspace/server-configuration';
import { labelText } from '../core/label';
import { toTooltip, toTreeItem } from './descriptors';
import { currentWelcome } from './view-welcome';
import { groupItem, hasRows, heldPinItem, mk, moreItem, pinnedPlaces, type Node } from './tree-nodes';

/** workspaceState: server id → expanded, as the user left it. */
const EXPANDED_KEY = 'tree.expanded';
/** Servers remembered; the oldest choices go first. */
const MAX_REMEMBERED = 500;
/** Recent prompts the sidebar's group shows. */
const MAX_RECENT_NODES = 5;
/** Prompts a filter shows at once (then one row says how many more match). */
const MAX_FILTERED = 200;

export class PromptTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private serverNodes = new Map<string, Node>();
  private readonly subs: vscode.Disposable[] = [];
  /** The view it fills (after attach()); host tests read its badge. */
  view?: vscode.TreeView<Node>;
  private readonly groupNodes = {
    pinned: mk({ type: 'group', group: 'pinned' }),
    recent: mk({ type: 'group', group: 'recent' }),
  } as const;
  /** The groups as last shown, and the pinned prompts' places (to refresh the rows whose pin changed). */
  private groups: PromptGroups = { pinned: [], recent: [], gone: [] };
  /** placeKey → server id of each pinned prompt shown. */
  private pinnedKeys = new Map<string, string>();
  private filter = '';

  /** `workspaceState`: where what the user expanded is kept; `usage`: the pinned and recent prompts. */
  constructor(
    private readonly catalog: Catalog,
    private readonly configuration: ServerConfiguration,
    private readonly workspaceState: vscode.Memento,
    private readonly usage: PromptUsage,
  ) {
    this.subs.push(
      catalog.onDidChange(entry => {
        const node = entry && this.serverNodes.get(entry.id);
        // The order depends on states (failing first): a change of one may move it. A server whose
        // prompts came or went gets a new row (getChildren), so its parent is refreshed.
        if (!this.filter && node && node.type === 'server' && this.keeps(node, entry) && !this.orderChanged()) {
          if (!this.unchanged(node)) {
            this.emitter.fire(node);
            this.refreshGroups();
          }
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
    const used = usage.onDidChange(() => this.usageChanged());
    this.subs.push({ dispose: () => used.dispose() });
  }

  /** The words rows must match ('' shows everything); the view's message says what is shown. */
  setFilter(query: string): number {
    this.filter = query.trim();
    this.emitter.fire(undefined);
    const found = this.filter ? this.matches().length : 0;
    if (this.view)
      this.view.message = !this.filter
        ? undefined
        : found
          ? vscode.l10n.t('Prompts matching "{0}": {1}', labelText(this.filter, 100), found)
          : vscode.l10n.t('No prompt matches "{0}"', labelText(this.filter, 100));
    return found;
  }

  get filterText(): string {
    return this.filter;
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
   * A prompt was run, pinned or unpinned: its groups are shown again, and so are the servers whose
   * prompt rows now say pinned or not (their menus differ); groups that appear or go refresh the view.
   */
  private usageChanged(): void {
    const shownBefore = [this.groups.pinned.length > 0, this.groups.recent.length > 0].join();
    const after = this.currentGroups();
    if (this.filter || shownBefore !== [after.pinned.length > 0, after.recent.length > 0].join()) {
      this.emitter.fire(undefined);
      return;
    }
    this.refreshGroups();
    const before = this.pinnedKeys;
    const now = pinnedPlaces(after);
    const servers = new Set<string>();
    for (const [key, server] of now) if (!before.has(key)) servers.add(server);
    for (const [key, server] of before) if (!now.has(key)) servers.add(server);
    this.pinnedKeys = now;
    for (const id of servers) {
      const node = this.serverNodes.get(id);
      if (node) this.emitter.fire(node);
    }
  }

  private refreshGroups(): void {
    for (const group of ['pinned', 'recent'] as const)
      if (this.groups[group].length) this.emitter.fire(this.groupNodes[group]);
  }

  private currentGroups(): PromptGroups {
    this.groups = promptGroups(this.catalog.servers, this.configuration.held, this.usage, MAX_RECENT_NODES);
    void this.usage.forget(this.groups.gone);
    return this.groups;
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
    if (node.type !== 'server' || node.filtered) return;
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
    if (!node) return this.roots();
    switch (node.type) {
      case 'server':
        return node.filtered
          ? this.matches()
              .filter(p => p.server === node.entry)
              .slice(0, MAX_FILTERED)
              .map(prompt => mk({ type: 'prompt', prompt }))
          : this.promptNodes(node.entry);
      case 'skills':
        return node.entry.skills.map(skill => mk({ type: 'skill' as const, skill }));
      case 'group':
        return node.group === 'pinned'
          ? this.groups.pinned.map(p =>
              'prompt' in p ? mk({ type: 'prompt', prompt: p.prompt, group: 'pinned' }) : mk({ type: 'heldPin', ...p }),
            )
          : this.groups.recent.map(r => mk({ type: 'prompt', prompt: r.prompt, group: 'recent', args: r.args }));
      case 'prompt': {
        const { prompt } = node;
        return (prompt.prompt.arguments ?? []).map((_, index) => mk({ type: 'argument', prompt, index }));
      }
      default:
        return [];
    }
  }

  private roots(): Node[] {
    // VS Code shows the view's welcome content (no servers, all failing, untrusted) only with no rows.
    if (currentWelcome(this.catalog, this.configuration)) {
      this.serverNodes = new Map();
      return [];
    }
    if (this.filter) return this.filteredRoots();
    const groups = this.currentGroups();
    this.pinnedKeys = pinnedPlaces(groups);
    const nodes: Node[] = [];
    if (groups.pinned.length) nodes.push(this.groupNodes.pinned);
    if (groups.recent.length) nodes.push(this.groupNodes.recent);
    nodes.push(
      ...this.configuration.problems.map(p => mk({ type: 'problem' as const, origin: p.origin, message: p.message })),
    );
    const next = new Map<string, Node>();
    for (const entry of this.catalog.servers) {
      const existing = this.serverNodes.get(entry.id);
      const kept = existing && existing.type === 'server' && this.keeps(existing, entry);
      next.set(entry.id, kept ? existing : mk({ type: 'server' as const, entry, listed: hasRows(entry) }));
    }
    this.serverNodes = next;
    const order = this.order();
    this.lastOrder = order.join('\n');
    const consent = (h: HeldEntry) => h.reason === 'consent';
    const held = attentionFirst(this.configuration.held, consent).map(h => mk({ type: 'blocked' as const, held: h }));
    // Rows that need the user on top: failing servers, then those waiting for consent, then the rest.
    const servers = order.map(id => next.get(id)!);
    const attention = servers.filter(n => n.type === 'server' && needsAttention(serverState(n.entry)));
    nodes.push(...attention, ...held.filter(n => consent(n.held)));
    nodes.push(...servers.filter(n => !attention.includes(n)), ...held.filter(n => !consent(n.held)));
    return nodes;
  }

  /** The prompts whose words match the filter, in the servers' order. */
  private matches(): CatalogPrompt[] {
    const words = queryWords(this.filter);
    return this.catalog.servers.flatMap(s => s.prompts.filter(p => words.every(w => promptSearchText(p).includes(w))));
  }

  /** While filtering: each server with a match (open), its matching prompts, and how many more match. */
  private filteredRoots(): Node[] {
    const found = this.matches();
    const servers = [...new Set(found.slice(0, MAX_FILTERED).map(p => p.server))];
    const nodes: Node[] = servers.map(entry => mk({ type: 'server', entry, listed: true, filtered: true }));
    if (found.length > MAX_FILTERED) nodes.push(mk({ type: 'more', count: found.length - MAX_FILTERED }));
    return nodes;
  }

  private readonly promptNodeLists = new WeakMap<readonly CatalogPrompt[], Node[]>();

  /** A server's prompt rows (the same nodes for the same listing, so their items are made once), then its Skills group. */
  private promptNodes(entry: ServerEntry): Node[] {
    let nodes = this.promptNodeLists.get(entry.prompts);
    if (!nodes) {
      nodes = entry.prompts.map(prompt => mk({ type: 'prompt', prompt }));
      this.promptNodeLists.set(entry.prompts, nodes);
    }
    return entry.skills.length ? [...nodes, this.skillsNode(entry)] : nodes;
  }

  private readonly skillsNodes = new WeakMap<ServerEntry, Node>();

  /** The Skills group of a server: one node per entry (getParent hands back the node VS Code was given). */
  private skillsNode(entry: ServerEntry): Node {
    let node = this.skillsNodes.get(entry);
    if (!node) this.skillsNodes.set(entry, (node = mk({ type: 'skills', entry })));
    return node;
  }

  getParent(node: Node): Node | undefined {
    if (node.type === 'prompt')
      return node.group ? this.groupNodes[node.group] : this.serverNodes.get(node.prompt.server.id);
    if (node.type === 'heldPin') return this.groupNodes.pinned;
    if (node.type === 'argument') return mk({ type: 'prompt', prompt: node.prompt });
    if (node.type === 'skills') return this.serverNodes.get(node.entry.id);
    if (node.type === 'skill') return this.skillsNode(node.skill.server);
    return undefined;
  }

  private readonly promptItems = new WeakMap<Node, { pinned: boolean; item: vscode.TreeItem }>();

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'server': {
        const row = this.serverRow(node);
        if (node.filtered) return toTreeItem({ ...row, id: `${row.id}:filter`, collapsible: 'expanded' });
        this.given.set(node, { row: JSON.stringify(row), prompts: node.entry.prompts, skills: node.entry.skills });
        return toTreeItem(row);
      }
      case 'blocked':
        return toTreeItem(heldItem(node.held));
      case 'problem':
        return toTreeItem(problemItem(node.origin, node.message));
      case 'group':
        return groupItem(node.group);
      case 'prompt':
        return this.promptTreeItem(node);
      case 'heldPin':
        return heldPinItem(node.held, node.place);
      case 'more':
        return moreItem(node.count);
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

  /** A prompt row, made once per node while its pin stays; the tooltip is made when hovered (resolveTreeItem). */
  private promptTreeItem(node: Node & { type: 'prompt' }): vscode.TreeItem {
    const pinned = this.pinnedKeys.has(placeKey(placeOf(node.prompt)));
    const cached = this.promptItems.get(node);
    if (cached && cached.pinned === pinned) return cached.item;
    const item = toTreeItem({
      ...promptItem(node.prompt, { group: node.group, pinned, args: node.args }),
      tooltip: undefined,
    });
    item.command!.arguments = [node];
    this.promptItems.set(node, { pinned, item });
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: Node): vscode.TreeItem {
    if (node.type === 'prompt' && item.tooltip === undefined) item.tooltip = toTooltip(promptItem(node.prompt).tooltip);
    return item;
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subs) s.dispose();
  }
}

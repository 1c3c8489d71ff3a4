// The sidebar: servers (live status) → prompts → arguments. Nodes are cached per server so a change
// refreshes only that server's subtree (no flicker, no re-listing of unchanged servers).
import * as vscode from 'vscode';
import type { CatalogPrompt, ServerEntry } from '../core/catalog';
import type { HeldEntry } from '../core/view/server-state';
import { argumentItem, heldItem, problemItem, promptItem, serverItem } from '../core/view/items';
import type { ExtensionState } from '../state';
import { toTreeItem } from './descriptors';
import { currentWelcome } from './view-welcome';

export type Node =
  | { type: 'server'; entry: ServerEntry }
  | { type: 'blocked'; held: HeldEntry }
  | { type: 'problem'; origin: string; message: string }
  | { type: 'prompt'; prompt: CatalogPrompt }
  | { type: 'argument'; prompt: CatalogPrompt; index: number };

export class PromptTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private serverNodes = new Map<string, Node>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly state: ExtensionState) {
    this.subs.push(
      state.catalog.onDidChange(entry => {
        const node = entry && this.serverNodes.get(entry.id);
        if (node && node.type === 'server' && node.entry === entry) this.emitter.fire(node);
        else this.emitter.fire(undefined);
      }),
    );
    this.subs.push(state.onDidLoadConfig(() => this.emitter.fire(undefined)));
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      // VS Code shows the view's welcome content (no servers, all failing, untrusted) only with no rows.
      if (currentWelcome(this.state)) {
        this.serverNodes = new Map();
        return [];
      }
      const nodes: Node[] = this.state.problems.map(p => ({
        type: 'problem' as const,
        origin: p.origin,
        message: p.message,
      }));
      const next = new Map<string, Node>();
      for (const entry of this.state.catalog.servers) {
        const existing = this.serverNodes.get(entry.id);
        const kept = existing && existing.type === 'server' && existing.entry === entry;
        const n = kept ? existing : { type: 'server' as const, entry };
        next.set(entry.id, n);
        nodes.push(n);
      }
      this.serverNodes = next;
      nodes.push(...this.state.held.map(held => ({ type: 'blocked' as const, held })));
      return nodes;
    }
    if (node.type === 'server') return node.entry.prompts.map(prompt => ({ type: 'prompt' as const, prompt }));
    if (node.type === 'prompt') {
      const { prompt } = node;
      return (prompt.prompt.arguments ?? []).map((_, index) => ({ type: 'argument' as const, prompt, index }));
    }
    return [];
  }

  getParent(node: Node): Node | undefined {
    if (node.type === 'prompt') return this.serverNodes.get(node.prompt.server.id);
    if (node.type === 'argument') return { type: 'prompt', prompt: node.prompt };
    return undefined;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'server':
        return toTreeItem(serverItem(node.entry, this.state.notes.get(node.entry.id) ?? []));
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
    }
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subs) s.dispose();
  }
}

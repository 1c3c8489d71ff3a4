// The sidebar: servers (live status) → prompts → arguments. Nodes are cached per server so a change
// refreshes only that server's subtree (no flicker, no re-listing of unchanged servers).
import * as vscode from 'vscode';
import { serverError, type CatalogPrompt, type ServerEntry } from '../core/catalog';
import type { ExtensionState, HeldEntry } from '../state';
import { escapeLabel } from '../core/markdown';

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
    this.subs.push(state.catalog.onDidChange(entry => {
      const node = entry && this.serverNodes.get(entry.id);
      if (node && node.type === 'server' && node.entry === entry) this.emitter.fire(node);
      else this.emitter.fire(undefined);
    }));
    this.subs.push(state.onDidLoadConfig(() => this.emitter.fire(undefined)));
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      const nodes: Node[] = this.state.problems.map(p => ({ type: 'problem' as const, origin: p.origin, message: p.message }));
      const next = new Map<string, Node>();
      for (const entry of this.state.catalog.servers) {
        const existing = this.serverNodes.get(entry.id);
        const n = existing && existing.type === 'server' && existing.entry === entry ? existing : { type: 'server' as const, entry };
        next.set(entry.id, n);
        nodes.push(n);
      }
      this.serverNodes = next;
      nodes.push(...this.state.held.map(held => ({ type: 'blocked' as const, held })));
      return nodes;
    }
    if (node.type === 'server') return node.entry.prompts.map(prompt => ({ type: 'prompt' as const, prompt }));
    if (node.type === 'prompt') return (node.prompt.prompt.arguments ?? []).map((_, index) => ({ type: 'argument' as const, prompt: node.prompt, index }));
    return [];
  }

  getParent(node: Node): Node | undefined {
    if (node.type === 'prompt') return this.serverNodes.get(node.prompt.server.id);
    if (node.type === 'argument') return { type: 'prompt', prompt: node.prompt };
    return undefined;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'server': return serverItem(node.entry, this.state.notes.get(node.entry.id) ?? []);
      case 'blocked': return heldItem(node.held);
      case 'problem': {
        const item = new vscode.TreeItem(node.origin, vscode.TreeItemCollapsibleState.None);
        item.description = node.message;
        item.tooltip = node.message;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.contextValue = 'problem';
        return item;
      }
      case 'prompt': {
        const p = node.prompt;
        const item = new vscode.TreeItem(p.prompt.title ?? p.prompt.name, p.prompt.arguments?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `prompt:${p.invocationName}`;
        item.description = p.prompt.title ? p.prompt.name : p.prompt.description;
        const tip = new vscode.MarkdownString(undefined, false);
        tip.appendMarkdown(`**${escapeLabel(p.prompt.title ?? p.prompt.name)}** \`/${p.invocationName}\`\n\n`);
        if (p.prompt.description) tip.appendText(p.prompt.description);
        item.tooltip = tip;
        item.iconPath = promptIcon(p);
        item.contextValue = 'prompt';
        item.command = { command: 'mcpPrompts.runPrompt', title: vscode.l10n.t('Run Prompt'), arguments: [node] };
        return item;
      }
      case 'argument': {
        const a = node.prompt.prompt.arguments![node.index];
        const item = new vscode.TreeItem(a.required ? `${a.name} *` : a.name, vscode.TreeItemCollapsibleState.None);
        // Arguments are server data: two with the same name must not make two items with one id.
        item.id = `arg:${node.prompt.invocationName}:${node.index}:${a.name}`;
        item.description = [a.required ? vscode.l10n.t('required') : vscode.l10n.t('optional'), a.description].filter(Boolean).join(' · ');
        item.tooltip = a.description;
        item.iconPath = new vscode.ThemeIcon(a.required ? 'symbol-field' : 'symbol-variable');
        item.contextValue = 'argument';
        return item;
      }
    }
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** A configured server that does not run: the reason, and the way out (trust, or decide again). */
function heldItem(held: HeldEntry): vscode.TreeItem {
  const { def } = held;
  const item = new vscode.TreeItem(def.name, vscode.TreeItemCollapsibleState.None);
  item.id = `held:${def.scope ?? def.source}:${def.id}`;
  item.tooltip = held.message;
  item.contextValue = `held.${held.reason}`;
  switch (held.reason) {
    case 'untrusted':
      item.description = vscode.l10n.t('not started: workspace not trusted');
      item.tooltip = `${held.message}\n\n${vscode.l10n.t('Servers that run commands from this workspace start only in a trusted workspace.')}`;
      item.iconPath = new vscode.ThemeIcon('shield');
      item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
      break;
    case 'shadowed':
      item.description = vscode.l10n.t('not used: your own server of this name is used');
      item.iconPath = new vscode.ThemeIcon('circle-slash');
      break;
    case 'envFile':
      item.description = vscode.l10n.t('not started: its envFile is in the untrusted workspace');
      item.iconPath = new vscode.ThemeIcon('shield');
      item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
      break;
    case 'consent':
      item.description = vscode.l10n.t('waiting for your consent — click to decide');
      item.iconPath = new vscode.ThemeIcon('question');
      item.command = { command: 'mcpPrompts.allowServer', title: vscode.l10n.t('Allow Server…'), arguments: [def.id] };
      break;
    case 'declined':
      item.description = vscode.l10n.t('not started: you declined — click to allow');
      item.iconPath = new vscode.ThemeIcon('debug-stop');
      item.command = { command: 'mcpPrompts.allowServer', title: vscode.l10n.t('Allow Server…'), arguments: [def.id] };
      break;
  }
  return item;
}

function serverItem(entry: ServerEntry, notes: string[]): vscode.TreeItem {
  const status = entry.connection.status;
  const item = new vscode.TreeItem(entry.def.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `server:${entry.id}`;
  const transport = entry.connection.info?.transport ?? entry.def.transport.type;
  const error = serverError(entry);
  const statusText = entry.loading && status !== 'error' ? vscode.l10n.t('starting') : statusLabel(status);
  item.description = error && status !== 'running' ? `${statusText}: ${error.message}` : `${statusText} · ${transport} · ${vscode.l10n.t('{0} prompts', entry.prompts.length)}`;
  const tip = new vscode.MarkdownString(undefined, false);
  tip.appendMarkdown(`**${escapeLabel(entry.def.name)}** — ${statusText}\n\n`);
  const info = entry.connection.info;
  if (info?.serverInfo) tip.appendText(vscode.l10n.t('Server: {0} {1}', info.serverInfo.name, info.serverInfo.version) + '\n\n');
  if (info?.protocolVersion) tip.appendText(vscode.l10n.t('Protocol: {0}', info.protocolVersion) + '\n\n');
  tip.appendText(vscode.l10n.t('Transport: {0}', transport) + '\n\n');
  if (error) tip.appendText(vscode.l10n.t('Error: {0}', error.message) + '\n\n');
  tip.appendText(vscode.l10n.t('Defined in: {0}', entry.def.source === 'workspace' ? vscode.l10n.t('this workspace') : vscode.l10n.t('your user settings')) + '\n\n');
  for (const n of notes) tip.appendText(`${n}\n\n`);
  for (const w of entry.warnings) tip.appendText(`⚠ ${w}\n\n`);
  item.tooltip = tip;
  item.iconPath = statusIcon(entry.loading && status !== 'error' ? 'starting' : status, !!error);
  item.contextValue = `server.${status}`;
  if (entry.connection.authorizationUrl) {
    item.description = vscode.l10n.t('sign-in needed — click to sign in');
    item.command = { command: 'mcpPrompts.signIn', title: vscode.l10n.t('Sign In'), arguments: [entry.id] };
  }
  return item;
}

export function statusLabel(status: string): string {
  switch (status) {
    case 'starting': return vscode.l10n.t('starting');
    case 'running': return vscode.l10n.t('running');
    case 'error': return vscode.l10n.t('error');
    case 'stopped': return vscode.l10n.t('stopped');
    default: return vscode.l10n.t('idle');
  }
}

function statusIcon(status: string, hasError: boolean): vscode.ThemeIcon {
  switch (status) {
    case 'starting': return new vscode.ThemeIcon('loading~spin');
    case 'running': return hasError ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')) : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'error': return new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
    case 'stopped': return new vscode.ThemeIcon('debug-stop');
    default: return new vscode.ThemeIcon('circle-outline');
  }
}

/** A server's data: icon is shown only when it is a raster image we accept; everything else gets the codicon. */
function promptIcon(p: CatalogPrompt): vscode.ThemeIcon | vscode.Uri {
  const icon = p.prompt.icons?.find(i => /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(i.src) && i.src.length < 64 * 1024);
  return icon ? vscode.Uri.parse(icon.src) : new vscode.ThemeIcon('comment-discussion');
}

// Wires the pieces together; no logic of its own. Servers connect in the background after activate().
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { ExtensionState } from './state';
import { ArgumentInput } from './ui/argument-input';
import { PromptTree } from './ui/tree';
import { registerStatus } from './ui/status';
import { TranscriptFileSystem, TRANSCRIPT_SCHEME } from './ui/transcript-editor';
import { registerCommands } from './commands';
import { registerParticipant } from './chat/participant';
import { registerChatCompletions } from './chat/completions';
import * as resources from './resources';
import { SERVERS_SETTING, START_SERVERS_SETTING, readStartServers } from './settings';
import { watchOutsideConfig } from './workspace/config-watch';
import { registerViewWelcome } from './ui/view-welcome';
import { mainLog } from './workspace/main-log';
import { onProtocolLoad } from './core/protocol/protocol-load';

/** Milliseconds spent in activate(), read by the host tests and the benchmark. */
export let activationMs = 0;
let current: ExtensionState | undefined;

/** What activate() returns: the host tests (test/host/) read the catalog, results and tree through it. */
export interface ExtensionApi {
  /** Milliseconds spent in activate(). */
  readonly activationMs: number;
  readonly state: ExtensionState;
  readonly tree: PromptTree;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  // The core's messages use @vscode/l10n; hand it the same bundle VS Code loaded for us.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const state = (current = new ExtensionState(context));
  const input = new ArgumentInput(state.results, context.globalState);
  const transcripts = new TranscriptFileSystem(state.results);
  const tree = new PromptTree(state);
  const view = vscode.window.createTreeView('mcpPrompts.prompts', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(
    state,
    tree,
    view,
    tree.attach(view),
    registerStatus(state),
    ...registerCommands({ state, input }),
    registerParticipant(state, input.collect),
    registerChatCompletions(state),
    transcripts,
    vscode.workspace.registerFileSystemProvider(TRANSCRIPT_SCHEME, transcripts, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...resources.register(state),
    registerViewWelcome(state),
    watchConfiguration(state),
    // On demand, opening a prompt's arguments in the tree starts its server (the arguments may complete).
    view.onDidExpandElement(e => {
      if (e.element.type === 'prompt') void state.catalog.ensureStarted(e.element.prompt.server);
    }),
    watchOutsideConfig(context.globalStorageUri, () => void state.reload()),
  );
  // The SDK is a second bundle loaded with the first connection (esbuild.mjs); the log says when, and its cost.
  onProtocolLoad(ms =>
    mainLog().info(vscode.l10n.t('Loaded the MCP client code (dist/protocol.js) in {0} ms', Math.round(ms))),
  );
  void state.reload();
  activationMs = performance.now() - started;
  return { activationMs, state, tree };
}

function watchConfiguration(state: ExtensionState): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
  const reload = () => void state.reload();
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(reload),
    watcher.onDidCreate(reload),
    watcher.onDidDelete(reload),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (e.affectsConfiguration(SERVERS_SETTING)) reload();
      if (e.affectsConfiguration(START_SERVERS_SETTING)) state.catalog.setStartPolicy(readStartServers());
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    vscode.workspace.onDidChangeWorkspaceFolders(reload),
  );
}

/**
 * Closes every server (stdio children get stdin closed, then SIGTERM) and finishes writing the saved
 * prompt lists before the host exits: a list received just before a reload is there in the next window.
 */
export async function deactivate(): Promise<void> {
  if (!current) return;
  await Promise.all([current.catalog.dispose(), current.savedLists?.flush()]);
}

// The MCP Prompts view's welcome content and the walkthrough's "found" step, driven by context keys set
// from the catalog and the configuration read (the decision is core/view/welcome.ts).
import * as vscode from 'vscode';
import { serversFound, viewWelcome, type ViewSnapshot, type ViewWelcome } from '../core/view/welcome';
import type { ExtensionState } from '../state';

/** package.json's viewsWelcome entries match `mcpPrompts.welcome == <case>`. */
export const WELCOME_KEY = 'mcpPrompts.welcome';
/** The walkthrough's first step completes on `onContext:mcpPrompts.serversFound`. */
export const FOUND_KEY = 'mcpPrompts.serversFound';

function snapshot(state: ExtensionState): ViewSnapshot {
  return {
    trusted: vscode.workspace.isTrusted,
    servers: state.catalog.servers,
    held: state.held,
    problems: state.problems.length,
  };
}

/** The welcome case the view shows now; the tree has no rows while there is one. */
export function currentWelcome(state: ExtensionState): ViewWelcome | undefined {
  return viewWelcome(snapshot(state));
}

/** Keeps the context keys in step with every configuration read and server change. */
export function registerViewWelcome(state: ExtensionState): vscode.Disposable {
  let last: string | undefined;
  const update = () => {
    const view = snapshot(state);
    const welcome = viewWelcome(view) ?? '';
    const found = serversFound(view);
    const key = `${welcome}|${found}`;
    if (key === last) return;
    last = key;
    void vscode.commands.executeCommand('setContext', WELCOME_KEY, welcome);
    void vscode.commands.executeCommand('setContext', FOUND_KEY, found);
  };
  return vscode.Disposable.from(
    state.onDidLoadConfig(update),
    state.catalog.onDidChange(() => update()),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
  );
}

// The MCP Prompts view's welcome content and the walkthrough's "found" step, driven by context keys set
// from the catalog and the configuration read (the decision is core/view/welcome.ts).
import * as vscode from 'vscode';
import { serversFound, viewWelcome, type ViewSnapshot, type ViewWelcome } from '../core/view/welcome';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerConfiguration } from '../workspace/server-configuration';

/** package.json's viewsWelcome entries match `mcpPrompts.welcome == <case>`. */
export const WELCOME_KEY = 'mcpPrompts.welcome';
/** The walkthrough's first step completes on `onContext:mcpPrompts.serversFound`. */
export const FOUND_KEY = 'mcpPrompts.serversFound';

function snapshot(catalog: Catalog, configuration: ServerConfiguration): ViewSnapshot {
  return {
    trusted: vscode.workspace.isTrusted,
    servers: catalog.servers,
    held: configuration.held,
    problems: configuration.problems.length,
  };
}

/** The welcome case the view shows now; the tree has no rows while there is one. */
export function currentWelcome(catalog: Catalog, configuration: ServerConfiguration): ViewWelcome | undefined {
  return viewWelcome(snapshot(catalog, configuration));
}

/** Keeps the context keys in step with every configuration read and server change. */
export function registerViewWelcome(catalog: Catalog, configuration: ServerConfiguration): vscode.Disposable {
  let last: string | undefined;
  const update = () => {
    const view = snapshot(catalog, configuration);
    const welcome = viewWelcome(view) ?? '';
    const found = serversFound(view);
    const key = `${welcome}|${found}`;
    if (key === last) return;
    last = key;
    void vscode.commands.executeCommand('setContext', WELCOME_KEY, welcome);
    void vscode.commands.executeCommand('setContext', FOUND_KEY, found);
  };
  return vscode.Disposable.from(
    configuration.onDidLoad(update),
    catalog.onDidChange(() => update()),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
  );
}

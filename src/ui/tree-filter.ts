// "Filter Prompts…" in the sidebar's title: an input box whose words filter the tree as they are typed
// (title, name, description, server and argument names, as in Run Prompt…). VS Code 1.139's own find in
// a tree (Ctrl+Alt+F) matches only labels of rows already loaded, so prompts of a collapsed server, and
// words of a description, are never found by it. Enter keeps the filter; Escape puts the last one back.
import * as vscode from 'vscode';
import type { PromptTree } from './tree';

/** package.json shows Clear Filter in the view's title while `mcpPrompts.treeFiltered` is set. */
const FILTERED_KEY = 'mcpPrompts.treeFiltered';

function apply(tree: PromptTree, query: string): number {
  const found = tree.setFilter(query);
  void vscode.commands.executeCommand('setContext', FILTERED_KEY, !!query.trim());
  return found;
}

/** mcpPrompts.filterPrompts */
export function filterTree(tree: PromptTree): Promise<void> {
  const before = tree.filterText;
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Filter MCP Prompts');
  box.placeholder = vscode.l10n.t('Type words of a title, name, description, server or argument');
  box.prompt = vscode.l10n.t('Enter keeps the filter; an empty box shows every prompt.');
  box.value = before;
  let accepted = false;
  return new Promise(resolve => {
    box.onDidChangeValue(value => apply(tree, value));
    box.onDidAccept(() => {
      accepted = true;
      box.hide();
    });
    box.onDidHide(() => {
      if (!accepted) apply(tree, before);
      box.dispose();
      resolve();
    });
    box.show();
  });
}

/** mcpPrompts.clearPromptFilter */
export function clearTreeFilter(tree: PromptTree): void {
  apply(tree, '');
}

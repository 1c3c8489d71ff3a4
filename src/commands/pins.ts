// Pin and Unpin (the tree's rows, the picker's row button, the palette) and Copy Keybinding: the prompts
// a person keeps at hand. Pins are kept per user (core/run/records/prompt-usage.ts), never in the repository.
import * as vscode from 'vscode';
import { Command, Workbench } from '../core/command-ids';
import type { CatalogPrompt } from '../core/catalog/catalog';
import { bindingEntry } from '../core/run/requests/prompt-binding';
import { placeKey, placeOf } from '../core/run/records/prompt-usage';
import { promptGroups } from '../core/view/prompt-groups';
import { promptLabel } from '../core/view/names';
import { labelText } from '../core/label';
import { pickPrompt } from '../ui/picker';
import { treeNode } from '../ui/tree-nodes';
import type { RunParts } from './run';

/** The prompt a tree row stands for, or one picked (titled for what choosing does). */
async function promptFrom(p: RunParts, arg: unknown, title: string): Promise<CatalogPrompt | undefined> {
  const node = treeNode(arg);
  if (node?.type === 'prompt') return node.prompt;
  if (node) return undefined;
  const picked = await pickPrompt(p, { title, skills: false });
  return picked && 'prompt' in picked ? picked.prompt : undefined;
}

/** mcpPrompts.pinPrompt: the tree's prompt, or one picked. */
export async function pinPrompt(p: RunParts, arg?: unknown): Promise<void> {
  const prompt = await promptFrom(p, arg, vscode.l10n.t('Pin MCP Prompt'));
  if (prompt) await p.usage.setPinned(prompt, true);
}

/** mcpPrompts.unpinPrompt: the tree's pinned row, or one chosen among the pinned prompts. */
export async function unpinPrompt(p: RunParts, arg?: unknown): Promise<void> {
  const node = treeNode(arg);
  if (node?.type === 'prompt') return p.usage.setPinned(node.prompt, false);
  if (node?.type === 'heldPin') return p.usage.setPinned(node.place, false);
  if (node) return;
  const pins = p.usage.pins();
  if (!pins.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No prompt is pinned.'));
    return;
  }
  const { pinned } = promptGroups(p.catalog.servers, p.configuration.held, p.usage);
  const titles = new Map(
    pinned.flatMap(x => ('prompt' in x ? [[placeKey(placeOf(x.prompt)), promptLabel(x.prompt)]] : [])),
  );
  const items = pins.map(pin => ({
    label: labelText(titles.get(placeKey(pin.place)) ?? pin.place.prompt),
    description: labelText(pin.place.server),
    place: pin.place,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Unpin MCP Prompt') });
  if (chosen) await p.usage.setPinned(chosen.place, false);
}

/**
 * mcpPrompts.copyKeybinding: the keybindings.json entry that runs the prompt with its last values (typed
 * for this definition of its server), for a person to paste and give a key.
 */
export async function copyKeybinding(p: RunParts, arg?: unknown): Promise<void> {
  const prompt = await promptFrom(p, arg, vscode.l10n.t('Copy Keybinding for MCP Prompt'));
  if (!prompt) return;
  const entry = bindingEntry(prompt, p.usage.lastArguments(prompt), Command.runPrompt);
  await vscode.env.clipboard.writeText(JSON.stringify(entry, null, 2));
  const open = vscode.l10n.t('Open Keyboard Shortcuts (JSON)');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Copied a keybinding for "{0}": paste it into keybindings.json and set its "key".',
      labelText(promptLabel(prompt)),
    ),
    open,
  );
  if (choice === open) await vscode.commands.executeCommand(Workbench.openKeybindingsFile);
}

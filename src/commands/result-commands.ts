// Commands on a stored result (the buttons under a transcript, and the palette): hand it to the model,
// into the chat input, to the clipboard, to an editor or a .prompt.md file.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import type { ResultStore, StoredResult } from '../core/run/records/result-store';
import type { ChatHandOff } from '../core/run/requests/chat-request';
import { insertIntoChat as insert } from '../chat/result-actions';
import { openTranscript as open, transcriptMarkdown } from '../ui/transcript-editor';
import { treeNode } from '../ui/tree-nodes';
import { slashName } from '../core/view/names';
import { nothingToDo } from './feedback';
import { openChat } from './run';

export async function sendToModel(results: ResultStore, handOff: ChatHandOff, id: unknown): Promise<void> {
  const stored = results.get(id);
  // The participant answers from this stored result when its request arrives: no second prompts/get.
  if (stored) await openChat(handOff, { kind: 'result', stored });
}

export async function insertIntoChat(results: ResultStore, id: unknown): Promise<void> {
  const r = results.get(id);
  if (r) await insert(r);
}

/** The result a button names, or from the palette the last one (a run from the agent's get tool too). */
function resultFor(
  results: ResultStore,
  id: unknown,
  none = vscode.l10n.t('No prompt has been run yet.'),
): StoredResult | undefined {
  const r = results.get(id) ?? results.latest;
  if (!r) nothingToDo(none, vscode.l10n.t('Run Prompt…'), Command.runPrompt);
  return r;
}

export async function copyMarkdown(results: ResultStore, id: unknown): Promise<void> {
  const r = resultFor(results, id);
  if (r) await vscode.env.clipboard.writeText(transcriptMarkdown(r, 0));
}

export async function openTranscript(results: ResultStore, id: unknown): Promise<vscode.Uri | undefined> {
  const r = resultFor(results, id);
  return r ? open(r) : undefined;
}

export async function savePromptFile(results: ResultStore, id: unknown): Promise<void> {
  const r = resultFor(results, id, vscode.l10n.t('No prompt result to save yet.'));
  if (!r) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${r.result.prompt.shortName.replace(/[^A-Za-z0-9_-]/g, '_')}.prompt.md`;
  const defaultUri = folder && vscode.Uri.joinPath(folder, '.github', 'prompts', name);
  const target = await vscode.window.showSaveDialog({ defaultUri, filters: { Prompt: ['prompt.md', 'md'] } });
  if (target) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(transcriptMarkdown(r, 0)));
}

/** The tree's "Copy Invocation": what to type in chat. */
export async function copyInvocation(arg?: unknown): Promise<void> {
  const node = treeNode(arg);
  if (node?.type !== 'prompt') return;
  await vscode.env.clipboard.writeText(`@mcp /${slashName(node.prompt)} `);
}

// How a command says that something failed or that there is nothing to do, and offers the way forward;
// and whether a chat model is there to take a result.
import * as vscode from 'vscode';
import { Command, type CommandId } from '../core/command-ids';
import { PromptError } from '../core/errors';
import type { Catalog } from '../core/catalog/catalog';
import type { Where } from '../core/run/destination';
import { labelText } from '../core/label';
import type { ServerLogs } from '../workspace/server-logs';

/** What a failure message needs: the server to blame and its log. */
export interface FeedbackParts {
  catalog: Catalog;
  logs: ServerLogs;
}

/** Errors carry server text (its message, its stderr): a notification shows it as one plain line, no link or icon in it runs or draws anything. */
const MAX_NOTIFICATION_CHARS = 1000;

/**
 * The message, with Show Log when a server is to blame and "Try Again…" (arguments kept) when a prompt
 * failed; the retry runs where the failed run was meant to go.
 */
export function showError(p: FeedbackParts, err: unknown, retry?: string, where: Where = 'auto'): void {
  const message = labelText(err instanceof Error ? err.message : String(err), MAX_NOTIFICATION_CHARS);
  if (err instanceof PromptError && err.kind === 'cancelled') return;
  const blamed = err instanceof PromptError ? err.server : undefined;
  const server = blamed ? p.catalog.servers.find(e => e.def.name === blamed) : undefined;
  const showLog = vscode.l10n.t('Show Log');
  const again = vscode.l10n.t('Try Again…');
  void vscode.window.showErrorMessage(message, ...(retry ? [again] : []), ...(server ? [showLog] : [])).then(choice => {
    if (choice === showLog && server) p.logs.channel(server.def).show();
    if (choice === again && retry) void vscode.commands.executeCommand(Command.retryPrompt, retry, where);
  });
}

/** A chat model is there to answer: otherwise results go to the transcript editor. */
export async function chatAvailable(): Promise<boolean> {
  try {
    return (await vscode.lm.selectChatModels()).length > 0;
  } catch {
    return false;
  }
}

/** A command with nothing to do says so and offers the way forward. */
export function nothingToDo(message: string, action: string, command: CommandId): void {
  void vscode.window.showInformationMessage(message, action).then(choice => {
    if (choice === action) void vscode.commands.executeCommand(command);
  });
}

/** No server configured: say so and offer Add Server…; true when there is none. */
export function noServers(catalog: Catalog): boolean {
  if (catalog.servers.length) return false;
  nothingToDo(vscode.l10n.t('No MCP servers are configured.'), vscode.l10n.t('Add Server…'), Command.addServer);
  return true;
}

// Every command, registered in one place: one named function per command (run.ts, servers.ts,
// results.ts) under its id from core/command-ids.ts. All are registered at activation whatever the
// servers do, so a failing server never leaves a command missing.
import * as vscode from 'vscode';
import { Command, Workbench, type CommandId } from '../core/command-ids';
import { registerHandOff } from '../chat/handoff';
import { addServer, importServers } from '../ui/config-edit';
import type { Node } from '../ui/tree';
import { rerunLast, retryPrompt, runPromptCommand, runPromptInEditor, type Surfaces } from './run';
import {
  allowServer,
  disableServer,
  enableServer,
  restartServer,
  showLog,
  signIn,
  signOut,
  startServer,
  stopServer,
  type ServerArg,
} from './servers';
import { showFoundServers } from './found-servers';
import { copyInvocation, copyMarkdown, insertIntoChat, openTranscript, savePromptFile, sendToModel } from './results';

export { runPrompt, type Surfaces } from './run';
export { showError } from './feedback';

function register<A extends unknown[]>(id: CommandId, fn: (...args: A) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, fn);
}

/** The commands the walkthrough's buttons open; each shows a quick input. */
const WALKTHROUGH_ACTIONS: readonly string[] = [
  Command.addServer,
  Command.importServers,
  Command.showFoundServers,
  Command.runPrompt,
];
/** VS Code 1.139's walkthrough focuses its step again 250 ms after a click on one of its buttons. */
const WALKTHROUGH_REFOCUS_MS = 400;

/**
 * A walkthrough button's command, run once the walkthrough has taken the focus back: run at once, the
 * quick input it opens lost the focus to the walkthrough's step and closed (seen in the 1.139 host).
 */
async function walkthroughAction(id: unknown): Promise<void> {
  if (typeof id !== 'string' || !WALKTHROUGH_ACTIONS.includes(id)) return;
  await new Promise(resolve => setTimeout(resolve, WALKTHROUGH_REFOCUS_MS));
  await vscode.commands.executeCommand(id);
}

export function registerCommands(s: Surfaces): vscode.Disposable[] {
  const { state } = s;
  return [
    register(Command.runPrompt, (node?: Node) => runPromptCommand(s, node)),
    register(Command.runPromptInEditor, (node?: Node) => runPromptInEditor(s, node)),
    register(Command.rerunLast, () => rerunLast(s)),
    register(Command.retryPrompt, (invocationName: unknown, where?: unknown) => retryPrompt(s, invocationName, where)),
    register(Command.refresh, () => state.reload().then(() => state.catalog.refresh())),
    register(Command.restartServer, (arg?: ServerArg) => restartServer(state, arg)),
    register(Command.stopServer, (arg?: ServerArg) => stopServer(state, arg)),
    register(Command.startServer, (arg?: ServerArg) => startServer(state, arg)),
    register(Command.signIn, (arg?: ServerArg) => signIn(state, arg)),
    register(Command.signOut, (arg?: ServerArg) => signOut(state, arg)),
    register(Command.showLog, (arg?: ServerArg) => showLog(state, arg)),
    register(Command.allowServer, (id: unknown) => allowServer(state, id)),
    register(Command.disableServer, (arg?: ServerArg) => disableServer(state, arg)),
    register(Command.enableServer, (arg?: ServerArg) => enableServer(state, arg)),
    register(Command.copyInvocation, (node?: Node) => copyInvocation(node)),
    register(Command.addServer, () => addServer()),
    // Arguments (a file, a target, `placeholders`) skip questions; none can skip the warning about secrets.
    register(Command.importServers, (file?: unknown, target?: unknown, secrets?: unknown) =>
      importServers(state.context.globalStorageUri, file instanceof vscode.Uri ? file : undefined, {
        ...(target === 'user' || target === 'workspace' ? { target } : {}),
        ...(secrets === 'placeholders' ? { secrets } : {}),
      }),
    ),
    register(Command.showFoundServers, () => showFoundServers(state)),
    register(Command.walkthroughAction, (id: unknown) => walkthroughAction(id)),
    register(Command.focusView, () => vscode.commands.executeCommand(Workbench.focusPromptsView)),
    register(Command.sendToModel, (id: unknown) => sendToModel(state, id)),
    register(Command.insertIntoChat, (id: unknown) => insertIntoChat(state, id)),
    register(Command.copyMarkdown, (id: unknown) => copyMarkdown(state, id)),
    register(Command.openTranscript, (id: unknown) => openTranscript(state, id)),
    register(Command.savePromptFile, (id: unknown) => savePromptFile(state, id)),
    ...registerHandOff(state),
  ];
}

// Every command, registered in one place: one named function per command (run.ts, servers.ts,
// result-commands.ts) under its id from core/command-ids.ts. All are registered at activation whatever the
// servers do, so a failing server never leaves a command missing.
import * as vscode from 'vscode';
import { Command, Workbench, type CommandId } from '../core/command-ids';
import { registerHandOff } from '../chat/result-actions';
import { addServer, importServers, IMPORT_TARGETS, type ImportTarget } from '../ui/config-edit';
import { rerunLast, retryPrompt, runAgain, runPromptCommand, runPromptInEditor, type RunParts } from './run';
import { copyKeybinding, pinPrompt, unpinPrompt } from './pins';
import { clearTreeFilter, filterTree } from '../ui/tree-filter';
import type { PromptTree } from '../ui/tree';
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
  type ServerParts,
} from './servers';
import { showFoundServers } from './found-servers';
import { copyGatewayConfiguration } from './gateway';
import { inspectSkillCommand, loadSkillCommand, type SkillParts } from './skills';
import {
  copyInvocation,
  copyMarkdown,
  insertIntoChat,
  openTranscript,
  savePromptFile,
  sendToModel,
} from './result-commands';
import type { ResultStore } from '../core/run/records/result-store';
import type { Platform } from '../core/platform';

/** What the commands use, handed over by extension.ts. */
export interface CommandParts extends RunParts, ServerParts, SkillParts {
  results: ResultStore;
  /** The extension's global storage: Import Servers finds the profile's mcp.json from it. */
  globalStorageUri: vscode.Uri;
  /** The extension host's platform: where Import Servers looks for other clients' files. */
  platform: Platform;
  /** The sidebar: Filter Prompts… filters it. */
  tree: PromptTree;
  /** The extension's folder: Copy Gateway Configuration finds the CLI beside it when it is there. */
  extensionUri: vscode.Uri;
}

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
 * quick input it opens lost the focus to the walkthrough's step and closed (walkthrough.e2e.js clicks
 * each button and types into the quick input it opens).
 */
async function walkthroughAction(id: unknown): Promise<void> {
  if (typeof id !== 'string' || !WALKTHROUGH_ACTIONS.includes(id)) return;
  await new Promise(resolve => setTimeout(resolve, WALKTHROUGH_REFOCUS_MS));
  await vscode.commands.executeCommand(id);
}

export function registerCommands(p: CommandParts): vscode.Disposable[] {
  const { configuration, catalog, results } = p;
  return [
    // A tree row's node, or a key binding's `args` (checked in run.ts): anything else is refused there.
    register(Command.runPrompt, (arg?: unknown) => runPromptCommand(p, arg)),
    register(Command.runPromptInEditor, (arg?: unknown) => runPromptInEditor(p, arg)),
    register(Command.rerunLast, () => rerunLast(p)),
    register(Command.runAgain, (arg?: unknown) => runAgain(p, arg)),
    register(Command.retryPrompt, (invocationName: unknown, where?: unknown) => retryPrompt(p, invocationName, where)),
    register(Command.refresh, () => configuration.reload(true).then(() => catalog.refresh())),
    register(Command.restartServer, (arg?: ServerArg) => restartServer(p, arg)),
    register(Command.stopServer, (arg?: ServerArg) => stopServer(p, arg)),
    register(Command.startServer, (arg?: ServerArg) => startServer(p, arg)),
    register(Command.signIn, (arg?: ServerArg) => signIn(p, arg)),
    register(Command.signOut, (arg?: ServerArg) => signOut(p, arg)),
    register(Command.showLog, (arg?: ServerArg) => showLog(p, arg)),
    register(Command.allowServer, (id: unknown) => allowServer(p, id)),
    register(Command.disableServer, (arg?: ServerArg) => disableServer(p, arg)),
    register(Command.enableServer, (arg?: ServerArg) => enableServer(p, arg)),
    register(Command.copyInvocation, (arg?: unknown) => copyInvocation(arg)),
    register(Command.inspectSkill, (arg?: unknown) => inspectSkillCommand(p, arg)),
    register(Command.loadSkill, (arg?: unknown) => loadSkillCommand(p, arg)),
    register(Command.copyKeybinding, (arg?: unknown) => copyKeybinding(p, arg)),
    register(Command.pinPrompt, (arg?: unknown) => pinPrompt(p, arg)),
    register(Command.unpinPrompt, (arg?: unknown) => unpinPrompt(p, arg)),
    register(Command.filterPrompts, () => filterTree(p.tree)),
    register(Command.clearPromptFilter, () => clearTreeFilter(p.tree)),
    // Read at once: a file written into a folder that did not exist (~/.copilot) is not always seen by
    // the watchers before the folder's own watch is set up.
    register(Command.addServer, () => addServer(p.globalStorageUri, p.platform).then(() => configuration.reload())),
    // Arguments (a file, a target, `placeholders`) skip questions; none can skip the warning about secrets.
    register(Command.importServers, (file?: unknown, target?: unknown, secrets?: unknown) =>
      importServers(p.globalStorageUri, p.platform, file instanceof vscode.Uri ? file : undefined, {
        ...(typeof target === 'string' && IMPORT_TARGETS.includes(target as ImportTarget)
          ? { target: target as ImportTarget }
          : {}),
        ...(secrets === 'placeholders' ? { secrets } : {}),
      }).then(async count => {
        if (count) await configuration.reload();
        return count;
      }),
    ),
    register(Command.showFoundServers, () => showFoundServers(p)),
    register(Command.copyGatewayConfiguration, () => copyGatewayConfiguration(p)),
    register(Command.walkthroughAction, (id: unknown) => walkthroughAction(id)),
    register(Command.focusView, () => vscode.commands.executeCommand(Workbench.focusPromptsView)),
    register(Command.sendToModel, (id: unknown) => sendToModel(results, p.handOff, id)),
    register(Command.insertIntoChat, (id: unknown) => insertIntoChat(results, id)),
    register(Command.copyMarkdown, (id: unknown) => copyMarkdown(results, id)),
    register(Command.openTranscript, (id: unknown) => openTranscript(results, id)),
    register(Command.savePromptFile, (id: unknown) => savePromptFile(results, id)),
    ...registerHandOff(results),
  ];
}

// Running a prompt from the palette, the tree, Re-run Last and Try Again: the runner's one path
// (core/runner.ts), with the result in chat or in the transcript editor as destination() decides.
import * as vscode from 'vscode';
import type { CatalogPrompt } from '../core/catalog/catalog';
import { Command, Workbench } from '../core/command-ids';
import type { StoredResult } from '../core/run/results';
import { destination, run, type Where } from '../core/run/runner';
import { readSettings } from '../settings';
import type { ExtensionState } from '../state';
import type { ArgumentInput } from '../ui/argument-input';
import { pickPrompt } from '../ui/picker';
import { openTranscript } from '../ui/transcript-editor';
import type { Node } from '../ui/tree';
import { nothingToDo, showError } from './feedback';

/** Set once a prompt ran from the picker or the tree (package.json's walkthrough `onContext:`). */
const PROMPT_RAN_KEY = 'mcpPrompts.promptRan';

export interface Surfaces {
  state: ExtensionState;
  input: ArgumentInput;
}

/** A chat model is there to answer: otherwise results go to the transcript editor. */
async function chatAvailable(): Promise<boolean> {
  try {
    return (await vscode.lm.selectChatModels()).length > 0;
  } catch {
    return false;
  }
}

function openChat(line: string): Thenable<unknown> {
  return vscode.commands.executeCommand(Workbench.openChat, { query: `@mcp /${line}` });
}

/** Picker and tree: collect arguments, then run in chat (with a model) or in the transcript editor. */
export async function runPrompt(
  s: Surfaces,
  target: CatalogPrompt,
  where: Where = 'auto',
): Promise<StoredResult | undefined> {
  const outcome = await run(s.state.catalog, s.state.results, {
    prompt: target,
    collect: s.input.collect,
    askOptional: true,
    fromDraft: true,
    route: async prepared => {
      if ((await destination('command', where, readSettings(), chatAvailable)).to === 'editor') return true;
      await openChat(prepared.line);
      return false;
    },
    whileStarting: (prepared, start) =>
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Starting {0}…', prepared.prompt.server.def.name),
        },
        start,
      ),
    whileGetting: (prepared, get) =>
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Getting {0}…', prepared.prompt.invocationName),
          cancellable: true,
        },
        (_p, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return get(controller.signal);
        },
      ),
  });
  // The walkthrough's "Run your first prompt" completes on this key once a prompt really ran: on the
  // command itself it would complete while the picker is open, and the walkthrough then takes the focus.
  if (outcome.kind === 'done' || outcome.kind === 'handedOff')
    void vscode.commands.executeCommand('setContext', PROMPT_RAN_KEY, true);
  switch (outcome.kind) {
    case 'done':
      await openTranscript(outcome.stored);
      return outcome.stored;
    case 'failed':
      showError(s.state, outcome.error, outcome.retry ?? target.invocationName, where);
      return undefined;
    case 'cancelled':
    case 'handedOff':
      return undefined;
  }
}

/** mcpPrompts.runPrompt: the tree's prompt, or one picked. */
export async function runPromptCommand(s: Surfaces, node?: Node): Promise<StoredResult | undefined> {
  const target = node?.type === 'prompt' ? node.prompt : await pickPrompt(s.state);
  return target ? runPrompt(s, target) : undefined;
}

/** mcpPrompts.runPromptInEditor: the same, always in the transcript editor. */
export async function runPromptInEditor(s: Surfaces, node?: Node): Promise<StoredResult | undefined> {
  const target = node?.type === 'prompt' ? node.prompt : await pickPrompt(s.state);
  return target ? runPrompt(s, target, 'editor') : undefined;
}

/** mcpPrompts.rerunLast: the last invocation again, as it was typed (missing arguments are asked for). */
export async function rerunLast(s: Surfaces): Promise<void> {
  const line = s.state.results.lastInvocation;
  if (!line) {
    nothingToDo(vscode.l10n.t('No prompt has been run yet.'), vscode.l10n.t('Run Prompt…'), Command.runPrompt);
    return;
  }
  if ((await destination('command', 'auto', readSettings(), chatAvailable)).to === 'chat') {
    await openChat(line);
    return;
  }
  const outcome = await run(s.state.catalog, s.state.results, { line, collect: s.input.collect });
  if (outcome.kind === 'done') await openTranscript(outcome.stored);
  else if (outcome.kind === 'failed') showError(s.state, outcome.error);
}

/** mcpPrompts.retryPrompt (chat button, error notification): ask again, starting from the arguments that failed. */
export async function retryPrompt(
  s: Surfaces,
  invocationName: unknown,
  where?: unknown,
): Promise<StoredResult | undefined> {
  const found = typeof invocationName === 'string' ? s.state.catalog.resolve(invocationName) : undefined;
  if (!found) return undefined;
  if ('error' in found) {
    showError(s.state, found.error);
    return undefined;
  }
  return runPrompt(s, found.prompt, where === 'chat' || where === 'editor' ? where : 'auto');
}

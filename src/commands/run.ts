// Running a prompt from the palette, the tree, Repeat Last Prompt and Try Again: each builds the run
// request from what the person chose and hands it to the one run path (core/run/prompt-runner.ts); the
// result goes to chat or to the transcript editor as destination() decides.
import * as vscode from 'vscode';
import type { Catalog, CatalogPrompt } from '../core/catalog/catalog';
import { Command, Workbench } from '../core/command-ids';
import type { Attempts } from '../core/run/attempts';
import { formatInvocation, type RunRequest } from '../core/run/invocation';
import type { StoredResult } from '../core/run/result-store';
import { destination, type Where } from '../core/run/destination';
import type { Collector, PromptRunner, RunOptions } from '../core/run/prompt-runner';
import { readSettings } from '../settings';
import type { ServerLogs } from '../workspace/server-logs';
import { pickPrompt, type Picked } from '../ui/picker';
import { openTranscript } from '../ui/transcript-editor';
import type { Node } from '../ui/tree';
import { chatAvailable, nothingToDo, showError } from './feedback';
import { inspectSkill, loadSkill, type SkillParts } from './skills';

/** Set once a prompt ran from the picker or the tree (package.json's walkthrough `onContext:`). */
const PROMPT_RAN_KEY = 'mcpPrompts.promptRan';

/** What the run commands use. */
export interface RunParts {
  catalog: Catalog;
  runner: PromptRunner;
  attempts: Attempts;
  logs: ServerLogs;
  /** The argument input (src/ui/argument-input.ts). */
  collect: Collector;
}

/** `line` in the chat input, sent: the chat request runs it. */
function openChat(line: string): Thenable<unknown> {
  return vscode.commands.executeCommand(Workbench.openChat, { query: `@mcp /${line}` });
}

/** Progress notifications around starting the server and around the request (with its own Cancel). */
const withProgress: Pick<RunOptions, 'whileStarting' | 'whileGetting'> = {
  whileStarting: (server, start) =>
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting {0}…', server.def.name) },
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
};

/**
 * Picker and tree: ask for the arguments (optional ones too), then run in the transcript editor, or hand
 * the line to chat (with a model), where the chat request runs it.
 */
export async function runPrompt(
  p: RunParts,
  request: RunRequest,
  where: Where = 'auto',
): Promise<StoredResult | undefined> {
  const options: RunOptions = { collect: p.collect, askOptional: true, fromDraft: true, ...withProgress };
  const preparation = await p.runner.prepare(request, options);
  if (preparation.kind === 'cancelled') return undefined;
  if (preparation.kind === 'failed') {
    showError(p, preparation.error, request.prompt.invocationName, where);
    return undefined;
  }
  const { prepared } = preparation;
  if ((await destination('command', where, readSettings(), chatAvailable)).to === 'chat') {
    void openChat(p.runner.handOff(prepared));
    promptRan();
    return undefined;
  }
  const outcome = await p.runner.get(prepared, options);
  if (outcome.kind === 'done') {
    promptRan();
    await openTranscript(outcome.stored);
    return outcome.stored;
  }
  if (outcome.kind === 'failed') showError(p, outcome.error, outcome.retry ?? request.prompt.invocationName, where);
  return undefined;
}

/**
 * The walkthrough's "Run your first prompt" completes on this key once a prompt really ran: on the
 * command itself it would complete while the picker is open, and the walkthrough then takes the focus.
 */
function promptRan(): void {
  void vscode.commands.executeCommand('setContext', PROMPT_RAN_KEY, true);
}

/** mcpPrompts.runPrompt: the tree's prompt, or one picked (a skill picked is loaded, or inspected by its button). */
export async function runPromptCommand(p: RunParts & SkillParts, node?: Node): Promise<StoredResult | undefined> {
  return runPicked(p, node?.type === 'prompt' ? { prompt: node.prompt } : await pickPrompt(p.catalog, p.logs));
}

/** mcpPrompts.runPromptInEditor: the same, always in the transcript editor (a skill there is inspected). */
export async function runPromptInEditor(p: RunParts & SkillParts, node?: Node): Promise<StoredResult | undefined> {
  const picked = node?.type === 'prompt' ? { prompt: node.prompt } : await pickPrompt(p.catalog, p.logs);
  return runPicked(p, picked && 'skill' in picked ? { ...picked, inspect: true } : picked, 'editor');
}

async function runPicked(
  p: RunParts & SkillParts,
  picked: Picked | undefined,
  where?: Where,
): Promise<StoredResult | undefined> {
  if (picked && 'skill' in picked) await (picked.inspect ? inspectSkill(p, picked) : loadSkill(p, picked));
  else if (picked) return runPrompt(p, { prompt: picked.prompt, values: {} }, where);
  return undefined;
}

/** mcpPrompts.rerunLast (Repeat Last Prompt): the last run again with its arguments (missing ones are asked for). */
export async function rerunLast(p: RunParts): Promise<void> {
  const last = p.attempts.last;
  if (!last) {
    nothingToDo(vscode.l10n.t('No prompt has been run yet.'), vscode.l10n.t('Run Prompt…'), Command.runPrompt);
    return;
  }
  if ((await destination('command', 'auto', readSettings(), chatAvailable)).to === 'chat') {
    await openChat(formatInvocation(last.invocationName, last.args));
    return;
  }
  let prompt: CatalogPrompt;
  try {
    prompt = await p.catalog.find(last.invocationName);
  } catch (err) {
    showError(p, err);
    return;
  }
  const outcome = await p.runner.run({ prompt, values: last.args }, { collect: p.collect });
  if (outcome.kind === 'done') await openTranscript(outcome.stored);
  else if (outcome.kind === 'failed') showError(p, outcome.error);
}

/** mcpPrompts.retryPrompt (chat button, error notification): ask again, starting from the arguments that failed. */
export async function retryPrompt(
  p: RunParts,
  invocationName: unknown,
  where?: unknown,
): Promise<StoredResult | undefined> {
  const found = typeof invocationName === 'string' ? p.catalog.resolve(invocationName) : undefined;
  if (!found) return undefined;
  if ('error' in found) {
    showError(p, found.error);
    return undefined;
  }
  return runPrompt(p, { prompt: found.prompt, values: {} }, where === 'chat' || where === 'editor' ? where : 'auto');
}

// Running a prompt from the palette, the tree, Repeat Last Prompt and Try Again: each builds the run
// request from what the person chose and prepares it on the one run path (core/run/prompt-runner.ts);
// the prepared run is got for the transcript editor, or handed to chat as it is (core/run/requests/chat-request.ts),
// as destination() decides.
import * as vscode from 'vscode';
import type { Catalog, CatalogPrompt } from '../core/catalog/catalog';
import { Command, Workbench } from '../core/command-ids';
import type { Attempts } from '../core/run/records/attempts';
import type { RunRequest } from '../core/run/invocation';
import type { StoredResult } from '../core/run/records/result-store';
import { destination, type Where } from '../core/run/destination';
import type { Collector, PromptRunner, RunOptions } from '../core/run/prompt-runner';
import { lookUpBinding, parsePromptBinding, type BindingLookup } from '../core/run/requests/prompt-binding';
import type { PromptUsage } from '../core/run/records/prompt-usage';
import { heldWayOut } from '../core/view/tree-items';
import { readSettings } from '../settings';
import type { ServerLogs } from '../workspace/server-logs';
import type { ServerConfiguration } from '../workspace/server-configuration';
import { pickPrompt, type Picked } from '../ui/picker';
import { openTranscript } from '../ui/transcript-editor';
import { treeNode } from '../ui/tree-nodes';
import { chatAvailable, nothingToDo, showError } from './feedback';
import { executeRef } from '../ui/descriptors';
import { inspectSkill, loadSkill, type SkillParts } from './skills';
import type { ChatHandOff, HandedToChat } from '../core/run/requests/chat-request';

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
  /** The prompts run and pinned: the picker shows them first. */
  usage: PromptUsage;
  /** The servers held back: a binding or a pin of one says why. */
  configuration: ServerConfiguration;
  /** Where a run handed to chat waits for the chat request that runs it. */
  handOff: ChatHandOff;
}

/** Hands `handed` to chat: its line in the chat input, sent; the participant claims the value for that request. */
export function openChat(handOff: ChatHandOff, handed: HandedToChat): Thenable<unknown> {
  return vscode.commands.executeCommand(Workbench.openChat, { query: `@mcp /${handOff.hold(handed)}` });
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

/** How a command runs its request: where, and what its argument input asks for. */
interface RunHow {
  where: Where;
  /** Ask for the optional arguments too (not when values were given: a recent run, a key binding). */
  askOptional: boolean;
  /** Start the input from the last failed attempt's arguments (not for Repeat Last Prompt). */
  fromDraft: boolean;
}

/**
 * Picker, tree, Try Again and Repeat Last Prompt: ask for the arguments, then run in the transcript
 * editor, or hand the prepared run to chat (with a model), where the chat request gets exactly it.
 */
export async function runPrompt(
  p: RunParts,
  request: RunRequest,
  how: RunHow = { where: 'auto', askOptional: true, fromDraft: true },
): Promise<StoredResult | undefined> {
  const { where } = how;
  const options: RunOptions = { collect: p.collect, ...how, ...withProgress };
  const preparation = await p.runner.prepare(request, options);
  if (preparation.kind === 'cancelled') return undefined;
  if (preparation.kind === 'failed') {
    showError(p, preparation.error, request.prompt.invocationName, where);
    return undefined;
  }
  const { prepared } = preparation;
  if ((await destination('command', where, readSettings(), chatAvailable)).to === 'chat') {
    void openChat(p.handOff, { kind: 'run', prepared });
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

/**
 * mcpPrompts.runPrompt: the tree's prompt, the prompt a key binding names (its `args`), or one picked
 * (a skill picked is loaded, or inspected by its button). A binding's values, or a recent run's (the
 * picker row's Run Again button), are given: only the missing required arguments are asked for.
 */
export async function runPromptCommand(p: RunParts & SkillParts, arg?: unknown): Promise<StoredResult | undefined> {
  return runFrom(p, arg, 'auto');
}

/** mcpPrompts.runPromptInEditor: the same, always in the transcript editor (a skill there is inspected). */
export async function runPromptInEditor(p: RunParts & SkillParts, arg?: unknown): Promise<StoredResult | undefined> {
  return runFrom(p, arg, 'editor');
}

async function runFrom(p: RunParts & SkillParts, arg: unknown, where: Where): Promise<StoredResult | undefined> {
  const node = treeNode(arg);
  let target: Picked | BoundPrompt | undefined;
  if (node?.type === 'prompt') target = { prompt: node.prompt };
  else if (arg === undefined || node) target = await pickPrompt(p);
  else target = await fromBinding(p, arg, where);
  if (!target) return undefined;
  if ('skill' in target) {
    await (target.inspect || where === 'editor' ? inspectSkill(p, target.skill) : loadSkill(p, target.skill));
    return undefined;
  }
  const values = target.values ?? {};
  const how = { where: ('where' in target && target.where) || where, askOptional: !target.values, fromDraft: true };
  return runPrompt(p, { prompt: target.prompt, values }, how);
}

/** mcpPrompts.runAgain: a recent row of the sidebar, run again with the values it ran with (nothing asked). */
export async function runAgain(p: RunParts, arg?: unknown): Promise<StoredResult | undefined> {
  const node = treeNode(arg);
  if (node?.type !== 'prompt' || !node.args) return undefined;
  return runPrompt(
    p,
    { prompt: node.prompt, values: node.args },
    { where: 'auto', askOptional: false, fromDraft: true },
  );
}

/** The prompt a key binding names, with its values and where it runs. */
interface BoundPrompt {
  prompt: CatalogPrompt;
  values: Record<string, string>;
  where: Where;
}

/** A key binding's `args`: the prompt it names, or one message saying what is wrong, with Run Prompt…. */
async function fromBinding(p: RunParts, arg: unknown, where: Where): Promise<BoundPrompt | undefined> {
  const parsed = parsePromptBinding(arg);
  const found: BindingLookup =
    'problem' in parsed ? parsed : await lookUpBinding(parsed.binding, p.catalog, p.configuration.held, where);
  if (!('problem' in found)) return { prompt: found.prompt, values: found.values, where: found.where };
  const way = found.held && heldWayOut(found.held);
  const pick = vscode.l10n.t('Run Prompt…');
  void vscode.window.showErrorMessage(found.problem, ...(way ? [way.title] : []), pick).then(choice => {
    if (choice === pick) void vscode.commands.executeCommand(Command.runPrompt);
    else if (way && choice === way.title) void executeRef(way);
  });
  return undefined;
}

/**
 * mcpPrompts.rerunLast (Repeat Last Prompt): the last run again with its arguments (missing ones are
 * asked for), handed to chat or got for the editor like a run from the picker.
 */
export async function rerunLast(p: RunParts): Promise<void> {
  const last = p.attempts.last;
  if (!last) {
    nothingToDo(vscode.l10n.t('No prompt has been run yet.'), vscode.l10n.t('Run Prompt…'), Command.runPrompt);
    return;
  }
  let prompt: CatalogPrompt;
  try {
    prompt = await p.catalog.findPrompt(last.invocationName);
  } catch (err) {
    showError(p, err);
    return;
  }
  await runPrompt(p, { prompt, values: last.args }, { where: 'auto', askOptional: false, fromDraft: false });
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
  const to = where === 'chat' || where === 'editor' ? where : 'auto';
  return runPrompt(p, { prompt: found.prompt, values: {} }, { where: to, askOptional: true, fromDraft: true });
}

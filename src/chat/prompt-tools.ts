// The prompts as language-model tools, for agents that no `@mcp` slash command reaches (VS Code's agent
// sessions, the Copilot CLI, Claude, Codex): one lists the prompts, one gets a prompt with arguments.
// The MCP spec calls prompts user-controlled, so the get tool always asks first: prepareInvocation builds
// the run request once, checks it on the one run path (PromptRunner.prepare, the messages every surface
// gives), and shows the server, the prompt and every value; only a call the person allowed reaches
// invoke, which sends exactly what was shown. package.json keeps the get tool out of VS Code's "allow for
// this session" (configurationDefaults), so every get is confirmed. Nothing opens an input from inside a
// tool call: missing arguments are named in the error the agent reads, and it asks the person or calls
// again. The result is stored like every other (Open Last Result as Document, Copy Last Result as
// Markdown) and reaches the model as text from that server; the values, the agent's, are kept nowhere
// (no Run Again or Repeat Last Prompt sends them without a confirmation).
// prompt-tools.e2e.js drives both tools from an agent chat with the tests' fake model.
import * as vscode from 'vscode';
import type { Catalog } from '../core/catalog/catalog';
import { PromptError } from '../core/errors';
import { labelText } from '../core/label';
import type { MarkdownLabels } from '../core/render/markdown';
import { toolResultParts } from '../core/render/tool-result';
import { PreparedCalls } from '../core/run/prepared-calls';
import type { Prepared, PromptRunner } from '../core/run/prompt-runner';
import { serverNamed, type PromptToolInput } from '../core/run/requests/tool-request';
import { listForAgent, listingText, prepareForAgent, PROMPT_TOOLS } from '../core/view/agent-listing';
import { promptConfirmation } from '../core/view/prompt-confirmation';
import { roleLabel, untrusted } from './render';
import { sourceOf } from './result-actions';

export interface PromptToolParts {
  catalog: Catalog;
  runner: PromptRunner;
}

interface ListInput {
  server?: unknown;
}

/** How long the list tool waits for servers that are still listing before it answers with what is there. */
const LIST_WAIT_MS = 10_000;
/** Characters of an error message in a tool result. */
const MESSAGE_CHARS = 1000;

export function registerPromptTools(parts: PromptToolParts): vscode.Disposable[] {
  const prepared = new PreparedCalls<Prepared>();
  return [
    vscode.lm.registerTool<ListInput>(PROMPT_TOOLS.list.name, {
      // Reads what the catalog holds (waiting for a server still listing): no prompt is got and no value
      // is sent, so there is nothing to confirm.
      prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Listing the MCP prompts') }),
      invoke: (options, token) => listPrompts(parts.catalog, options.input, token),
    }),
    vscode.lm.registerTool<PromptToolInput>(PROMPT_TOOLS.get.name, {
      async prepareInvocation(options) {
        // A request that cannot be sent fails here, as VS Code's own tools fail on bad input: nothing to
        // confirm, and the agent reads why (the server, the prompt and the missing or unknown arguments).
        const ready = await prepare(parts, options.input);
        prepared.add(options.input, ready);
        const { title, message } = promptConfirmation(ready, parts.catalog.servers);
        return {
          invocationMessage: vscode.l10n.t('Getting {0}…', ready.prompt.invocationName),
          confirmationMessages: { title, message: untrusted(message) },
        };
      },
      async invoke(options, token) {
        const ready = prepared.take(options.input);
        if (!ready) return text(vscode.l10n.t('The prompt was not run: the call was not confirmed.'));
        return getPrompt(parts, ready, token);
      },
    }),
  ];
}

/** The run request from the model's input, checked as every surface checks it; no input is opened. */
async function prepare({ catalog, runner }: PromptToolParts, input: PromptToolInput): Promise<Prepared> {
  const preparation = await prepareForAgent(catalog, runner, input);
  // The agent chose the values: the run keeps none of them (Prepared.byAgent).
  if ('prepared' in preparation) return { ...preparation.prepared, byAgent: true };
  throw new Error(
    `${vscode.l10n.t('The prompt was not run: {0}', messageOf(preparation.error))} ${preparation.nextStep}`,
  );
}

async function getPrompt(
  { catalog, runner }: PromptToolParts,
  prepared: Prepared,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const { server } = prepared.prompt;
  // The configuration changed between the confirmation and now (the server was removed or lost its consent).
  if (!catalog.servers.includes(server))
    return text(vscode.l10n.t('The prompt was not run: {0} is no longer configured', server.def.name));
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const outcome = await runner.get(prepared, { signal: controller.signal });
    if (outcome.kind === 'failed') return text(vscode.l10n.t('The prompt failed: {0}', messageOf(outcome.error)));
    if (outcome.kind === 'cancelled') return text(vscode.l10n.t('Cancelled.'));
    const parts = toolResultParts(outcome.stored.transcript, sourceOf(outcome.stored), markdownLabels());
    return new vscode.LanguageModelToolResult(
      parts.map(p =>
        p.kind === 'text'
          ? new vscode.LanguageModelTextPart(p.text)
          : vscode.LanguageModelDataPart.image(Buffer.from(p.data, 'base64'), p.mimeType),
      ),
    );
  } finally {
    sub.dispose();
  }
}

async function listPrompts(
  catalog: Catalog,
  input: ListInput,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  let servers = catalog.servers;
  if (typeof input?.server === 'string' && input.server) {
    try {
      servers = [serverNamed(catalog, input.server)];
    } catch (err) {
      return text(messageOf(err));
    }
  }
  // A server still starting is waited for a while; a slow one is then listed as still listing.
  await settledWithin(Promise.all(servers.map(s => catalog.ready(s.id))), LIST_WAIT_MS, token);
  return text(listingText(listForAgent(servers)));
}

/** Resolves when `work` settles, after `ms`, or on cancellation, whichever comes first. */
function settledWithin(work: Promise<unknown>, ms: number, token: vscode.CancellationToken): Promise<void> {
  return new Promise<void>(resolve => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const sub = token.onCancellationRequested(done);
    void work.finally(done);
  });
}

function markdownLabels(): MarkdownLabels {
  return {
    user: roleLabel('user'),
    assistant: roleLabel('assistant'),
    forAssistant: vscode.l10n.t('For the assistant only:'),
    notShown: reason => vscode.l10n.t('Not shown: {0}', reason),
  };
}

/** An error as one bounded line (its message may carry a server's words). */
function messageOf(err: unknown): string {
  return labelText(err instanceof PromptError || err instanceof Error ? err.message : String(err), MESSAGE_CHARS);
}

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}

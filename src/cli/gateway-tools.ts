// The gateway's two tools, for agents that speak only tools: `list_prompts` answers what the extension's list
// tool answers (core/view/agent-listing.ts), `get_prompt` runs the one run path (PromptRunner) with the input
// checked as the extension's get tool checks it (core/run/requests/tool-request.ts) and answers with its result made
// for an agent (core/render/tool-result.ts): one line naming the server it came from, the messages, images
// and audio as data. Everything that goes wrong is an `isError` result naming the server, the prompt and the
// arguments it takes; nothing here throws to the SDK.
import type { CallToolResult, ClientCapabilities, ServerContext, Tool } from '@modelcontextprotocol/server';
import type { Catalog, CatalogPrompt } from '../core/catalog/catalog.js';
import { PromptError } from '../core/errors.js';
import { labelText } from '../core/label.js';
import { toolResultParts } from '../core/render/tool-result.js';
import { argumentList } from '../core/run/invocation.js';
import type { PromptRunner, RunOutcome } from '../core/run/prompt-runner.js';
import { requestFromToolInput, type PromptToolInput } from '../core/run/requests/tool-request.js';
import { listForAgent, listingText, type AgentListing } from '../core/view/agent-listing.js';
import type { GatewayRuns, Round } from './gateway-runs.js';
import type { HeldServer } from './serve-config.js';

export const GATEWAY_TOOLS = { list: 'list_prompts', get: 'get_prompt' } as const;

/** How long the list tool waits for servers still starting before it answers with what is there. */
const LIST_WAIT_MS = 10_000;
/** Characters of an error message in a tool result. */
const MESSAGE_CHARS = 1000;
/** A server's prompt names in an "unknown prompt" message. */
const NAMES_SHOWN = 30;

const LABELS = {
  user: 'User',
  assistant: 'Assistant',
  forAssistant: 'For the assistant only:',
  notShown: (reason: string) => `Not shown: ${reason}`,
};

export const TOOL_DEFINITIONS: Tool[] = [
  {
    name: GATEWAY_TOOLS.list,
    title: 'List MCP prompts',
    description:
      "Lists the prompts of the user's MCP servers: each prompt's server, name, title, description and arguments. Use it to find the prompt the user asks for; then get it with get_prompt.",
    inputSchema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'Only the prompts of this server (its id, as listed)' } },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: GATEWAY_TOOLS.get,
    title: 'Get an MCP prompt',
    description:
      "Gets one prompt of one of the user's MCP servers, with its arguments, and returns its messages marked as that server's text. Prompts are chosen by the user: get one when the user asks for it.",
    inputSchema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The server, as list_prompts gives it' },
        prompt: { type: 'string', description: 'The prompt name, as list_prompts gives it' },
        arguments: {
          type: 'object',
          description: "The prompt's arguments by name (text values)",
          additionalProperties: { type: 'string' },
        },
      },
      required: ['server', 'prompt'],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
];

export interface ToolParts {
  catalog: Catalog;
  runner: PromptRunner;
  runs: GatewayRuns;
  held: readonly HeldServer[];
}

/** `list_prompts`: every prompt of the servers that answered (waiting a while for those still starting). */
export async function listTool(parts: ToolParts, input: { server?: unknown }): Promise<CallToolResult> {
  const { catalog, held } = parts;
  let servers = catalog.servers;
  if (typeof input.server === 'string' && input.server) {
    const one = catalog.server(input.server) ?? servers.find(s => s.def.name === input.server);
    const heldOne = held.find(h => h.name === input.server);
    if (!one) return failure(heldOne?.message ?? unknownServer(parts, input.server));
    servers = [one];
  }
  const ready = Promise.all(servers.map(s => catalog.ready(s.id)));
  await Promise.race([ready, new Promise(resolve => setTimeout(resolve, LIST_WAIT_MS).unref())]);
  // The gateway offers no tool that loads a skill: its listing holds prompts only.
  const listing: AgentListing = { ...listForAgent(servers), skills: [] };
  if (servers === catalog.servers) for (const h of held) listing.unavailable.push(heldEntry(h));
  return text(listingText(listing, { get: GATEWAY_TOOLS.get, loadSkill: '' }));
}

/** `get_prompt`: a new get, or the next round of one that waits for its client's answer to a server's question. */
export async function getTool(
  parts: ToolParts,
  input: PromptToolInput,
  ctx: ServerContext,
  capabilities: ClientCapabilities | undefined,
): Promise<CallToolResult> {
  const resumed = parts.runs.resume(ctx, capabilities);
  if (resumed) return toolResult(await resumed);
  let prompt: CatalogPrompt | undefined;
  try {
    const held = typeof input.server === 'string' && parts.held.find(h => h.name === input.server);
    if (held && !parts.catalog.server(input.server as string)) return failure(held.message);
    const request = await requestFromToolInput(parts.catalog, input);
    prompt = request.prompt;
    const preparation = await parts.runner.prepare(request, {});
    if (preparation.kind !== 'ready') throw preparation.kind === 'failed' ? preparation.error : new Error('Cancelled.');
    return toolResult(await parts.runs.start(preparation.prepared, ctx, capabilities));
  } catch (err) {
    return failure(`The prompt was not run: ${await explained(parts, err, prompt, input)}`);
  }
}

/** A round as the tool's result: the messages, the question for the client, or an error result. */
function toolResult(round: Round): CallToolResult {
  if (round.kind === 'ask') return round.result as unknown as CallToolResult;
  if (round.kind === 'refused') return failure(round.message);
  return outcomeResult(round.outcome);
}

function outcomeResult(outcome: RunOutcome): CallToolResult {
  if (outcome.kind === 'failed') return failure(`The prompt failed: ${messageOf(outcome.error)}`);
  if (outcome.kind === 'cancelled') return failure('Cancelled.');
  const { stored } = outcome;
  const source = { server: stored.result.prompt.server.def.name, prompt: stored.result.prompt.invocationName };
  const content = toolResultParts(stored.transcript, source, LABELS, undefined, true).map(p =>
    p.kind === 'text' ? { type: 'text' as const, text: p.text } : { type: p.kind, data: p.data, mimeType: p.mimeType },
  );
  return { content };
}

/** Why a get was refused, with what the agent needs to call again: the prompt's arguments, or the server's prompts. */
async function explained(
  parts: ToolParts,
  err: unknown,
  prompt: CatalogPrompt | undefined,
  input: PromptToolInput,
): Promise<string> {
  const message = messageOf(err);
  if (prompt) {
    const takes = argumentList(prompt) || 'none';
    return message.includes('(it takes:') ? message : `${message} (it takes: ${takes}; * marks a required one)`;
  }
  const entry = typeof input.server === 'string' ? parts.catalog.server(input.server) : undefined;
  if (!entry || !(err instanceof PromptError) || err.kind !== 'input') return message;
  await parts.catalog.ready(entry.id);
  const names = entry.prompts.map(p => p.shortName);
  const shown = names.slice(0, NAMES_SHOWN).join(', ') + (names.length > NAMES_SHOWN ? ', …' : '');
  return `${message} (its prompts: ${shown || 'none'})`;
}

function unknownServer(parts: ToolParts, name: string): string {
  const known = [...parts.catalog.servers.map(s => s.id), ...parts.held.map(h => h.name)];
  return `No MCP server "${labelText(name, 60)}" (the servers: ${known.join(', ') || 'none'})`;
}

function heldEntry(h: HeldServer): { server: string; reason: string } {
  return { server: labelText(h.name, 60), reason: labelText(h.message) };
}

/** An error as one bounded line (its message may carry a server's words). */
function messageOf(err: unknown): string {
  return labelText(err instanceof Error ? err.message : String(err), MESSAGE_CHARS);
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: labelText(message, MESSAGE_CHARS) }], isError: true };
}

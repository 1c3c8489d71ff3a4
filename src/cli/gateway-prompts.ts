// The gateway's prompts: every prompt of every server under one name (its own where no other prompt has it,
// else `server.prompt`), got on the one run path and completed by the server that owns it. A prompt is
// chosen by the person in their client, so its messages go back as the server sent them, except a part the
// extension would not show (bad image data, an unknown type), which becomes one line saying why.
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type CompleteResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ListPromptsResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Catalog, CatalogPrompt } from '../core/catalog/catalog.js';
import { labelText } from '../core/label.js';
import { toPart } from '../core/render/content.js';
import { argumentList, completeArgument } from '../core/run/invocation.js';
import type { PromptRunner, RunOutcome } from '../core/run/prompt-runner.js';
import { requestFromToolInput } from '../core/run/requests/tool-request.js';
import type { GatewayRuns } from './gateway-runs.js';

/** How long prompts/list waits for servers still starting before it answers with what is there. */
const LIST_WAIT_MS = 10_000;
const DESCRIPTION_CHARS = 1000;

export interface PromptParts {
  catalog: Catalog;
  runner: PromptRunner;
  runs: GatewayRuns;
}

/** Each prompt under its gateway name: its own where no other prompt has that name, else `server.prompt`. */
export function gatewayNames(prompts: readonly CatalogPrompt[]): Map<string, CatalogPrompt> {
  const count = new Map<string, number>();
  for (const p of prompts) count.set(p.prompt.name, (count.get(p.prompt.name) ?? 0) + 1);
  const taken = new Set(prompts.map(p => p.invocationName));
  const names = new Map<string, CatalogPrompt>();
  for (const p of prompts) {
    const own = p.prompt.name;
    const bare = count.get(own) === 1 && (!taken.has(own) || own === p.invocationName);
    names.set(bare ? own : p.invocationName, p);
  }
  return names;
}

/** prompts/list: the prompts of the servers that answered (waiting a while for those still starting). */
export async function listPrompts(catalog: Catalog): Promise<ListPromptsResult> {
  await Promise.race([catalog.ready(), new Promise(resolve => setTimeout(resolve, LIST_WAIT_MS).unref())]);
  return { prompts: promptList(catalog) };
}

/** The list as the gateway's client sees it; also what a list change is measured by. */
export function promptList(catalog: Catalog): ListPromptsResult['prompts'] {
  return [...gatewayNames(catalog.prompts)].map(([name, p]) => ({
    name,
    ...(p.prompt.title !== undefined && { title: labelText(p.prompt.title) }),
    ...(p.prompt.description !== undefined && { description: labelText(p.prompt.description, DESCRIPTION_CHARS) }),
    arguments: (p.prompt.arguments ?? []).map(a => ({
      name: a.name,
      ...(a.description !== undefined && { description: labelText(a.description, DESCRIPTION_CHARS) }),
      ...(a.required !== undefined && { required: a.required }),
    })),
  }));
}

/** The prompt a gateway name stands for; `server.prompt` and a unique bare name are understood too. */
async function promptNamed(catalog: Catalog, name: string): Promise<CatalogPrompt> {
  await catalog.ready();
  const named = gatewayNames(catalog.prompts).get(name);
  if (named) return named;
  try {
    return await catalog.findPrompt(name);
  } catch (err) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, messageOf(err));
  }
}

/** prompts/get: a new get, or the next round of one waiting for its client's answer to a server's question. */
export async function getPrompt(
  parts: PromptParts,
  params: { name: string; arguments?: Record<string, string> },
  ctx: ServerContext,
  capabilities: ClientCapabilities | undefined,
): Promise<GetPromptResult | InputRequiredResult> {
  const round =
    parts.runs.resume(ctx, capabilities) ?? parts.runs.start(await prepare(parts, params), ctx, capabilities);
  const done = await round;
  if (done.kind === 'ask') return done.result;
  if (done.kind === 'refused') throw new ProtocolError(ProtocolErrorCode.InvalidRequest, done.message);
  return sentMessages(done.outcome);
}

/** The get's arguments checked as the get tool's are; a refusal names the prompt and the arguments it takes. */
async function prepare(parts: PromptParts, params: { name: string; arguments?: Record<string, string> }) {
  const prompt = await promptNamed(parts.catalog, params.name);
  try {
    const request = await requestFromToolInput(parts.catalog, {
      server: prompt.server.id,
      prompt: prompt.shortName,
      arguments: params.arguments,
    });
    const preparation = await parts.runner.prepare(request, {});
    if (preparation.kind === 'ready') return preparation.prepared;
    throw preparation.kind === 'failed' ? preparation.error : new Error('Cancelled.');
  } catch (err) {
    const message = messageOf(err);
    const takes = `(it takes: ${argumentList(prompt) || 'none'}; * marks a required one)`;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      message.includes('(it takes:') ? message : `${message} ${takes}`,
    );
  }
}

/** The result as the server sent it, a part the extension would refuse replaced by why. */
function sentMessages(outcome: RunOutcome): GetPromptResult {
  if (outcome.kind === 'failed')
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The prompt failed: ${messageOf(outcome.error)}`);
  if (outcome.kind === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InternalError, 'Cancelled.');
  const sent = outcome.stored.result.result;
  const messages = (sent.messages ?? []).map(raw => {
    const m = raw as { role: 'user' | 'assistant'; content: unknown };
    const part = toPart(m.content);
    return part.kind === 'invalid'
      ? { role: m.role, content: { type: 'text' as const, text: `[Not shown: ${part.reason}]` } }
      : m;
  });
  return {
    ...(typeof sent.description === 'string' && { description: sent.description }),
    messages,
  } as GetPromptResult;
}

/** completion/complete for a prompt's argument, asked of the server that owns it; nothing for anything else. */
export async function completePrompt(
  catalog: Catalog,
  params: {
    ref: { type: string; name?: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  },
  signal: AbortSignal,
): Promise<CompleteResult> {
  const none = { completion: { values: [] } };
  if (params.ref.type !== 'ref/prompt' || typeof params.ref.name !== 'string') return none;
  const prompt = await promptNamed(catalog, params.ref.name);
  if (!(prompt.prompt.arguments ?? []).some(a => a.name === params.argument.name)) return none;
  const result = await completeArgument(
    prompt,
    params.argument.name,
    params.argument.value,
    params.context?.arguments ?? {},
    signal,
    { questions: false },
  );
  return {
    completion: {
      values: result.values,
      ...(result.total !== undefined && { total: result.total }),
      ...(result.hasMore !== undefined && { hasMore: result.hasMore }),
    },
  };
}

function messageOf(err: unknown): string {
  return labelText(err instanceof Error ? err.message : String(err), 1000);
}

// The requests a prompts client makes (list, get, complete, read) as they go on the wire, and their
// answers parsed leniently: one malformed item must not cost the whole answer (callers check per item).
import * as l10n from '@vscode/l10n';
import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod/v4';

/** Suggestions kept from one completion answer (the spec's maximum). */
const MAX_COMPLETIONS = 100;

export const LooseListResult = z.looseObject({
  prompts: z.array(z.unknown()).optional(),
  nextCursor: z.string().optional(),
});
export const LooseGetResult = z.looseObject({
  description: z.string().optional(),
  messages: z.array(z.unknown()).optional(),
});
export const LooseCompleteResult = z.looseObject({
  completion: z.looseObject({
    values: z.array(z.unknown()),
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  }),
});
export const LooseReadResult = z.looseObject({ contents: z.array(z.unknown()) });

export type RawListResult = z.infer<typeof LooseListResult>;
export type RawGetResult = z.infer<typeof LooseGetResult>;
export type RawCompleteResult = z.infer<typeof LooseCompleteResult>;
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What the connection hands a request when it goes out: the tracked signal, and the SDK's own timeout (ours decides). */
export interface SendOptions {
  signal: AbortSignal;
  timeout: number;
}

/** One request of ours: what it is on the wire, how it is sent and read, and its name in messages. */
export interface PromptRequest<T> {
  method: string;
  params: Record<string, unknown>;
  /** Sends it on `client` and reads the answer (one request, or a walk of them the SDK drives). */
  send: (client: Client, options: SendOptions) => Promise<T>;
  /** `prompt "review"`, for messages; built only when one is needed. */
  what: () => string;
}

/** A plain request whose answer is read with `schema`. */
function wire<T>(method: string, params: Record<string, unknown>, schema: z.ZodType<T>, what: () => string) {
  const send = (client: Client, options: SendOptions) => client.request({ method, params }, schema, options);
  return { method, params, send, what } satisfies PromptRequest<T>;
}

export function list(cursor: string | undefined): PromptRequest<RawListResult> {
  return wire('prompts/list', cursor === undefined ? {} : { cursor }, LooseListResult, () => l10n.t('listing prompts'));
}

export function get(name: string, args: Record<string, string>): PromptRequest<RawGetResult> {
  return wire('prompts/get', { name, arguments: args }, LooseGetResult, () => l10n.t('prompt "{0}"', name));
}

export function complete(
  prompt: string,
  argument: string,
  value: string,
  context: Record<string, string>,
): PromptRequest<RawCompleteResult> {
  const params = {
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name: argument, value },
    ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
  };
  return wire('completion/complete', params, LooseCompleteResult, () => l10n.t('completion of "{0}"', argument));
}

export function read(uri: string): PromptRequest<z.infer<typeof LooseReadResult>> {
  return wire('resources/read', { uri }, LooseReadResult, () => l10n.t('reading {0}', uri));
}

/** The answer of a server without the completions capability: nothing is sent. */
export const NO_COMPLETIONS: RawCompleteResult = { completion: { values: [] } };

/** The string suggestions of an answer, at most MAX_COMPLETIONS; values we cut count as more to come. */
export function completionOf(result: RawCompleteResult): CompletionResult {
  const all = result.completion.values.filter((v): v is string => typeof v === 'string');
  return {
    values: all.slice(0, MAX_COMPLETIONS),
    total: result.completion.total,
    hasMore: all.length > MAX_COMPLETIONS ? true : result.completion.hasMore,
  };
}

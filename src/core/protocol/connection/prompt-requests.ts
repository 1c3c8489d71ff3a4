// The requests a prompts client makes (list, get, complete, read) as they go on the wire, and their
// answers parsed leniently: one malformed item must not cost the whole answer (callers check per item).
// The SDK checks each answer against the schema it is given; ours look only at the envelope and hand
// the server's object on as it is, since the items are checked (and copied) once, by their callers.
import * as l10n from '@vscode/l10n';
import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';

/** Suggestions kept from one completion answer (the spec's maximum). */
const MAX_COMPLETIONS = 100;

export interface RawListResult {
  prompts?: unknown[];
  nextCursor?: string;
  [key: string]: unknown;
}
export interface RawGetResult {
  description?: string;
  messages?: unknown[];
  [key: string]: unknown;
}
export interface RawCompleteResult {
  completion: { values: unknown[]; total?: number; hasMore?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}
export interface RawReadResult {
  contents: unknown[];
  [key: string]: unknown;
}

type Fields = Record<string, unknown>;
/** What a field must be; `?` marks one that may be absent. */
interface Shape {
  [key: string]: 'array' | 'array?' | 'string?' | 'number?' | 'boolean?' | Shape;
}

/** The JSON type of a value, as an issue names it. */
function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** The first field of `value` that breaks `shape`, as an issue (path and message), or undefined. */
function checkShape(value: Fields, shape: Shape, path: string[] = []): StandardSchemaV1.Issue | undefined {
  for (const [key, want] of Object.entries(shape)) {
    const v = value[key];
    if (typeof want === 'object') {
      if (typeOf(v) !== 'object') return issue([...path, key], 'object', v);
      const inner = checkShape(v as Fields, want, [...path, key]);
      if (inner) return inner;
      continue;
    }
    const optional = want.endsWith('?');
    const type = optional ? want.slice(0, -1) : want;
    if (v === undefined && optional) continue;
    if (typeOf(v) !== type) return issue([...path, key], type, v);
  }
  return undefined;
}

function issue(path: string[], expected: string, received: unknown): StandardSchemaV1.Issue {
  return { path, message: `Invalid input: expected ${expected}, received ${typeOf(received)}` };
}

/** A Standard Schema that checks the envelope against `shape` and passes the object on uncopied. */
function envelope<T>(shape: Shape): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-prompts',
      validate: value => {
        const problem = typeOf(value) === 'object' ? checkShape(value as Fields, shape) : issue([], 'object', value);
        return problem ? { issues: [problem] } : { value: value as T };
      },
    },
  };
}

export const LooseListResult = envelope<RawListResult>({ prompts: 'array?', nextCursor: 'string?' });
export const LooseGetResult = envelope<RawGetResult>({ description: 'string?', messages: 'array?' });
export const LooseCompleteResult = envelope<RawCompleteResult>({
  completion: { values: 'array', total: 'number?', hasMore: 'boolean?' },
});
export const LooseReadResult = envelope<RawReadResult>({ contents: 'array' });

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
  /** The answer without asking, when the server has nothing to say to it (no such capability). */
  local?: (client: Client) => T | undefined;
}

/** A plain request whose answer's envelope is checked with `schema`. */
function wire<T>(
  method: string,
  params: Record<string, unknown>,
  schema: StandardSchemaV1<unknown, T>,
  what: () => string,
): PromptRequest<T> {
  const send = (client: Client, options: SendOptions) => client.request({ method, params }, schema, options);
  return { method, params, send, what };
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
  const request = wire('completion/complete', params, LooseCompleteResult, () =>
    l10n.t('completion of "{0}"', argument),
  );
  // A server without the completions capability is asked nothing.
  return { ...request, local: client => (client.getServerCapabilities()?.completions ? undefined : NO_COMPLETIONS) };
}

export function read(uri: string): PromptRequest<RawReadResult> {
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

// A prompt bound to a key: the `args` of a keybindings.json entry for mcpPrompts.runPrompt (or Run in
// Editor), `{ "server": "…", "prompt": "…", "arguments": { … }, "target": "chat" | "editor" }`. The
// object comes from a file the user edits by hand: it is checked here, once, into a PromptBinding or
// one sentence naming what is wrong; then the binding is looked up in the servers as they are now.
import * as l10n from '@vscode/l10n';
import type { Catalog, CatalogPrompt, ServerEntry } from '../../catalog/catalog.js';
import type { HeldEntry } from '../../config/server-merge.js';
import { labelText } from '../../label.js';
import type { Where } from '../destination.js';
import { argumentList } from '../invocation.js';

export interface PromptBinding {
  /** The server's name as configured (or its id, the `server` of `/server.prompt`). */
  server: string;
  /** The prompt's name as the server lists it (or its short name). */
  prompt: string;
  arguments: Record<string, string>;
  target?: 'chat' | 'editor';
}

const FIELDS = ['server', 'prompt', 'arguments', 'target'];
const MAX_NAME_CHARS = 1000;
const MAX_ARGUMENTS = 100;
/** A value typed into keybindings.json; a longer one is not a key binding's business. */
const MAX_VALUE_CHARS = 100_000;

/** What a keybinding's `args` hold, checked; `problem`: one sentence saying what is wrong. */
export function parsePromptBinding(value: unknown): { binding: PromptBinding } | { problem: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return problem(l10n.t('"args" must be an object such as {0}', '{ "server": "…", "prompt": "…" }'));
  const v = value as Record<string, unknown>;
  const unknown = Object.keys(v).filter(k => !FIELDS.includes(k));
  if (unknown.length)
    return problem(
      l10n.t(
        '"args" has fields MCP Prompts does not know: {0} (it reads {1})',
        unknown.map(k => labelText(k, 100)).join(', '),
        FIELDS.join(', '),
      ),
    );
  for (const field of ['server', 'prompt'] as const) {
    const text = v[field];
    if (text === undefined) return problem(l10n.t('"args" needs "{0}"', field));
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_NAME_CHARS)
      return problem(l10n.t('"args.{0}" must be a name (text), not {1}', field, describe(text)));
  }
  const args = parseArguments(v.arguments);
  if ('problem' in args) return args;
  const target = v.target;
  if (target !== undefined && target !== 'chat' && target !== 'editor')
    return problem(l10n.t('"args.target" must be "chat" or "editor", not {0}', describe(target)));
  return {
    binding: {
      server: v.server as string,
      prompt: v.prompt as string,
      arguments: args.values,
      ...(target ? { target } : {}),
    },
  };
}

function parseArguments(value: unknown): { values: Record<string, string> } | { problem: string } {
  if (value === undefined) return { values: {} };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return problem(l10n.t('"args.arguments" must be an object of names and texts, not {0}', describe(value)));
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ARGUMENTS)
    return problem(l10n.t('"args.arguments" has {0} entries; at most {1} are read', entries.length, MAX_ARGUMENTS));
  for (const [name, text] of entries) {
    if (typeof text !== 'string' || text.length > MAX_VALUE_CHARS)
      return problem(l10n.t('"args.arguments.{0}" must be text, not {1}', labelText(name, 100), describe(text)));
  }
  return { values: Object.fromEntries(entries) as Record<string, string> };
}

/** A JSON value named for a person: `a number`, `an object`, `a text of 200000 characters`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return l10n.t('a list');
  switch (typeof value) {
    case 'string':
      return value.trim() ? l10n.t('a text of {0} characters', value.length) : l10n.t('an empty text');
    case 'number':
      return l10n.t('a number');
    case 'boolean':
      return l10n.t('true or false');
    case 'object':
      return l10n.t('an object');
    default:
      return typeof value;
  }
}

function problem(message: string): { problem: string } {
  return { problem: l10n.t('MCP Prompts keybinding: {0}.', message) };
}

/** A binding looked up: the run it asks for, or why there is none (with the held server, whose way out helps). */
export type BindingLookup =
  { prompt: CatalogPrompt; values: Record<string, string>; where: Where } | { problem: string; held?: HeldEntry };

/**
 * The prompt a binding names, as the servers offer it now: a server still listing is waited for, so a
 * binding pressed just after the window opened does not say "unknown". `where`: the command's own place
 * (Run in Editor: `editor`), which a binding's `target` may not contradict.
 */
export async function lookUpBinding(
  binding: PromptBinding,
  catalog: Pick<Catalog, 'servers' | 'ready'>,
  held: readonly HeldEntry[],
  where: Where,
): Promise<BindingLookup> {
  if (where === 'editor' && binding.target === 'chat')
    return problem(l10n.t('"args.target" is "chat", but Run in Editor always shows the result in the editor'));
  const entry = findServer(catalog.servers, binding.server);
  if (!entry) {
    const h = held.find(x => x.def.name === binding.server || x.def.id === binding.server);
    if (h) return { ...problem(labelText(h.message, 1000)), held: h };
    return problem(l10n.t('no server "{0}" is configured', labelText(binding.server, 200)));
  }
  await catalog.ready(entry.id);
  const prompt = findPrompt(entry, binding.prompt);
  const server = labelText(entry.def.name);
  if (!prompt) {
    return entry.listError && !entry.prompts.length
      ? problem(l10n.t('{0} could not list its prompts: {1}', server, labelText(entry.listError.message, 500)))
      : problem(l10n.t('{0} offers no prompt "{1}"', server, labelText(binding.prompt, 200)));
  }
  const declared = prompt.prompt.arguments ?? [];
  const unknown = Object.keys(binding.arguments).filter(k => !declared.some(a => a.name === k));
  if (unknown.length)
    return problem(
      l10n.t(
        'the prompt "{0}" of {1} has no argument {2} (it takes: {3})',
        labelText(prompt.prompt.name, 200),
        server,
        unknown.map(k => labelText(k, 100)).join(', '),
        labelText(argumentList(prompt)) || l10n.t('none'),
      ),
    );
  return { prompt, values: binding.arguments, where: binding.target ?? where };
}

function findServer(servers: readonly ServerEntry[], name: string): ServerEntry | undefined {
  return servers.find(s => s.def.name === name) ?? servers.find(s => s.id === name);
}

function findPrompt(entry: ServerEntry, name: string): CatalogPrompt | undefined {
  return entry.prompts.find(p => p.prompt.name === name) ?? entry.prompts.find(p => p.shortName === name);
}

/** The keybindings.json entry that runs `prompt` with `args` (a person adds the key). */
export function bindingEntry(
  prompt: CatalogPrompt,
  args: Record<string, string> | undefined,
  command: string,
): { key: string; command: string; args: PromptBinding } {
  return {
    key: '',
    command,
    args: {
      server: prompt.server.def.name,
      prompt: prompt.prompt.name,
      arguments: args ?? {},
    },
  };
}

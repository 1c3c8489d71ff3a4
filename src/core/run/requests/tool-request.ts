// The agent's get tool names a prompt and its arguments as JSON the model wrote: this turns that input
// into the one RunRequest every surface builds, or one message that names the server, the prompt and
// what is wrong. The prompt may come as `server.prompt`, as its name alone when one server has it, or
// with its server apart: what an agent that has only the prompt's name or the listing's fields sends. The model's input is checked like a typed line: the server and prompt must exist in the
// catalog (a server held back by trust or consent is not there), every argument must be one the prompt
// declares, and the values are bounded as a chat reference's are.
import * as l10n from '@vscode/l10n';
import type { Catalog, CatalogPrompt, ServerEntry } from '../../catalog/catalog.js';
import { PromptError } from '../../errors.js';
import { labelText } from '../../label.js';
import { unknownArguments, type RunRequest } from '../invocation.js';
import { formatSize, MAX_SOURCE_BYTES } from './value-sources.js';

/** The get tool's input (package.json `inputSchema`), before it is checked. */
export interface PromptToolInput {
  server?: unknown;
  prompt?: unknown;
  arguments?: unknown;
}

/**
 * The prompt the model named: `server.prompt` or a prompt's name alone when one server has it (what an
 * agent sends that has only the prompt's name), or the server and the prompt apart (the listing's fields;
 * a prompt that repeats the server, `demo` and `demo.review`, is taken once).
 */
async function promptNamed(catalog: Catalog, server: unknown, prompt: string): Promise<CatalogPrompt> {
  if (server === undefined || server === null || server === '') return catalog.findPrompt(prompt);
  if (!isName(server))
    throw new PromptError(l10n.t('Name the server and the prompt, as the list of MCP prompts gives them.'), 'input');
  const entry = serverNamed(catalog, server);
  const repeated = prompt.startsWith(`${entry.id}.`) && !entry.prompts.some(p => p.prompt.name === prompt);
  return catalog.findPrompt(`${entry.id}.${repeated ? prompt.slice(entry.id.length + 1) : prompt}`);
}

/** The server and the prompt the model named, the values it gave: one RunRequest, or a PromptError saying why not. */
export async function requestFromToolInput(catalog: Catalog, input: PromptToolInput): Promise<RunRequest> {
  return requestFor(await promptOfToolInput(catalog, input), input);
}

/** The prompt the model named, or a PromptError saying why there is none. */
export function promptOfToolInput(catalog: Catalog, input: PromptToolInput): Promise<CatalogPrompt> {
  const { server, prompt } = input ?? {};
  if (!isName(prompt))
    throw new PromptError(l10n.t('Name the server and the prompt, as the list of MCP prompts gives them.'), 'input');
  return promptNamed(catalog, server, prompt);
}

/** The values the model gave for `target`, checked: one RunRequest, or a PromptError saying why not. */
export function requestFor(target: CatalogPrompt, input: PromptToolInput): RunRequest {
  const values = argumentValues(input.arguments, target.server.def.name, target.prompt.name);
  const declared = new Set((target.prompt.arguments ?? []).map(a => a.name));
  const unknown = Object.keys(values).filter(name => !declared.has(name));
  if (unknown.length)
    throw unknownArguments(
      target,
      unknown.map(name => labelText(name, 60)),
    );
  return { prompt: target, values };
}

/** The server the model named, by its id or the name the user gave it; a PromptError listing the servers when none is. */
export function serverNamed(catalog: Catalog, name: string): ServerEntry {
  const entry = catalog.server(name) ?? catalog.servers.find(e => e.def.name === name);
  if (entry) return entry;
  const known = catalog.servers.map(e => e.id).join(', ') || l10n.t('none');
  throw new PromptError(l10n.t('No MCP server "{0}" (the servers: {1})', labelText(name, 60), known), 'input');
}

/** Names are at most this long: longer ones name nothing in the catalog and would only fill the message. */
const MAX_NAME_CHARS = 1000;

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_CHARS;
}

/** The arguments object as text values: numbers and booleans as written, nothing else but text; bounded in all. */
function argumentValues(args: unknown, server: string, prompt: string): Record<string, string> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args))
    throw new PromptError(
      l10n.t('{0}: the arguments of prompt "{1}" must be an object of names and values', server, prompt),
      'input',
      server,
    );
  const values: Record<string, string> = {};
  let bytes = 0;
  for (const [name, value] of Object.entries(args as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      throw new PromptError(
        l10n.t('{0}: argument {1} of prompt "{2}" must be text', server, labelText(name, 60), prompt),
        'input',
        server,
      );
    values[name] = String(value);
    bytes += Buffer.byteLength(values[name]);
  }
  if (bytes > MAX_SOURCE_BYTES)
    throw new PromptError(
      l10n.t(
        '{0}: the arguments of prompt "{1}" are {2}, more than the limit of {3}',
        server,
        prompt,
        formatSize(bytes),
        formatSize(MAX_SOURCE_BYTES),
      ),
      'input',
      server,
    );
  return values;
}

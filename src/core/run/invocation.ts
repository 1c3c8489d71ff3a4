// The invocation line as people read and write it: `server.prompt name=value "positional value"`.
// parseInvocation() reads it where a person typed it (the chat input); formatInvocation() writes it
// where a person will read or send it (Repeat, Try Again, a hand-off to chat); bindArguments() maps
// what was typed onto a prompt's arguments. Inside the program a run is a structured value (RunRequest).
import * as l10n from '@vscode/l10n';
import type { PromptArgument } from '@modelcontextprotocol/client';
import type { Catalog, CatalogPrompt } from '../catalog/catalog.js';
import type { CompletionResult, RawGetResult } from '../protocol/connection/connection.js';
import { PromptError } from '../errors.js';

export interface ParsedInvocation {
  name: string;
  named: Record<string, string>;
  positional: Token[];
  /** The text after the name, untouched (the last positional argument may take it verbatim). */
  rest: string;
}

export interface Token {
  value: string;
  start: number;
  end: number;
  quoted: boolean;
}

/** Splits `name args...`; a leading `/` is ignored. Returns undefined for an empty line. */
export function parseInvocation(line: string): ParsedInvocation | undefined {
  const text = line.replace(/^\s*\/?/, '');
  const m = /^(\S+)/.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m[0].length).replace(/^\s+/, '');
  const named: Record<string, string> = {};
  const positional: Token[] = [];
  for (const token of tokenize(rest)) {
    const kv = token.raw.includes('=') ? (token.quoted ? QUOTED_NAME : BARE_NAME).exec(token.raw) : null;
    if (kv) named[token.quoted ? unquote(kv[1]) : kv[1]] = unquote(kv[2]);
    else
      positional.push({
        value: token.quoted ? unquote(token.raw) : token.raw,
        start: token.start,
        end: token.start + token.raw.length,
        quoted: token.quoted,
      });
  }
  return { name: m[1], named, positional, rest };
}

interface RawToken {
  raw: string;
  start: number;
  quoted: boolean;
}

/**
 * One word: runs of plain characters and quoted parts ("..." with `\"` escapes, or '...'); an unclosed
 * quote runs to the end. One regex instead of a loop per character: it is as fast on the first call.
 */
const TOKEN = /(?:[^\s"']|"(?:[^"\\]|\\[\s\S]|\\$)*(?:"|$)|'[^']*(?:'|$))+/g;

/** Whitespace-separated tokens; quotes group, `\"` escapes inside double quotes. */
export function tokenize(text: string): RawToken[] {
  const out: RawToken[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text))
    out.push({ raw: m[0], start: m.index, quoted: m[0][0] === '"' || m[0][0] === "'" });
  return out;
}

/**
 * An argument name without quotes: a letter (any script) or `_`, then letters, marks, digits, `_`, `.`, `-`.
 * Other names are written in double quotes (`"my name"=value`); `1+1=2` stays a positional value.
 */
const BARE_NAME = /^([\p{L}_][\p{L}\p{M}\p{N}_.-]*)=([\s\S]*)$/u;
const NAME = /^[\p{L}_][\p{L}\p{M}\p{N}_.-]*$/u;
const QUOTED_NAME = /^("(?:[^"\\]|\\[\s\S])*")=([\s\S]*)$/;

/**
 * Inside double quotes a backslash is literal unless a run of backslashes ends at a quote (the rule of
 * Windows command lines): 2n backslashes + `"` are n backslashes and the closing quote, 2n+1 are n
 * backslashes and a literal `"`. So `"C:\new folder"` keeps its backslash and every string round-trips.
 */
function unquote(value: string): string {
  if (value.length >= 2 && value[0] === '"' && value.endsWith('"') && closesAtEnd(value)) {
    const inner = value.slice(1, -1);
    return inner.includes('\\')
      ? inner.replace(
          /(\\+)("|$)/g,
          (_m, run: string, end: string) => '\\'.repeat(run.length >> 1) + (run.length % 2 ? '"' : end && '"'),
        )
      : inner;
  }
  if (value.length >= 2 && value[0] === "'" && value.endsWith("'")) return value.slice(1, -1);
  return value;
}

/** The last `"` of a double-quoted token closes it (it is not escaped by an odd run of backslashes). */
function closesAtEnd(value: string): boolean {
  let run = 0;
  for (let i = value.length - 2; i > 0 && value[i] === '\\'; i--) run++;
  return run % 2 === 0;
}

/**
 * `server.prompt name=value …`: the line every surface types for a re-run, a retry or the picker's
 * hand-off to chat. parseInvocation() reads back exactly these names and values, whatever they hold.
 */
export function formatInvocation(name: string, args: Record<string, string>): string {
  const parts = Object.entries(args).map(([k, v]) => `${formatName(k)}=${formatValue(v)}`);
  return [name, ...parts].join(' ');
}

/** An argument's name as a chat line writes it: bare when it is a plain word, else double-quoted. */
export function formatName(name: string): string {
  return NAME.test(name) ? name : quote(name);
}

/**
 * One value as every writer of a chat line writes it (invocation lines, chat-input completion): bare only
 * when it reads back as itself and nothing else. A value that starts with `#` is quoted: bare, chat would
 * read it as a reference (`#file:…`, `#selection`) and send that file instead of the words.
 */
export function formatValue(value: string): string {
  return /^[^\s"'#][^\s"']*$/.test(value) ? value : quote(value);
}

/** Double quotes; backslashes doubled only where they end at a quote, as unquote() reads them. */
function quote(value: string): string {
  return `"${value.replace(/(\\*)("|$)/g, (_m, run: string, q: string) => run + run + (q ? '\\"' : ''))}"`;
}

export interface BoundArguments {
  values: Record<string, string>;
  /** Required arguments still without a value. */
  missing: PromptArgument[];
  /** Named arguments the prompt does not declare. */
  unknown: string[];
}

/**
 * Maps parsed values onto the prompt's arguments. Positional values fill the arguments not given by
 * name, in order; when there are more words than arguments, the last one takes the rest of the line
 * verbatim (so `/review def f(): pass` gives `code` the whole snippet).
 */
export function bindArguments(
  args: readonly PromptArgument[] | undefined,
  parsed: Pick<ParsedInvocation, 'named' | 'positional' | 'rest'>,
): BoundArguments {
  const declared = args ?? [];
  const values: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(parsed.named)) {
    if (declared.some(a => a.name === k)) values[k] = v;
    else unknown.push(k);
  }
  const open = declared.filter(a => !(a.name in values));
  parsed.positional.forEach((token, i) => {
    if (i < open.length - 1 || (i === open.length - 1 && i === parsed.positional.length - 1)) {
      values[open[i].name] = token.value;
    } else if (i === open.length - 1) {
      values[open[i].name] = parsed.rest.slice(token.start, parsed.positional[parsed.positional.length - 1].end);
    }
  });
  if (open.length === 0 && parsed.positional.length) unknown.push(...parsed.positional.map(t => t.value));
  const missing = declared.filter(a => a.required && !values[a.name]);
  return { values, missing, unknown };
}

/** One run a person asked for: built once where they asked (chat, picker, tree, CLI) and passed on as it is. */
export interface RunRequest {
  prompt: CatalogPrompt;
  /** Values given so far, by argument name. */
  values: Record<string, string>;
  /** The given values that came from a chat reference or an editor source: kept out of the argument history. */
  sourced?: readonly string[];
}

/**
 * A parsed line's values on the prompt it names: by name, or by position in the prompt's argument
 * order. A name the prompt does not declare is an error, not something the server ignores.
 */
export function bindRequest(prompt: CatalogPrompt, parsed: ParsedInvocation): RunRequest {
  const bound = bindArguments(prompt.prompt.arguments, parsed);
  if (bound.unknown.length) throw unknownArguments(prompt, bound.unknown);
  return { prompt, values: bound.values };
}

/** A typed line (`server.prompt a=1 "two words"`) as a run request. */
export function requestFromLine(catalog: Catalog, line: string): Promise<RunRequest> {
  const parsed = parseInvocation(line);
  if (!parsed) return Promise.reject(new PromptError(l10n.t('Name a prompt, e.g. server.prompt'), 'input'));
  return catalog.findPrompt(parsed.name).then(prompt => bindRequest(prompt, parsed));
}

/** What a prompts/get answered, with the prompt and the arguments it was asked with. */
export interface InvokeResult {
  prompt: CatalogPrompt;
  args: Record<string, string>;
  result: RawGetResult;
}

/** `Rich Demo: prompt "code_review" has no argument colour (it takes: code*, language)`. */
export function unknownArguments(target: CatalogPrompt, names: readonly string[]): PromptError {
  const takes = argumentList(target) || l10n.t('none');
  return new PromptError(
    l10n.t(
      '{0}: prompt "{1}" has no argument {2} (it takes: {3})',
      target.server.def.name,
      target.prompt.name,
      names.join(', '),
      takes,
    ),
    'input',
    target.server.def.name,
  );
}

export function missingArguments(target: CatalogPrompt, values: Record<string, string>): PromptArgument[] {
  return (target.prompt.arguments ?? []).filter(a => a.required && !values[a.name]);
}

/** `code*, language`: the arguments, required ones starred (the CLI's list joins them with spaces). */
export function argumentList(target: Pick<CatalogPrompt, 'prompt'>, separator = ', '): string {
  return (target.prompt.arguments ?? []).map(a => (a.required ? `${a.name}*` : a.name)).join(separator);
}

/** `completion/complete` with the other values already given as context; `questions: false` where no question may show. */
export function completeArgument(
  target: CatalogPrompt,
  argument: string,
  prefix: string,
  values: Record<string, string>,
  signal?: AbortSignal,
  options: { questions?: false } = {},
): Promise<CompletionResult> {
  const context = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== argument && v !== ''));
  return target.server.connection.complete(target.prompt.name, argument, prefix, context, { signal, ...options });
}

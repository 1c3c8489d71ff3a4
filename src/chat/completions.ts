// Completion in the chat input after `@mcp /`: prompt names (and our own `/list`, `/help`), then `key=`
// argument names, then values from the server's completion/complete with the arguments typed so far as
// context. A fully typed line must send on one Enter, so no list may hold a row Enter would take:
// - names are offered by prefix, and a name typed in full gets no list when we are asked;
// - VS Code refilters the list it has (fuzzily) on each later keystroke without asking us again, so a
//   name's row inserts exactly the name: the chat input's `acceptSuggestionOnEnter: "smart"` then lets
//   Enter through when the focused row would insert just what is typed, and that row is the focused one
//   (an exact match outranks every fuzzy or longer match in VS Code's scoring).
// - the list of names is bounded (pinned and recent prompts first): with 10,000 prompts VS Code gets a
//   few hundred rows, marked incomplete, and asks again as the user types. While more names start with
//   the typed word than the bound, VS Code shows the last answer until the next one arrives, and Enter
//   in that gap would take its focused row: each answer is a binary search and a few hundred items, so
//   the gap is a round trip; once the names that match fit, the list is complete and VS Code filters it.
import * as vscode from 'vscode';
import { argumentList, completeArgument, parseInvocation } from '../core/run/invocation';
import { BUILT_IN_WORDS, SlashNames, slashNamesOf, type SlashName } from '../core/view/name-completion';
import { promptGroups, type UsageLists } from '../core/view/prompt-groups';
import { slashName } from '../core/view/names';
import type { Catalog, CatalogPrompt } from '../core/catalog/catalog';
import type { CatalogSkill } from '../core/catalog/skills';
import { whenQuiet } from '../core/events';
import { nameSuggestion, valueSuggestion } from '../core/view/suggestions';
import { labelText } from '../core/label';

const CHAT_INPUT_SCHEME = 'chatSessionInput';
/** A server's description beside a suggestion: one line, room for a paragraph. */
const MAX_DOCUMENTATION_CHARS = 1000;
/** Names in one answer: about what 100 prompts give (short and long names), whatever the catalog holds. */
const MAX_NAMES_OFFERED = 200;

/** `usage`: the pinned and recent prompts, offered first. */
export function registerChatCompletions(catalog: Catalog, usage?: UsageLists): vscode.Disposable {
  const provider = new ChatCompletionProvider(catalog, usage);
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider({ scheme: CHAT_INPUT_SCHEME }, provider, '/', '.', ' ', '='),
    // The names are sorted once the lists settle, not when the person types `/` (20,000 names: ~20 ms).
    whenQuiet(catalog.onDidChange, SETTLE_MS, () => provider.prepare()),
  );
}

/** How long the catalog stays unchanged before the names are sorted ahead of use. */
const SETTLE_MS = 500;

/** The participant's own words (BUILT_IN_WORDS), handled in `handle()` before any prompt name. */
const BUILT_IN_DESCRIPTIONS: Record<(typeof BUILT_IN_WORDS)[number], () => string> = {
  list: () => vscode.l10n.t('List every prompt of every MCP server'),
  help: () => vscode.l10n.t('How to run MCP prompts'),
};

export class ChatCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly catalog: Catalog,
    private readonly usage?: UsageLists,
  ) {}

  async provideCompletionItems(
    doc: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.CompletionItem[] | vscode.CompletionList | undefined> {
    const before = doc.getText(new vscode.Range(new vscode.Position(0, 0), position));
    const m = /^\s*@mcp\s+\/(\S*)$/.exec(before);
    if (m) return this.promptNames(m[1], position);
    const call = /^\s*@mcp\s+\/(\S+)\s([\s\S]*)$/.exec(before);
    if (!call) return undefined;
    const found = this.catalog.resolve(call[1]);
    if ('error' in found) return undefined;
    const target = found.prompt;
    const parsed = parseInvocation(`${call[1]} ${call[2]}`);
    const current = /(\S*)$/.exec(call[2])![1];
    const given = parsed?.named ?? {};
    const eq = current.indexOf('=');
    if (eq < 0) return argumentNames(target, given, current, position);
    return argumentValues(target, given, current.slice(0, eq), current.slice(eq + 1), position, token);
  }

  private promptNames(typed: string, position: vscode.Position): vscode.CompletionList {
    const range = new vscode.Range(position.translate(0, -typed.length - 1), position);
    const offered = this.names().complete(typed, this.preferred(), MAX_NAMES_OFFERED);
    const items = offered.names.map((name, rank) => {
      const item = nameItem(name, rank < offered.preferred ? rank : undefined, this.pinnedSet);
      // Exactly the name (no trailing space, no filter text of its own): see the head of this file.
      item.insertText = `/${name.name}`;
      item.range = range;
      return item;
    });
    return new vscode.CompletionList(items, !offered.complete);
  }

  private cache?: { lists: readonly (readonly (CatalogPrompt | CatalogSkill)[])[]; names: SlashNames };
  private pinnedSet = new Set<CatalogPrompt>();

  /** Sorts the names ahead of the next `/` (called when the catalog has settled). */
  prepare(): void {
    this.names();
  }

  /** Every name, sorted once per change of any server's prompts or skills (not per keystroke). */
  private names(): SlashNames {
    const servers = this.catalog.servers;
    const lists = servers.flatMap(s => [s.prompts, s.skills]);
    const last = this.cache;
    if (last && last.lists.length === lists.length && last.lists.every((l, i) => l === lists[i])) return last.names;
    const names = new SlashNames(
      slashNamesOf(
        servers.flatMap(s => s.prompts),
        servers.flatMap(s => s.skills),
      ),
    );
    this.cache = { lists, names };
    return names;
  }

  /** Pinned prompts, then recent ones, by the name a person types for them: offered first. */
  private preferred(): SlashName[] {
    if (!this.usage) return [];
    const groups = promptGroups(this.catalog.servers, [], this.usage);
    this.pinnedSet = new Set(groups.pinned.flatMap(p => ('prompt' in p ? [p.prompt] : [])));
    const prompts = [...this.pinnedSet, ...groups.recent.map(r => r.prompt)];
    return prompts.map(p => ({ name: slashName(p), prompt: p }));
  }
}

/** The row of one name: the participant's own words, then pinned, recent, and every other prompt. */
function nameItem(
  name: SlashName,
  rank: number | undefined,
  pinned: ReadonlySet<CatalogPrompt>,
): vscode.CompletionItem {
  if (name.builtIn !== undefined) {
    const item = new vscode.CompletionItem(
      { label: `/${name.name}`, description: BUILT_IN_DESCRIPTIONS[BUILT_IN_WORDS[name.builtIn]]() },
      vscode.CompletionItemKind.Keyword,
    );
    item.sortText = `2 ${name.builtIn}`;
    return item;
  }
  if (name.skill) return skillItem(name.skill, name.name);
  const p = name.prompt!;
  const text = promptText(p);
  const item = new vscode.CompletionItem(
    { label: `/${name.name}`, description: text.description },
    vscode.CompletionItemKind.Function,
  );
  item.detail = pinned.has(p) ? vscode.l10n.t('{0} · pinned', text.detail) : text.detail;
  item.documentation = text.documentation;
  // VS Code orders by its own match score, then by this: pinned and recent first, in their order.
  item.sortText =
    rank !== undefined ? `0${String(rank).padStart(4, '0')}` : `3${name.name === p.shortName ? 0 : 1}${name.name}`;
  // Taken from the list, a prompt with arguments goes on to them: the space is typed (a trigger
  // character), so the argument names show.
  if (p.prompt.arguments?.length) item.command = { command: 'type', title: '', arguments: [{ text: ' ' }] };
  return item;
}

/** A skill's row: always with its server; the request that follows asks before anything loads. */
function skillItem(k: CatalogSkill, name: string): vscode.CompletionItem {
  const server = labelText(k.server.def.name);
  const item = new vscode.CompletionItem(
    { label: `/${name}`, description: vscode.l10n.t('skill of {0}', server) },
    vscode.CompletionItemKind.Module,
  );
  item.detail = vscode.l10n.t('{0} · skill: you approve its files before it loads', server);
  item.documentation = labelText(k.skill.frontmatter.description, MAX_DOCUMENTATION_CHARS);
  item.sortText = `4${name}`;
  item.command = { command: 'type', title: '', arguments: [{ text: ' ' }] };
  return item;
}

const promptTexts = new WeakMap<CatalogPrompt, { description: string; detail: string; documentation?: string }>();

/** A prompt's texts in the list, under the label rule, made once per listing (not per keystroke). */
function promptText(p: CatalogPrompt): { description: string; detail: string; documentation?: string } {
  let text = promptTexts.get(p);
  if (!text) {
    const server = labelText(p.server.def.name);
    const args = argumentList(p);
    text = {
      description: labelText(p.prompt.title ?? p.server.def.name),
      detail: args ? vscode.l10n.t('{0} · arguments: {1}', server, labelText(args)) : server,
      documentation: p.prompt.description && labelText(p.prompt.description, MAX_DOCUMENTATION_CHARS),
    };
    promptTexts.set(p, text);
  }
  return text;
}

/** The argument names not given yet that start with `current`, as `name=` (required ones first). */
function argumentNames(
  target: CatalogPrompt,
  given: Readonly<Record<string, string>>,
  current: string,
  position: vscode.Position,
): vscode.CompletionItem[] {
  const range = new vscode.Range(position.translate(0, -current.length), position);
  return (target.prompt.arguments ?? [])
    .filter(a => !(a.name in given) && a.name.startsWith(current))
    .map((a, i) => {
      const suggestion = nameSuggestion(a.name);
      const item = new vscode.CompletionItem(suggestion.label, vscode.CompletionItemKind.Property);
      item.insertText = suggestion.insertText;
      item.detail = a.required ? vscode.l10n.t('required') : vscode.l10n.t('optional');
      item.documentation = a.description && labelText(a.description, MAX_DOCUMENTATION_CHARS);
      item.range = range;
      item.sortText = `${a.required ? 0 : 1}${String(i).padStart(3, '0')}`;
      item.command = { command: 'editor.action.triggerSuggest', title: '' };
      return item;
    });
}

/** The server's completions for `argName` after what is typed of its value (`typed`, a leading quote dropped). */
async function argumentValues(
  target: CatalogPrompt,
  given: Readonly<Record<string, string>>,
  argName: string,
  typed: string,
  position: vscode.Position,
  token: vscode.CancellationToken,
): Promise<vscode.CompletionItem[] | undefined> {
  if (!(target.prompt.arguments ?? []).some(a => a.name === argName)) return undefined;
  const prefix = typed.replace(/^["']/, '');
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const context = { ...given };
    delete context[argName];
    // No question from the server here: it would take the keyboard from the line being typed (and
    // VS Code cancels this completion once the input loses focus). It is cancelled and logged.
    const result = await completeArgument(target, argName, prefix, context, controller.signal, { questions: false });
    // The value is already one the server offers: nothing to complete.
    if (prefix && result.values.includes(prefix)) return [];
    const range = new vscode.Range(position.translate(0, -typed.length), position);
    return result.values.map((v, i) => {
      const suggestion = valueSuggestion(v);
      const item = new vscode.CompletionItem(suggestion.label, vscode.CompletionItemKind.Value);
      item.insertText = suggestion.insertText;
      item.filterText = suggestion.filterText;
      item.range = range;
      item.sortText = String(i).padStart(4, '0');
      item.detail = labelText(target.server.def.name);
      return item;
    });
  } catch {
    return undefined;
  } finally {
    sub.dispose();
  }
}

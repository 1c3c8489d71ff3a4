// Completion in the chat input after `@mcp /`: prompt names (and our own `/list`, `/help`), then `key=`
// argument names, then values from the server's completion/complete with the arguments typed so far as
// context. A fully typed line must send on one Enter, so no list may hold a row Enter would take:
// - names are offered by prefix, and a name typed in full gets no list when we are asked;
// - VS Code refilters the list it has (fuzzily) on each later keystroke without asking us again, so a
//   name's row inserts exactly the name: the chat input's `acceptSuggestionOnEnter: "smart"` then lets
//   Enter through when the focused row would insert just what is typed, and that row is the focused one
//   (an exact match outranks every fuzzy or longer match in VS Code's scoring).
import * as vscode from 'vscode';
import { argumentList, completeArgument, parseInvocation } from '../core/run/invocation';
import { completeNames } from '../core/view/name-completion';
import type { Catalog } from '../core/catalog/catalog';
import { skillCommand } from '../core/catalog/skills';
import { nameSuggestion, valueSuggestion } from '../core/view/chat-suggestions';
import { labelText } from '../core/label';

const CHAT_INPUT_SCHEME = 'chatSessionInput';
/** A server's description beside a suggestion: one line, room for a paragraph. */
const MAX_DOCUMENTATION_CHARS = 1000;

export function registerChatCompletions(catalog: Catalog): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider(
    { scheme: CHAT_INPUT_SCHEME },
    new ChatCompletionProvider(catalog),
    '/',
    '.',
    ' ',
    '=',
  );
}

/** The participant's own words, handled in `handle()` before any prompt name. */
const BUILT_IN: [string, () => string][] = [
  ['list', () => vscode.l10n.t('List every prompt of every MCP server')],
  ['help', () => vscode.l10n.t('How to run MCP prompts')],
];

export class ChatCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly catalog: Catalog) {}

  async provideCompletionItems(
    doc: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.CompletionItem[] | vscode.CompletionList | undefined> {
    const before = doc.getText(new vscode.Range(new vscode.Position(0, 0), position));
    const m = /^\s*@mcp\s+\/(\S*)$/.exec(before);
    // Lists are complete (never `isIncomplete`): for an incomplete list VS Code keeps showing the old
    // answer unfiltered until a new one arrives, and Enter in that gap accepted a word typed in full.
    if (m) return this.promptNames(m[1], position);
    const call = /^\s*@mcp\s+\/(\S+)\s([\s\S]*)$/.exec(before);
    if (!call) return undefined;
    const found = this.catalog.resolve(call[1]);
    if ('error' in found) return undefined;
    const target = found.prompt;
    const parsed = parseInvocation(`${call[1]} ${call[2]}`);
    const current = /(\S*)$/.exec(call[2])![1];
    const eq = current.indexOf('=');
    if (eq < 0) {
      // Argument names not given yet.
      const given = parsed?.named ?? {};
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
    const argName = current.slice(0, eq);
    if (!(target.prompt.arguments ?? []).some(a => a.name === argName)) return undefined;
    const prefix = current.slice(eq + 1).replace(/^["']/, '');
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const context = { ...(parsed?.named ?? {}) };
      delete context[argName];
      // No question from the server here: it would take the keyboard from the line being typed (and
      // VS Code cancels this completion once the input loses focus). It is cancelled and logged.
      const result = await completeArgument(target, argName, prefix, context, controller.signal, { questions: false });
      // The value is already one the server offers: nothing to complete.
      if (prefix && result.values.includes(prefix)) return [];
      const range = new vscode.Range(position.translate(0, -(current.length - eq - 1)), position);
      const items = result.values.map((v, i) => {
        const suggestion = valueSuggestion(v);
        const item = new vscode.CompletionItem(suggestion.label, vscode.CompletionItemKind.Value);
        item.insertText = suggestion.insertText;
        item.filterText = suggestion.filterText;
        item.range = range;
        item.sortText = String(i).padStart(4, '0');
        item.detail = labelText(target.server.def.name);
        return item;
      });
      return items;
    } catch {
      return undefined;
    } finally {
      sub.dispose();
    }
  }

  private promptNames(typed: string, position: vscode.Position): vscode.CompletionItem[] {
    const range = new vscode.Range(position.translate(0, -typed.length - 1), position);
    const words: { name: string; item: () => vscode.CompletionItem }[] = [];
    // `/list` and `/help` are offered here, not as static participant commands: VS Code's completion of
    // those kept offering `/list` when it was typed in full, and Enter turned it into a command chip.
    BUILT_IN.forEach(([name, description], i) =>
      words.push({
        name,
        item: () => {
          const item = new vscode.CompletionItem(
            { label: `/${name}`, description: description() },
            vscode.CompletionItemKind.Keyword,
          );
          item.sortText = ` ${i}`;
          return item;
        },
      }),
    );
    for (const p of this.catalog.prompts) {
      // A prompt called `list` or `help` is reached as `/server.list`: the bare word is ours.
      const names =
        p.unique && !BUILT_IN.some(([word]) => word === p.shortName.toLowerCase())
          ? [p.shortName, p.invocationName]
          : [p.invocationName];
      for (const name of names) {
        words.push({
          name,
          item: () => {
            const item = new vscode.CompletionItem(
              { label: `/${name}`, description: labelText(p.prompt.title ?? p.server.def.name) },
              vscode.CompletionItemKind.Function,
            );
            const server = labelText(p.server.def.name);
            item.detail = argumentList(p)
              ? vscode.l10n.t('{0} · arguments: {1}', server, labelText(argumentList(p)))
              : server;
            item.documentation = p.prompt.description && labelText(p.prompt.description, MAX_DOCUMENTATION_CHARS);
            item.sortText = `${name === p.shortName ? 0 : 1}${name}`;
            // Taken from the list, a prompt with arguments goes on to them: the space is typed (a
            // trigger character), so the argument names show.
            if (p.prompt.arguments?.length) item.command = { command: 'type', title: '', arguments: [{ text: ' ' }] };
            return item;
          },
        });
      }
    }
    // Skills, always with their server (a skill is never named by its name alone): the request follows.
    for (const k of this.catalog.skills) {
      const name = skillCommand(k);
      words.push({
        name,
        item: () => {
          const server = labelText(k.server.def.name);
          const item = new vscode.CompletionItem(
            { label: `/${name}`, description: vscode.l10n.t('skill of {0}', server) },
            vscode.CompletionItemKind.Module,
          );
          item.detail = vscode.l10n.t('{0} · skill: you approve its files before it loads', server);
          item.documentation = labelText(k.skill.frontmatter.description, MAX_DOCUMENTATION_CHARS);
          item.sortText = `2${name}`;
          item.command = { command: 'type', title: '', arguments: [{ text: ' ' }] };
          return item;
        },
      });
    }
    return completeNames(
      typed,
      words.map(w => w.name),
    ).map(i => {
      const item = words[i].item();
      // Exactly the name (no trailing space, no filter text of its own): see the head of this file.
      item.insertText = `/${words[i].name}`;
      item.range = range;
      return item;
    });
  }
}

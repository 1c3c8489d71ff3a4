// What is suggested while the user types a value. In an argument step: their recent values that contain
// the text, then the server's completions; until the server answers for this exact text, its last answer
// is narrowed to what still fits it, so the list follows every keystroke without waiting for the network.
// In the chat input (`@mcp /server.prompt code=…`): a server's argument names and completion values, each
// inserted as the invocation rule (formatName, formatValue) writes it, so a value such as `#file:.env` or
// `#selection` stays words: taken and sent, it is never read as a chat reference.
import * as l10n from '@vscode/l10n';
import { labelText } from '../label.js';
import { formatName, formatValue } from '../run/invocation.js';

export interface Completions {
  prefix: string;
  values: readonly string[];
}

export interface BoxRow {
  label: string;
  description?: string;
}

/** Row 0 of a step: what is typed, else a hint (required) or Skip (optional). */
export function boxRow(typed: string, argumentName: string, required: boolean | undefined): BoxRow {
  const argument = labelText(argumentName);
  if (typed) return { label: typed, description: l10n.t('use what you typed') };
  if (required) return { label: l10n.t('$(edit) Type a value for {0}', argument) };
  return { label: l10n.t('$(debug-step-over) Skip'), description: l10n.t('leave {0} empty', argument) };
}

/** Value → row description, in display order; never the typed text itself (row 0 is that). */
export function suggestions(
  typed: string,
  history: readonly string[],
  completions: Completions,
  server: string,
): Map<string, string> {
  const lower = typed.toLowerCase();
  const current = new Map<string, string>();
  const recent = l10n.t('recent');
  for (const h of history) if (h !== typed && h.toLowerCase().includes(lower)) current.set(h, recent);
  const answered =
    completions.prefix === typed
      ? completions.values
      : completions.values.filter(c => c.toLowerCase().startsWith(lower));
  const fromServer = l10n.t('suggestion from {0}', labelText(server));
  for (const c of answered) if (c !== typed && !current.has(c)) current.set(c, fromServer);
  return current;
}

// ---- in the chat input ----

export interface ValueSuggestion {
  /** What the list shows: the value under the label rule. */
  label: string;
  /** What taking it writes after `name=`: the value as the rule writes it, then a space. */
  insertText: string;
  /** What VS Code filters the list by (see allButLast). */
  filterText: string;
}

/** An argument's name: `name=` as the rule writes the name (quoted unless it is a plain word). */
export function nameSuggestion(name: string): { label: string; insertText: string } {
  return { label: `${labelText(name)}=`, insertText: `${formatName(name)}=` };
}

export function valueSuggestion(value: string): ValueSuggestion {
  return { label: labelText(value), insertText: `${formatValue(value)} `, filterText: allButLast(value) };
}

/**
 * What VS Code filters an item by: the text without its last character, title first. VS Code filters
 * the list it already has on every keystroke, before any new answer arrives; a word typed in full is
 * then longer than the filter text and its own item drops out at once, so Enter sends the chat request
 * instead of accepting a suggestion that only repeats the word.
 */
function allButLast(text: string): string {
  return [...text].slice(0, -1).join('');
}

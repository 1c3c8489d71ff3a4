// A server's argument names and completion values as suggestions in the chat input
// (`@mcp /server.prompt code=…`). What one inserts is what the invocation rule (formatName, formatValue)
// writes, so a value such as `#file:.env` or `#selection` stays words: taken and sent, it is never read
// as a chat reference.
import { labelText } from '../label.js';
import { formatName, formatValue } from '../run/invocation.js';

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

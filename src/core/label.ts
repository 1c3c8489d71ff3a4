// The one rule for server text shown in a VS Code label, description, detail, tooltip, dialog or
// notification: one line that says what it says. Line breaks and other controls could forge a second
// row; bidi overrides reorder what is read; `$(name)` would draw one of VS Code's icons (a server could
// imitate a status row); `[text](command:…)` is a link a notification runs a command from; the other
// characters that hide text (tag characters, zero-width spaces, fillers: hidden-text.ts) would make a
// name read as another, so they are written out as escapes. Markdown surfaces escape the result once
// more (render/markdown.ts escapeLabel).
import * as l10n from '@vscode/l10n';
import { showHidden } from './hidden-text.js';

/** Labels are cut here unless a surface says otherwise. */
export const MAX_LABEL_CHARS = 200;

/** C0/C1 controls, line and paragraph separators, bidi embeddings, overrides, isolates and marks. */
const INVISIBLE = /[\p{Cc}\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Server text as one safe line: controls and line breaks become spaces, bidi controls go, runs of
 * white space become one, other characters that hide text are written out (`\u200b`), `$(` and `](` get
 * a zero-width space so neither an icon nor a link forms, and the text is cut to `max` characters (`…`
 * says so).
 */
export function labelText(text: string, max = MAX_LABEL_CHARS): string {
  let flat = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  // Printable ASCII, nearly every label, hides nothing. The zero-width space this rule puts after `$` and
  // `]` is not written out: a label labelled again stays as it was.
  if (/[^ -~]/.test(flat)) flat = showHidden(flat.replace(/([$\]])\u200b\(/g, '$1('));
  flat = flat.replace(/\$\(/g, '$\u200b(').replace(/\]\(/g, ']\u200b(');
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat;
}

/**
 * The label rule for a value whose end matters as much as its start (a command line, a URL): a long one
 * keeps its first two thirds and last third of `max` characters, and says how many it leaves out between.
 */
export function labelEnds(text: string, max: number): string {
  const chars = [...labelText(text, Infinity)];
  if (chars.length <= max) return chars.join('');
  const head = Math.ceil((max * 2) / 3);
  const tail = max - head;
  const left = chars.length - head - tail;
  return `${chars.slice(0, head).join('')} …${l10n.t('{0} characters left out', left)}… ${chars.slice(-tail).join('')}`;
}

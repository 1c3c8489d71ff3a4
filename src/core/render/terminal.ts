// Server text on a terminal (the CLI): ESC, BEL, the other C0/C1 controls, DEL and the bidi overrides
// would let a server recolour, retitle or rewrite the user's terminal, and tag characters, zero-width
// spaces and the other characters that hide text (hidden-text.ts) would hide words from the reader, so
// all of them are printed as visible escapes (`\x1b`, `\u202e`, `\u{e0049}`) instead.
import { replaceHidden, showHidden } from '../hidden-text.js';

/** A message body: line breaks and tabs stay (CRLF becomes LF, a lone CR is escaped); every other control is escaped. */
export function terminalText(text: string): string {
  return showHidden(text.replace(/\r\n/g, '\n').replace(/\r/g, '\\x0d'));
}

/** One line of output (a name, a description, an error): line breaks and tabs become a space, so nothing forges a line. */
export function terminalLine(text: string): string {
  return showHidden(text.replace(/[\r\n\t]+/g, ' '));
}

/** JSON text: the characters that hide text become `\uXXXX` escapes, which parse back to the same value. */
export function terminalJson(json: string): string {
  // JSON.stringify escapes C0 itself; every other such character (only ever inside a string) as its UTF-16 escapes.
  return replaceHidden(json, jsonEscape);
}

function jsonEscape(ch: string): string {
  return [...Array(ch.length).keys()].map(i => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}

// Text a person does not see but a model reads: Unicode tag characters (they spell ASCII invisibly),
// bidi controls (they reorder what is read), zero-width spaces and joiners of words, invisible fillers,
// variation selectors past the emoji ones (and a second one in a row, which selects nothing), and control
// characters other than tab and line breaks. ZWJ and ZWNJ stay allowed: scripts and emoji need them, and
// they change no reading. A skill's file holding any of these is refused (a model gets it as it is);
// everywhere else such text is shown with each of them written out (showHidden), so what a person reads
// is what a model or a server gets.

/** [first, last] code points that hide text. */
const HIDDEN: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x180e, 0x180e],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

const hex = (code: number) => code.toString(16).padStart(code < 0x100 ? 2 : 4, '0');
const RANGES = HIDDEN.map(([a, b]) => (a === b ? `\\u{${hex(a)}}` : `\\u{${hex(a)}}-\\u{${hex(b)}}`)).join('');
/** The variation selectors a single emoji or ideograph may take. */
const SELECTORS = '\\u{fe00}-\\u{fe0f}\\u{e0100}-\\u{e01ef}';
/** One character that hides text: in HIDDEN, or a variation selector right after another one. */
const HIDDEN_CHAR = new RegExp(`[${RANGES}]|(?<=[${SELECTORS}])[\\u{fe00}-\\u{fe0f}]`, 'gu');

function hides(code: number, before: number | undefined): boolean {
  if (HIDDEN.some(([first, last]) => code >= first && code <= last)) return true;
  return (
    code >= 0xfe00 &&
    code <= 0xfe0f &&
    before !== undefined &&
    ((before >= 0xfe00 && before <= 0xfe0f) || (before >= 0xe0100 && before <= 0xe01ef))
  );
}

export interface HiddenText {
  /** `U+E0049`: the first such character. */
  codePoint: string;
  /** Its line, from 1. */
  line: number;
  /** How many there are. */
  count: number;
}

/**
 * The first character of `text` that hides text, where it is, and how many there are; undefined: none.
 * A leading byte order mark is allowed (editors write one).
 */
export function hiddenText(text: string): HiddenText | undefined {
  let first: number | undefined;
  let line = 1;
  let firstLine = 1;
  let count = 0;
  let index = 0;
  let before: number | undefined;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // Printable ASCII, nearly all of a skill's text, needs no lookup.
    if (code >= 0x20 && code < 0x7f) {
      index++;
      before = code;
      continue;
    }
    if (code === 0x0a || (code === 0x0d && text[index + 1] !== '\n')) line++;
    else if (hides(code, before) && !(index === 0 && code === 0xfeff)) {
      count++;
      if (first === undefined) {
        first = code;
        firstLine = line;
      }
    }
    index += ch.length;
    before = code;
  }
  if (first === undefined) return undefined;
  return { codePoint: `U+${first.toString(16).toUpperCase().padStart(4, '0')}`, line: firstLine, count };
}

/** `\x07`, `\u200b`, `\u{e0049}`: a character as the escape a person reads, JavaScript's spelling. */
export function visibleEscape(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code < 0x100) return `\\x${hex(code)}`;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${hex(code)}`;
}

/** `text` with every character that hides text written out as its escape (visibleEscape); the rest as it is. */
export function showHidden(text: string): string {
  return replaceHidden(text, visibleEscape);
}

/** `text` with every character that hides text replaced by what `by` makes of it. */
export function replaceHidden(text: string, by: (ch: string) => string): string {
  return text.replace(HIDDEN_CHAR, by);
}

/** How many characters of `text` hide text (0: none), counted as showHidden finds them. */
export function countHidden(text: string): number {
  return text.match(HIDDEN_CHAR)?.length ?? 0;
}

// Text a person does not see but a model reads: Unicode tag characters (they spell ASCII invisibly),
// bidi controls (they reorder what is read), zero-width spaces and joiners of words, invisible fillers,
// variation selectors past the emoji ones, and control characters other than tab and line breaks. A
// skill's instructions go to the model as they are, so a file holding any of these is refused rather
// than shown in a form that differs from what the model gets. ZWJ and ZWNJ stay allowed: scripts and
// emoji need them, and they change no reading.

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

function hides(code: number): boolean {
  return HIDDEN.some(([first, last]) => code >= first && code <= last);
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
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // Printable ASCII, nearly all of a skill's text, needs no lookup.
    if (code >= 0x20 && code < 0x7f) {
      index++;
      continue;
    }
    if (code === 0x0a || (code === 0x0d && text[index + 1] !== '\n')) line++;
    else if (hides(code) && !(index === 0 && code === 0xfeff)) {
      count++;
      if (first === undefined) {
        first = code;
        firstLine = line;
      }
    }
    index += ch.length;
  }
  if (first === undefined) return undefined;
  return { codePoint: `U+${first.toString(16).toUpperCase().padStart(4, '0')}`, line: firstLine, count };
}

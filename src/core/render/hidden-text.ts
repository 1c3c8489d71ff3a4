// Text a person does not see but a model reads: Unicode tag characters (they spell ASCII invisibly),
// bidi controls (they reorder what is read), zero-width spaces and joiners of words, invisible fillers,
// variation selectors past the emoji ones, and control characters other than tab and line breaks. A
// skill's instructions go to the model as they are, so a file holding any of these is refused rather
// than shown in a form that differs from what the model gets. ZWJ and ZWNJ stay allowed: scripts and
// emoji need them, and they change no reading.

/** The characters that hide text; a leading byte order mark is allowed (editors write one). */
const HIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

export interface HiddenText {
  /** `U+E0049`: the first such character. */
  codePoint: string;
  /** Its line, from 1. */
  line: number;
  /** How many there are. */
  count: number;
}

/** The first character of `text` that hides text, where it is, and how many there are; undefined: none. */
export function hiddenText(text: string): HiddenText | undefined {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const first = HIDDEN.exec(body);
  if (!first) return undefined;
  const all = new RegExp(HIDDEN.source, 'gu');
  let count = 0;
  for (let m = all.exec(body); m; m = all.exec(body)) count++;
  const code = first[0].codePointAt(0)!;
  return {
    codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
    line: body.slice(0, first.index).split(/\r\n|\r|\n/).length,
    count,
  };
}

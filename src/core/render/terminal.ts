// Server text on a terminal (the CLI): ESC, BEL, the other C0/C1 controls, DEL and the bidi overrides
// would let a server recolour, retitle or rewrite the user's terminal, or hide text, so they are
// printed as visible escapes (`\x1b`, `\u202e`) instead.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BODY_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw among those (it escapes C0 itself). */
const JSON_CONTROLS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A message body: line breaks and tabs stay (CRLF becomes LF); every other control is escaped. */
export function terminalText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(BODY_CONTROLS, visible);
}

/** One line of output (a name, a description, an error): line breaks and tabs become a space, so nothing forges a line. */
export function terminalLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(LINE_CONTROLS, visible);
}

/** JSON text: the controls JSON.stringify leaves raw become `\uXXXX` escapes, which parse back to the same value. */
export function terminalJson(json: string): string {
  return json.replace(JSON_CONTROLS, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

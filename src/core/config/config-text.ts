// Adding entries to the text of an mcp.json with jsonc-parser's edits, so the user's comments, indentation
// (spaces or tabs) and line endings (CRLF in a file written on Windows) survive.
import * as jsonc from 'jsonc-parser';
import type { InputDefinition } from './config.js';

/** An empty mcp.json, as Add Server creates it. */
export const EMPTY_MCP_JSON = '{\n\t"servers": {}\n}\n';

/**
 * `text` with `entries` under "servers" (a taken name gets `-2`, `-3`, …) and the inputs it does not
 * declare yet under "inputs".
 */
export function withServers(
  text: string,
  entries: Record<string, unknown>,
  inputs: readonly InputDefinition[] = [],
): string {
  const existing = jsonc.parse(text) as { servers?: Record<string, unknown>; inputs?: unknown } | undefined;
  // Indent like the file does (spaces or tabs), and end lines as it does, so the new entry lines up.
  const spaces = /^( +)"/m.exec(text)?.[1].length;
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const formattingOptions = { insertSpaces: spaces !== undefined, tabSize: spaces ?? 1, eol };
  for (const [name, entry] of Object.entries(entries)) {
    let unique = name;
    for (let n = 2; existing?.servers && unique in existing.servers; n++) unique = `${name}-${n}`;
    text = jsonc.applyEdits(text, jsonc.modify(text, ['servers', unique], entry, { formattingOptions }));
    if (existing) existing.servers = { ...(existing.servers ?? {}), [unique]: entry };
  }
  const declared = Array.isArray(existing?.inputs) ? (existing.inputs as { id?: unknown }[]).map(i => i?.id) : [];
  for (const input of inputs.filter(i => !declared.includes(i.id))) {
    const edits = jsonc.modify(text, ['inputs', -1], input, { formattingOptions, isArrayInsertion: true });
    text = jsonc.applyEdits(text, edits);
  }
  return text;
}

// Adding entries to the text of an mcp.json or a portable file with jsonc-parser's edits, so the user's
// comments, indentation (spaces or tabs), line endings (CRLF in a file written on Windows) and the file's
// own shape (a .mcp.json with or without its `mcpServers` wrapper) survive.
import * as jsonc from 'jsonc-parser';
import type { ConfigFormat, InputDefinition } from './config.js';

/** An empty mcp.json, as Add Server creates it. */
export const EMPTY_MCP_JSON = '{\n\t"servers": {}\n}\n';

/** An empty portable file, as VS Code 1.140 creates a .mcp.json. */
export const EMPTY_PORTABLE_JSON = '{\n\t"mcpServers": {}\n}\n';

/**
 * `text` with `entries` among its servers (a taken name gets `-2`, `-3`, …) and, in VS Code's format,
 * the inputs it does not declare yet under "inputs" (a portable file has none). `bare`: a .mcp.json,
 * which VS Code also reads as the map of servers itself when it has entries and no `mcpServers`.
 */
export function withServers(
  text: string,
  entries: Record<string, unknown>,
  inputs: readonly InputDefinition[] = [],
  format: ConfigFormat = 'vscode',
  bare = false,
): string {
  const existing = jsonc.parse(text) as Record<string, unknown> | undefined;
  const isBare = bare && !!existing && Object.keys(existing).length > 0 && !Object.hasOwn(existing, 'mcpServers');
  const at = format === 'vscode' ? ['servers'] : isBare ? [] : ['mcpServers'];
  const servers = { ...((at.length ? existing?.[at[0]] : existing) as Record<string, unknown> | undefined) };
  // Indent like the file does (spaces or tabs), and end lines as it does, so the new entry lines up.
  const spaces = /^( +)"/m.exec(text)?.[1].length;
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const formattingOptions = { insertSpaces: spaces !== undefined, tabSize: spaces ?? 1, eol };
  for (const [name, entry] of Object.entries(entries)) {
    let unique = name;
    for (let n = 2; unique in servers || (!at.length && unique === 'mcpServers'); n++) unique = `${name}-${n}`;
    text = jsonc.applyEdits(text, jsonc.modify(text, [...at, unique], entry, { formattingOptions }));
    servers[unique] = entry;
  }
  const declared = Array.isArray(existing?.inputs) ? (existing.inputs as { id?: unknown }[]).map(i => i?.id) : [];
  for (const input of format === 'vscode' ? inputs.filter(i => !declared.includes(i.id)) : []) {
    const edits = jsonc.modify(text, ['inputs', -1], input, { formattingOptions, isArrayInsertion: true });
    text = jsonc.applyEdits(text, edits);
  }
  return text;
}

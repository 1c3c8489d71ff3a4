// Values from where the user is. In every argument step, the rows "from where the user is" (selected
// text, the active file and its path, the clipboard, a picked file, the output of a command): which
// appear, their labels, previews and size caps; the edge (src/ui/argument-input.ts) only reads the
// editor, the clipboard and files and hands them here. In chat, the references of a request, once the
// edge (src/chat/reference-reader.ts) has read them: each read becomes a value (size cap, UTF-8, a
// range of lines cut out) and the values go onto the run request — `name=#…` by name, the others in
// order onto the required arguments still missing — with one transcript line per reference.
import * as l10n from '@vscode/l10n';
import type { PromptArgument } from '@modelcontextprotocol/client';
import { PromptError } from '../../errors.js';
import { codeSpan, escapeLabel } from '../../render/markdown.js';
import type { RunRequest } from '../invocation.js';

export type SourceId = 'selection' | 'activeFile' | 'activePath' | 'clipboard' | 'pickFile' | 'command';
export const SOURCE_IDS: readonly SourceId[] = [
  'selection',
  'activeFile',
  'activePath',
  'clipboard',
  'pickFile',
  'command',
];

/** A value from a source is refused above this (UTF-8 bytes): it goes to the server in one request and into the model's context. */
export const MAX_SOURCE_BYTES = 256 * 1024;
/** Characters of a value's first line shown in its row. */
const PREVIEW_CHARS = 60;

/** What the edge read when the step opened; absent fields have no row (pickFile always has one). */
export interface SourceSnapshot {
  /** The active editor's selected text and the editor's file name (for the row's source). */
  selection?: { text: string; file: string };
  /**
   * The active editor's text; `path` is the file's path on disk (absent for an unsaved editor), `name` what the
   * row shows, `shownPath` what the path row shows: the path within its workspace folder, as VS Code's own
   * pickers show a file (a whole path is cut off, and VS Code's hover of a row's description covers the row below).
   */
  activeFile?: { text: string; name: string; path?: string; shownPath?: string };
  /**
   * The clipboard's text; `unread` where reading it would hold the step (a browser window asks the page's
   * permission, and VS Code waits on its own notification when it is refused): read when the row is chosen.
   */
  clipboard?: string | { unread: true };
  /**
   * "Output of a command…": the folder it runs in (shown), or `restricted` in an untrusted workspace,
   * where the row only says why it cannot be used. Absent: no row (no folder to run in).
   */
  command?: { folder: string } | { restricted: true };
  /** The source used last time for this argument: its row comes first. */
  lastSource?: SourceId;
}

export interface SourceRow {
  source: SourceId;
  label: string;
  description: string;
  /** The value this row gives; undefined for "Pick a file…" (asks first) and for a refused value. */
  value?: string;
  /** Why the row cannot be used (too large): shown instead of running. */
  problem?: string;
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  return l10n.t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
}

/**
 * The first non-empty line, cut to PREVIEW_CHARS, safe to show in a quick pick: control characters
 * become spaces and `$(` cannot start an icon (the text may come from a hostile file or clipboard).
 */
export function firstLine(text: string): string {
  const line = text.split(/\r\n|\r|\n/).find(l => l.trim() !== '') ?? '';
  const clean = line
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .trim()
    .replace(/\$\(/g, '$\u200b(');
  const chars = [...clean];
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join('')}…` : clean;
}

/** "«first line» · 3 lines, 1.2 KB", or why the value is refused. */
function describe(text: string): { description: string; problem?: string } {
  const bytes = utf8Bytes(text);
  const lines = text.split(/\r\n|\r|\n/).length;
  const size = lines > 1 ? l10n.t('{0} lines, {1}', lines, formatSize(bytes)) : formatSize(bytes);
  if (bytes > MAX_SOURCE_BYTES) {
    const problem = l10n.t('Too large: {0} (the limit is {1}).', formatSize(bytes), formatSize(MAX_SOURCE_BYTES));
    return { description: problem, problem };
  }
  return { description: `«${firstLine(text)}» · ${size}` };
}

function row(source: SourceId, label: string, origin: string, text: string): SourceRow {
  const { description, problem } = describe(text);
  return { source, label, description: `${origin} · ${description}`, value: problem ? undefined : text, problem };
}

/** The source rows of one argument step, the last used first. An empty selection or clipboard has no row. */
export function sourceRows(s: SourceSnapshot): SourceRow[] {
  const rows: SourceRow[] = [];
  if (s.selection && s.selection.text !== '')
    rows.push(row('selection', l10n.t('$(selection) Selected text'), firstLine(s.selection.file), s.selection.text));
  if (s.activeFile) {
    rows.push(row('activeFile', l10n.t('$(file) Active file'), firstLine(s.activeFile.name), s.activeFile.text));
    if (s.activeFile.path)
      rows.push({
        source: 'activePath',
        label: l10n.t('$(link) Path of the active file'),
        description: firstLine(s.activeFile.shownPath ?? s.activeFile.path),
        value: s.activeFile.path,
      });
  }
  if (typeof s.clipboard === 'object')
    rows.push({
      source: 'clipboard',
      label: l10n.t('$(clippy) Clipboard'),
      description: l10n.t('clipboard · read when you choose it'),
    });
  else if (s.clipboard !== undefined && s.clipboard !== '')
    rows.push(row('clipboard', l10n.t('$(clippy) Clipboard'), l10n.t('clipboard'), s.clipboard));
  rows.push({
    source: 'pickFile',
    label: l10n.t('$(folder-opened) Pick a file…'),
    description: l10n.t('its contents become the value'),
  });
  if (s.command && 'restricted' in s.command) {
    const problem = l10n.t('Not available in Restricted Mode: no command runs in a workspace you have not trusted.');
    rows.push({ source: 'command', label: l10n.t('$(terminal) Output of a command…'), description: problem, problem });
  } else if (s.command) {
    rows.push({
      source: 'command',
      label: l10n.t('$(terminal) Output of a command…'),
      description: l10n.t(
        'runs a command you type, in {0}, after you confirm it; its output (at most {1}) becomes the value',
        firstLine(s.command.folder),
        formatSize(MAX_SOURCE_BYTES),
      ),
    });
  }
  const last = rows.findIndex(r => r.source === s.lastSource);
  if (last > 0) rows.unshift(...rows.splice(last, 1));
  if (last >= 0) rows[0] = { ...rows[0], description: l10n.t('last used · {0}', rows[0].description) };
  return rows;
}

/**
 * A picked file's bytes as a value: refused when larger than MAX_SOURCE_BYTES, when not valid UTF-8
 * or when it holds NUL bytes (binary), each with a message that names the file.
 */
export function fileValue(bytes: Uint8Array, name: string): { value: string } | { problem: string } {
  const large = fileTooLarge(bytes.byteLength, name);
  if (large) return { problem: large };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: l10n.t('{0} is not UTF-8 text.', name) };
  }
  if (text.includes('\u0000')) return { problem: l10n.t('{0} is not UTF-8 text.', name) };
  return { value: text.startsWith('\ufeff') ? text.slice(1) : text };
}

/** The clipboard's text read when its row was chosen, held to the same cap as a row that shows it. */
export function clipboardValue(text: string): { value: string } | { problem: string } {
  if (text === '') return { problem: l10n.t('The clipboard holds no text.') };
  const { problem } = describe(text);
  return problem ? { problem } : { value: text };
}

/** Why a file of `size` bytes is refused (checked before reading it), or undefined. */
export function fileTooLarge(size: number, name: string): string | undefined {
  return size > MAX_SOURCE_BYTES
    ? l10n.t('{0} is too large: {1} (the limit is {2}).', name, formatSize(size), formatSize(MAX_SOURCE_BYTES))
    : undefined;
}

export function isSourceId(v: unknown): v is SourceId {
  return typeof v === 'string' && (SOURCE_IDS as readonly string[]).includes(v);
}

// ---- chat references as values ----

/** A position in a file's text, as VS Code counts: 0-based line and UTF-16 character. */
export interface TextPosition {
  line: number;
  character: number;
}

/** Where a read came from: the file as the transcript names it, and the part of it taken. */
export interface ReadFrom {
  file: string;
  /** The editor's selection in that file (the text read is the selection). */
  selection?: boolean;
  /** Only these lines of the file (cut out here), or the selection's lines. */
  range?: { start: TextPosition; end: TextPosition };
}

/** What the edge read for one reference; `written` is how the reference stands in the prompt. */
export type ReferenceRead = { written: string } & (
  | { kind: 'text'; text: string; from?: ReadFrom }
  | { kind: 'bytes'; bytes: Uint8Array; from: ReadFrom }
  | { kind: 'tooLarge'; size: number; from: ReadFrom }
  | { kind: 'unreadable'; error: string; from: ReadFrom }
  | { kind: 'noSelection' }
  | { kind: 'unsupported' }
);

/** The reads of a plan's references: named ones in plan order, then the unnamed ones. */
export interface ReferenceReads {
  named: ReferenceRead[];
  unnamed: ReferenceRead[];
}

/**
 * The run request with the references' values: `named[i]` gets `reads.named[i]`, the unnamed reads fill
 * the required arguments still missing, in order; one transcript line (markdown, server-free) each. A
 * reference that gives no value throws a PromptError naming it.
 */
export function withReferenceValues(
  run: RunRequest,
  named: readonly string[],
  reads: ReferenceReads,
): { run: RunRequest; notes: string[] } {
  const values = { ...run.values };
  const sourced = [...(run.sourced ?? [])];
  const notes: string[] = [];
  const note = (name: string, label: string) => notes.push(assignmentLine(codeSpan(name), escapeLabel(label)));
  named.forEach((name, i) => {
    const r = referenceValue(reads.named[i]);
    values[name] = r.value;
    sourced.push(name);
    note(name, r.label);
  });
  const { assigned, unused } = fillMissing(run.prompt.prompt.arguments, values, reads.unnamed.map(referenceValue));
  for (const a of assigned) {
    values[a.name] = a.ref.value;
    sourced.push(a.name);
    note(a.name, a.ref.label);
  }
  for (const u of unused)
    notes.push(l10n.t('{0} was not used: no required argument was left to fill.', escapeLabel(u.label)));
  return { run: { ...run, values, sourced }, notes };
}

/** One read as a value and the label the transcript shows for it. */
function referenceValue(read: ReferenceRead): { value: string; label: string } {
  const { written } = read;
  switch (read.kind) {
    case 'noSelection':
      throw new PromptError(l10n.t('{0}: no text is selected in an editor.', written), 'input');
    case 'unsupported':
      throw new PromptError(
        l10n.t('{0} cannot be an argument value: only files, selections and text can.', written),
        'input',
      );
    case 'tooLarge':
      throw new PromptError(fileTooLarge(read.size, read.from.file) ?? written, 'input');
    case 'unreadable':
      throw new PromptError(l10n.t('{0}: could not read {1}: {2}', written, read.from.file, read.error), 'input');
    case 'bytes': {
      const decoded = fileValue(read.bytes, read.from.file);
      if ('problem' in decoded) throw new PromptError(decoded.problem, 'input');
      return cut(decoded.value, read.from, written);
    }
    case 'text':
      return cut(read.text, read.from, written);
  }
}

/** The text, or the lines of it the reference names, checked against the size cap. */
function cut(text: string, from: ReadFrom | undefined, written: string): { value: string; label: string } {
  const range = from?.range;
  const value = range && !from.selection ? rangeText(text, range.start, range.end) : text;
  if (utf8Bytes(value) > MAX_SOURCE_BYTES)
    throw new PromptError(
      l10n.t(
        '{0} is too large: {1} (the limit is {2}).',
        written,
        formatSize(utf8Bytes(value)),
        formatSize(MAX_SOURCE_BYTES),
      ),
      'input',
    );
  return { value, label: readLabel(from, written) };
}

/** `selection in a.ts, lines 3–5`, `a.ts, line 2`, `a.ts`, or the reference as written. */
function readLabel(from: ReadFrom | undefined, written: string): string {
  if (!from) return written;
  const lines = from.range && linesLabel(from.range.start.line, from.range.end.line);
  if (from.selection) return l10n.t('selection in {0}, {1}', from.file, lines ?? '');
  return lines ? l10n.t('{0}, {1}', from.file, lines) : from.file;
}

/**
 * The unnamed references in order onto the required arguments still without a value; what is left
 * over has no argument to fill.
 */
export function fillMissing<T>(
  args: readonly PromptArgument[] | undefined,
  given: Readonly<Record<string, string>>,
  unnamed: readonly T[],
): { assigned: { name: string; ref: T }[]; unused: T[] } {
  const missing = (args ?? []).filter(a => a.required && !given[a.name]);
  const assigned = unnamed.slice(0, missing.length).map((ref, i) => ({ name: missing[i].name, ref }));
  return { assigned, unused: unnamed.slice(missing.length) };
}

/** The transcript's line for one reference: `code` ← selection in a.ts, lines 3–5. */
export function assignmentLine(name: string, label: string): string {
  return l10n.t('{0} ← {1}', name, label);
}

/** A line range as the transcript shows it (1-based, as editors number lines). */
export function linesLabel(startLine: number, endLine: number): string {
  return startLine === endLine
    ? l10n.t('line {0}', startLine + 1)
    : l10n.t('lines {0}–{1}', startLine + 1, endLine + 1);
}

/**
 * The text of a range of a file's text; positions are 0-based lines and UTF-16 characters, as in
 * VS Code (line breaks: \r\n, \n or \r). Out-of-range positions are clamped.
 */
export function rangeText(
  text: string,
  start: { line: number; character: number },
  end: { line: number; character: number },
): string {
  const offset = (p: { line: number; character: number }) => {
    const re = /\r\n|\n|\r/g;
    let lineStart = 0;
    for (let line = 0; line < p.line; line++) {
      const m = re.exec(text);
      if (!m) return text.length;
      lineStart = m.index + m[0].length;
    }
    const next = re.exec(text);
    const lineEnd = next ? next.index : text.length;
    return Math.min(lineStart + p.character, lineEnd);
  };
  return text.slice(offset(start), offset(end));
}

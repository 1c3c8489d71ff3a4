// Values from where the user is. In every argument step, the rows "from where the user is" (selected
// text, the active file and its path, the clipboard, a picked file, the output of a command): which
// appear, their labels, previews and size caps; the edge (src/ui/argument-input.ts) only reads the
// editor, the clipboard and files and hands them here. A chat reference's read becomes a value by the
// same caps (chat-request.ts).
import * as l10n from '@vscode/l10n';

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
  /** The active editor's text; `path` is the file's path on disk (absent for an unsaved editor), `name` what the row shows. */
  activeFile?: { text: string; name: string; path?: string };
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
        description: firstLine(s.activeFile.path),
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

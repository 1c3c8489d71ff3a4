// Chat references as argument values (core/chat-references decides which goes where): reads the text
// of each one — a file or a range of it through the workspace file system (an open editor's unsaved
// text first), a string as it is — and writes in the transcript which argument got which reference.
// A file outside the workspace is allowed (the user chose it) and shown by its full path; this works
// the same in Restricted Mode, since the user typed or attached it.
import * as vscode from 'vscode';
import type { CatalogPrompt } from '../core/catalog/catalog';
import {
  assignmentLine,
  fillMissing,
  linesLabel,
  planReferences,
  rangeText,
  type PlacedReference,
} from '../core/run/chat-references';
import { PromptError } from '../core/errors';
import { formatInvocation } from '../core/run/invocation';
import { codeSpan, escapeLabel } from '../core/render/markdown';
import { fileTooLarge, fileValue, MAX_SOURCE_BYTES, utf8Bytes, formatSize } from '../core/run/value-sources';
import { untrusted } from './render';

interface Resolved {
  value: string;
  label: string;
}

export interface ChatReferences {
  /** The invocation line with named references as `name="value"`, unnamed ones taken out. */
  line: string;
  /** Fills missing required arguments from the unnamed references (and says so in the transcript). */
  fill(target: CatalogPrompt, given: Record<string, string>): Record<string, string>;
  /** The arguments whose value came from a reference (after fill): not kept in the history. */
  readonly names: string[];
}

/**
 * The references of a request, read and placed. Resolves undefined when the request has none; throws
 * a PromptError naming the reference when one cannot be read.
 */
export async function readReferences(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
): Promise<ChatReferences | undefined> {
  const plan = planReferences(
    request.prompt,
    request.references.map(r => ({ id: r.id, range: r.range })),
  );
  if (!plan.named.length && !plan.unnamed.length) return undefined;
  const read = (ref: PlacedReference) => resolve(ref, request.references);
  const named: Record<string, string> = {};
  for (const { name, ref } of plan.named) {
    const r = await read(ref);
    named[name] = r.value;
    stream.markdown(untrusted(`${assignmentLine(codeSpan(name), escapeLabel(r.label))}\n\n`));
  }
  const unnamed: Resolved[] = [];
  for (const ref of plan.unnamed) unnamed.push(await read(ref));
  // Named values go after the rest of the line: parsing reads names anywhere, so positions are unchanged.
  const namedText = Object.keys(named).length ? formatInvocation('x', named).slice(2) : '';
  const line = [plan.text.replace(/^\//, ''), namedText].filter(Boolean).join(' ');
  let filled = false;
  const report = (given: Record<string, string>, target?: CatalogPrompt) => {
    if (filled) return {};
    filled = true;
    const { assigned, unused } = fillMissing(target?.prompt.arguments, given, unnamed);
    for (const a of assigned)
      stream.markdown(untrusted(`${assignmentLine(codeSpan(a.name), escapeLabel(a.ref.label))}\n\n`));
    for (const u of unused)
      stream.markdown(
        untrusted(
          `${vscode.l10n.t('{0} was not used: no required argument was left to fill.', escapeLabel(u.label))}\n\n`,
        ),
      );
    names.push(...assigned.map(a => a.name));
    return Object.fromEntries(assigned.map(a => [a.name, a.ref.value]));
  };
  const names = Object.keys(named);
  return { line, fill: (target, given) => report(given, target), names };
}

async function resolve(ref: PlacedReference, refs: readonly vscode.ChatPromptReference[]): Promise<Resolved> {
  if (ref.source.kind === 'selection') {
    const editor = vscode.window.activeTextEditor;
    const text = editor
      ? editor.selections
          .map(s => editor.document.getText(s))
          .filter(t => t)
          .join('\n')
      : '';
    if (!editor || !text)
      throw new PromptError(vscode.l10n.t('{0}: no text is selected in an editor.', ref.written), 'input');
    const sel = editor.selection;
    return checked(
      {
        value: text,
        label: vscode.l10n.t(
          'selection in {0}, {1}',
          vscode.workspace.asRelativePath(editor.document.uri, false),
          linesLabel(sel.start.line, sel.end.line),
        ),
      },
      ref.written,
    );
  }
  if (ref.source.kind === 'file') {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri =
      ref.source.path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(ref.source.path) || !folder
        ? vscode.Uri.file(ref.source.path)
        : vscode.Uri.joinPath(folder, ref.source.path);
    const text = await readText(uri, ref.written);
    if (!ref.source.lines) return { value: text, label: fileLabel(uri) };
    const [first, last] = ref.source.lines;
    return {
      value: rangeText(text, { line: first - 1, character: 0 }, { line: last - 1, character: Number.MAX_SAFE_INTEGER }),
      label: vscode.l10n.t('{0}, {1}', fileLabel(uri), linesLabel(first - 1, last - 1)),
    };
  }
  const value: unknown = refs[ref.source.index].value;
  if (typeof value === 'string') return checked({ value, label: ref.written }, ref.written);
  if (value instanceof vscode.Uri) return { value: await readText(value, ref.written), label: fileLabel(value) };
  if (value instanceof vscode.Location) {
    const text = await readText(value.uri, ref.written);
    return checked(
      {
        value: rangeText(text, value.range.start, value.range.end),
        label: vscode.l10n.t(
          '{0}, {1}',
          fileLabel(value.uri),
          linesLabel(value.range.start.line, value.range.end.line),
        ),
      },
      ref.written,
    );
  }
  throw new PromptError(
    vscode.l10n.t('{0} cannot be an argument value: only files, selections and text can.', ref.written),
    'input',
  );
}

/** Relative to the workspace, or the full path for a file outside it (so the transcript shows where it came from). */
function fileLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

function checked(r: Resolved, written: string): Resolved {
  if (utf8Bytes(r.value) > MAX_SOURCE_BYTES)
    throw new PromptError(
      vscode.l10n.t(
        '{0} is too large: {1} (the limit is {2}).',
        written,
        formatSize(utf8Bytes(r.value)),
        formatSize(MAX_SOURCE_BYTES),
      ),
      'input',
    );
  return r;
}

/** An open editor's text (with unsaved changes), else the file's bytes through the workspace file system. */
async function readText(uri: vscode.Uri, written: string): Promise<string> {
  const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
  if (open) return checked({ value: open.getText(), label: written }, written).value;
  const name = fileLabel(uri);
  let bytes: Uint8Array;
  try {
    const large = fileTooLarge((await vscode.workspace.fs.stat(uri)).size, name);
    if (large) throw new PromptError(large, 'input');
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    if (e instanceof PromptError) throw e;
    throw new PromptError(
      vscode.l10n.t('{0}: could not read {1}: {2}', written, name, e instanceof Error ? e.message : String(e)),
      'input',
    );
  }
  const decoded = fileValue(bytes, name);
  if ('problem' in decoded) throw new PromptError(decoded.problem, 'input');
  return decoded.value;
}

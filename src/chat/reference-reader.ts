// Reads what the chat references of a request hold (core/run/requests/chat-request.ts finds them):
// the editor's selection, a file or a range of it through the workspace file system (an open editor's
// unsaved text first), a string as it is. Only I/O here; core/run/requests/chat-request.ts turns the reads into
// values. A file outside the workspace is allowed (the user chose it) and named by its full path; this
// works the same in Restricted Mode, since the user typed or attached it.
import * as vscode from 'vscode';
import type { Platform } from '../core/platform';
import {
  fileTarget,
  type PlacedReference,
  type ReferencePlan,
  type ReferenceReader,
} from '../core/run/requests/chat-request';
import {
  MAX_SOURCE_BYTES,
  type ReadFrom,
  type ReferenceRead,
  type ReferenceReads,
} from '../core/run/requests/value-sources';

/**
 * The reader of chat requests' references: what each of a plan's references holds, read once when
 * asked; a `#file:` path by the rules of the extension host's `platform`.
 */
export function referenceReader(platform: Platform): ReferenceReader<vscode.ChatPromptReference> {
  return async (plan: ReferencePlan, refs: readonly vscode.ChatPromptReference[]): Promise<ReferenceReads> => {
    const read = (ref: PlacedReference) => readReference(ref, refs, platform);
    return {
      named: await Promise.all(plan.named.map(n => read(n.ref))),
      unnamed: await Promise.all(plan.unnamed.map(read)),
    };
  };
}

async function readReference(
  ref: PlacedReference,
  refs: readonly vscode.ChatPromptReference[],
  platform: Platform,
): Promise<ReferenceRead> {
  const written = ref.written;
  switch (ref.source.kind) {
    case 'selection':
      return readSelection(written);
    case 'file': {
      const { path, lines } = ref.source;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = fileTarget(path, platform);
      const uri =
        'absolute' in target || !folder ? vscode.Uri.file(path) : vscode.Uri.joinPath(folder, ...target.relative);
      const range = lines && {
        start: { line: lines[0] - 1, character: 0 },
        end: { line: lines[1] - 1, character: Number.MAX_SAFE_INTEGER },
      };
      return readFile(uri, written, range);
    }
    case 'reference': {
      const value: unknown = refs[ref.source.index].value;
      if (typeof value === 'string') return { written, kind: 'text', text: value };
      if (value instanceof vscode.Uri) return readFile(value, written);
      if (value instanceof vscode.Location) return readFile(value.uri, written, value.range);
      return { written, kind: 'unsupported' };
    }
  }
}

function readSelection(written: string): ReferenceRead {
  const editor = vscode.window.activeTextEditor;
  const text = editor
    ? editor.selections
        .map(s => editor.document.getText(s))
        .filter(t => t)
        .join('\n')
    : '';
  if (!editor || !text) return { written, kind: 'noSelection' };
  const { start, end } = editor.selection;
  const from: ReadFrom = { file: fileName(editor.document.uri), selection: true, range: { start, end } };
  return { written, kind: 'text', text, from };
}

/** An open editor's text (with unsaved changes), else the file's bytes; a file over the cap is not read. */
async function readFile(uri: vscode.Uri, written: string, range?: ReadFrom['range']): Promise<ReferenceRead> {
  const from: ReadFrom = { file: fileName(uri), range };
  const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
  if (open) return { written, kind: 'text', text: open.getText(), from };
  try {
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_SOURCE_BYTES) return { written, kind: 'tooLarge', size, from };
    return { written, kind: 'bytes', bytes: await vscode.workspace.fs.readFile(uri), from };
  } catch (e) {
    return { written, kind: 'unreadable', error: e instanceof Error ? e.message : String(e), from };
  }
}

/** Relative to the workspace, or the full path for a file outside it (so the transcript shows where it came from). */
function fileName(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

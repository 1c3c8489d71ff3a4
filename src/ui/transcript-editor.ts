// The transcript outside chat: a read-only markdown document (same rendering rules as chat: roles,
// images shown inline, audio/blobs as files, resources through our read-only scheme), opened in VS
// Code's markdown preview, which renders untrusted content without scripts.
import * as vscode from 'vscode';
import { ReadonlyFileSystem } from '../resources/readonly-file-system';
import { codeSpan, escapeLabel, transcriptToMarkdown, MarkdownLabels } from '../core/render/markdown';
import type { Part } from '../core/render/content';
import type { ResultStore, StoredResult } from '../core/run/records/result-store';
import { embeddedResourceUri, mediaUri, partAt, resourceLinkUri } from '../resources';

export const TRANSCRIPT_SCHEME = 'mcp-prompts-transcript';
/** Images up to this size show in the preview (served beside the document); larger ones are links. */
const SHOWN_IMAGE_LIMIT = 5 * 1024 * 1024;

export function labels(): MarkdownLabels {
  return {
    user: `👤 ${vscode.l10n.t('User')}`,
    assistant: `🤖 ${vscode.l10n.t('Assistant')}`,
    forAssistant: vscode.l10n.t('For the assistant only:'),
    notShown: reason => vscode.l10n.t('Not shown: {0}', reason),
  };
}

/**
 * Markdown for documents and the clipboard; media and resources are linked through our read-only schemes.
 * Images up to `shownImageBytes` are referenced relative to the transcript (`<m-p>/image.png`, served by
 * TranscriptFileSystem next to the document), so the preview shows them while the text stays small;
 * with 0 (clipboard, saved files) every image is an absolute `mcp-prompts-media:` link.
 */
export function transcriptMarkdown(stored: StoredResult, shownImageBytes = SHOWN_IMAGE_LIMIT): string {
  const p = stored.result.prompt.prompt;
  const header = `# ${escapeLabel(p.title ?? p.name)}\n\n${codeSpan(`@mcp /${stored.invocation}`)}\n\n`;
  return (
    header +
    transcriptToMarkdown(stored.transcript, {
      labels: labels(),
      href: (part, index) => hrefFor(stored, part, index, shownImageBytes),
    })
  );
}

function hrefFor(stored: StoredResult, part: Part, index: string, shownImageBytes: number): string | undefined {
  switch (part.kind) {
    case 'image':
      return part.bytes <= shownImageBytes
        ? `${imageFolder(index)}/${part.fileName}`
        : mediaUri(stored.id, index, part).toString();
    case 'audio':
      return mediaUri(stored.id, index, part).toString();
    case 'resource':
      return (
        part.text !== undefined ? embeddedResourceUri(stored.id, index, part) : mediaUri(stored.id, index, part)
      ).toString();
    case 'link':
      return resourceLinkUri(stored.result.prompt.server.id, part).toString();
    default:
      return undefined;
  }
}

/**
 * `mcp-prompts-transcript:/<resultId>/<name>.md` and its images at `/<resultId>/<m-p>/<fileName>`, read-only,
 * written from the result store whenever VS Code asks: we keep no text of our own. The preview loads the
 * images through the workbench's file service from here (the document's folder is its resource root), so
 * the document VS Code keeps (for minutes after its tab closes) holds no image data. The document of a
 * result the store evicted is told to change and becomes the one-line notice, whether it is open at the
 * eviction or arrives later (the preview hands it over after a delay); its images are then gone.
 */
export class TranscriptFileSystem extends ReadonlyFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];
  /** Each result's document, written once: VS Code stats and reads it again and again. */
  private readonly documents = new WeakMap<StoredResult, Uint8Array>();

  constructor(private readonly results: ResultStore) {
    super();
    const fire = (uri: vscode.Uri) => this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.subscriptions = [
      results.onEvict(evicted => {
        for (const doc of vscode.workspace.textDocuments) if (resultIdOf(doc.uri) === evicted.id) fire(doc.uri);
      }),
      vscode.workspace.onDidOpenTextDocument(doc => {
        const id = resultIdOf(doc.uri);
        if (id !== undefined && !results.get(id) && doc.lineCount > 1) fire(doc.uri);
      }),
    ];
  }

  /**
   * The document's text (depth 2) or an image (depth 3, images only); undefined: no such file. An image
   * is decoded only when read: stat() comes first on every load and needs its size alone.
   */
  private contents(uri: vscode.Uri): { size: number; read: () => Uint8Array; live: boolean } | undefined {
    const [id, second, third, ...rest] = uri.path.split('/').filter(Boolean);
    if (id === undefined || second === undefined || rest.length) return undefined;
    const stored = this.results.get(id);
    if (third === undefined) {
      if (!second.endsWith('.md')) return undefined;
      const bytes = stored
        ? this.document(stored)
        : new TextEncoder().encode(vscode.l10n.t('This transcript is no longer available.'));
      return { size: bytes.length, read: () => bytes, live: !!stored };
    }
    const part = stored && /^\d+-\d+$/.test(second) ? partAt(stored.transcript, second.replace('-', '.')) : undefined;
    if (part?.kind !== 'image' || part.fileName !== third || part.bytes > SHOWN_IMAGE_LIMIT) return undefined;
    return { size: part.bytes, read: () => Buffer.from(part.data, 'base64'), live: true };
  }

  private document(stored: StoredResult): Uint8Array {
    let bytes = this.documents.get(stored);
    if (!bytes) this.documents.set(stored, (bytes = new TextEncoder().encode(transcriptMarkdown(stored))));
    return bytes;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const depth = uri.path.split('/').filter(Boolean).length;
    if (depth < 2 || (depth === 2 && !uri.path.endsWith('.md')))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const found = this.contents(uri);
    if (!found) throw vscode.FileSystemError.FileNotFound(uri);
    // A different mtime once evicted: VS Code reloads an open document only when its etag changes.
    const mtime = found.live ? 1 : 2;
    return {
      type: vscode.FileType.File,
      ctime: 1,
      mtime,
      size: found.size,
      permissions: vscode.FilePermission.Readonly,
    };
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const found = this.contents(uri);
    if (!found) throw vscode.FileSystemError.FileNotFound(uri);
    return found.read();
  }

  dispose(): void {
    this.subscriptions.forEach(s => s.dispose());
    this.changed.dispose();
  }
}

function imageFolder(index: string): string {
  return index.replace('.', '-');
}

function resultIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === TRANSCRIPT_SCHEME ? uri.path.split('/')[1] : undefined;
}

export async function openTranscript(stored: StoredResult): Promise<vscode.Uri> {
  const name = stored.result.prompt.invocationName.replace(/[^A-Za-z0-9_.-]/g, '_');
  const uri = vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${stored.id}/${name}.md` });
  // Locked: an unlocked preview follows the active editor, so clicking back into a markdown file would
  // swap the transcript for that file's preview.
  await vscode.commands.executeCommand('markdown.showPreview', uri, undefined, { locked: true });
  return uri;
}

// The transcript outside chat: a read-only markdown document (same rendering rules as chat: roles,
// images inline as data: URIs, audio/blobs as files, resources through our read-only scheme), opened
// in VS Code's markdown preview, which renders untrusted content without scripts.
import * as vscode from 'vscode';
import { codeSpan, escapeLabel, transcriptToMarkdown, MarkdownLabels } from '../core/markdown';
import type { Part } from '../core/content';
import type { ResultStore, StoredResult } from '../core/results';
import { embeddedResourceUri, mediaUri, resourceLinkUri } from '../resources';

export const TRANSCRIPT_SCHEME = 'mcp-prompts-transcript';
const INLINE_IMAGE_LIMIT = 5 * 1024 * 1024;

export function labels(): MarkdownLabels {
  return {
    user: `👤 ${vscode.l10n.t('User')}`,
    assistant: `🤖 ${vscode.l10n.t('Assistant')}`,
    forAssistant: vscode.l10n.t('For the assistant only:'),
    notShown: reason => vscode.l10n.t('Not shown: {0}', reason),
  };
}

/** Markdown for documents and the clipboard; media and resources are linked through our read-only schemes. */
export function transcriptMarkdown(stored: StoredResult, inlineImageBytes = INLINE_IMAGE_LIMIT): string {
  const p = stored.result.prompt.prompt;
  const header = `# ${escapeLabel(p.title ?? p.name)}\n\n${codeSpan(`@mcp /${stored.invocation}`)}\n\n`;
  return (
    header +
    transcriptToMarkdown(stored.transcript, {
      labels: labels(),
      inlineImageBytes,
      href: (part, index) => hrefFor(stored, part, index, inlineImageBytes),
    })
  );
}

function hrefFor(stored: StoredResult, part: Part, index: string, inlineImageBytes: number): string | undefined {
  switch (part.kind) {
    case 'image':
      return part.bytes > inlineImageBytes ? mediaUri(stored.id, index, part).toString() : undefined;
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
 * `mcp-prompts-transcript:/<resultId>/<name>.md`, written from the result store whenever VS Code asks: we
 * keep no text of our own. VS Code keeps each opened document (and the extension host a copy or two of its
 * text, 20 MB for an inlined 5 MB image) for minutes after its tab closes, up to 80 Mi characters; so the
 * document of a result the store evicted is told to change and becomes the one-line notice, whether it is
 * in the extension host at the eviction or arrives later (the preview hands it over after a delay).
 */
export class TranscriptProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly results: ResultStore) {
    this.subscriptions = [
      results.onEvict(evicted => {
        for (const doc of vscode.workspace.textDocuments)
          if (resultIdOf(doc.uri) === evicted.id) this.changed.fire(doc.uri);
      }),
      vscode.workspace.onDidOpenTextDocument(doc => {
        const id = resultIdOf(doc.uri);
        if (id !== undefined && !results.get(id) && doc.lineCount > 1) this.changed.fire(doc.uri);
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const stored = this.results.get(resultIdOf(uri));
    return stored ? transcriptMarkdown(stored) : vscode.l10n.t('This transcript is no longer available.');
  }

  dispose(): void {
    this.subscriptions.forEach(s => s.dispose());
    this.changed.dispose();
  }
}

function resultIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === TRANSCRIPT_SCHEME ? uri.path.split('/')[1] : undefined;
}

export async function openTranscript(stored: StoredResult): Promise<vscode.Uri> {
  const name = stored.result.prompt.invocationName.replace(/[^A-Za-z0-9_.-]/g, '_');
  const uri = vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${stored.id}/${name}.md` });
  await vscode.commands.executeCommand('markdown.showPreview', uri);
  return uri;
}

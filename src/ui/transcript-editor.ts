// The transcript outside chat: a read-only markdown document (same rendering rules as chat: roles,
// images inline as data: URIs, audio/blobs as files, resources through our read-only scheme), opened
// in VS Code's markdown preview, which renders untrusted content without scripts.
import * as vscode from 'vscode';
import { codeSpan, escapeLabel, transcriptToMarkdown, MarkdownLabels } from '../core/markdown';
import { BoundedMap } from '../core/bounded';
import type { Part } from '../core/content';
import type { StoredResult } from '../state';
import { embeddedResourceUri, mediaUri, resourceLinkUri } from '../resources';

export const TRANSCRIPT_SCHEME = 'mcp-prompts-transcript';
const INLINE_IMAGE_LIMIT = 5 * 1024 * 1024;
/** Transcript texts kept for reopening (an inlined 5 MB image is 7 MB of text): the newest few. */
const KEPT_TEXTS = 50;
const KEPT_TEXT_CHARS = 16 * 1024 * 1024;

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

export class TranscriptProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new BoundedMap<string>(KEPT_TEXTS, KEPT_TEXT_CHARS);
  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This transcript is no longer available.');
  }
}

export async function openTranscript(provider: TranscriptProvider, stored: StoredResult): Promise<vscode.Uri> {
  const name = stored.result.prompt.invocationName.replace(/[^A-Za-z0-9_.-]/g, '_');
  const uri = vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${stored.id}/${name}.md` });
  provider.set(uri, transcriptMarkdown(stored));
  await vscode.commands.executeCommand('markdown.showPreview', uri);
  return uri;
}

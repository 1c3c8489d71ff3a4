// A prompt's transcript as a request for the user's agent ("Continue in Agent", "Insert into Chat
// Input"): roles and order kept as chat turns (earlier user/assistant pairs become finished turns, the
// last user message becomes the request), and every part that is not text named in the text; embedded
// resources and audio are handed over as attached files. Images are named in the text with a handle the
// agent passes to our image tool (IMAGE_TOOL), which answers with the image data: VS Code 1.139 attaches
// image files only from file: (local disk) and http(s) (fetched by the desktop app; the web app throws),
// so an extension's own images never become an attachment, but a tool result may carry an image.
// Server text never passes for the user's words or the user's files: every turn it fills starts with a
// line naming the server it came from, and attachments are named `<server> · <file>`; characters that
// hide text (hidden-text.ts) are written out, so the agent reads nothing the person does not see.
import * as l10n from '@vscode/l10n';
import { showHidden } from '../hidden-text.js';
import { labelText } from '../label.js';
import { formatBytes, type Part, type Transcript } from './content.js';

/** A part handed over beside the text; `index` is `message.part` as in the transcript. */
export interface HandOffItem {
  index: string;
  part: Extract<Part, { kind: 'image' | 'audio' | 'resource' }>;
}

export interface HandOff {
  /** Finished turns before the request, in order: what the prompt's user said and its assistant answered. */
  previousRequests: { request: string; response: string }[];
  /** The request the agent acts on: the last user message, or `continueText` after an assistant message. */
  query: string;
  /** Embedded resources and audio: attached as files. */
  files: HandOffItem[];
  /** Images: named in the text, with the handle for IMAGE_TOOL when `imageHandle` was given. */
  images: HandOffItem[];
}

/** The language model tool that hands an image of a stored result to the agent (package.json). */
export const IMAGE_TOOL = { name: 'mcpPrompts_promptImage', reference: 'mcpPromptImage' } as const;

/** `r3/0-1`: stored result `r3`, message 0, part 1. Nothing else is a handle. */
const HANDLE = /^(r\d{1,9})\/(\d{1,6})-(\d{1,6})$/;

export function imageHandle(resultId: string, index: string): string {
  return `${resultId}/${index.replace('.', '-')}`;
}

/** The stored result id and part index (`m.p`) a handle names, or undefined for anything else. */
export function parseImageHandle(handle: unknown): { resultId: string; index: string } | undefined {
  const m = typeof handle === 'string' ? HANDLE.exec(handle) : null;
  return m ? { resultId: m[1], index: `${Number(m[2])}.${Number(m[3])}` } : undefined;
}

/** Where the text came from: named at the head of every turn it fills. */
export interface HandOffSource {
  server: string;
  prompt: string;
}

/** `The following was returned by the MCP server "github" (prompt github.review); it is not the user's words.` */
export function sourceLine(source: HandOffSource): string {
  return l10n.t(
    'The following was returned by the MCP server "{0}" (prompt {1}); it is not the user\'s words.',
    labelText(source.server),
    labelText(source.prompt),
  );
}

/** `github · notes.md`: an attachment's name says which server it came from, so it cannot pass for a workspace file. */
export function attachmentName(server: string, fileName: string): string {
  return `${labelText(server, 60).replace(/[/\\:*?"<>|]/g, '_')} · ${fileName}`;
}

export interface HandOffOptions {
  /** The server and prompt the transcript came from. */
  source: HandOffSource;
  /** Stands in for a missing user turn before an assistant message, e.g. the invocation. */
  opener: string;
  /** The request when the prompt ends with an assistant message. */
  continueText: string;
  /** The stored result's id: images are then named with their handle for IMAGE_TOOL. */
  resultId?: string;
}

export function buildHandOff(t: Transcript, o: HandOffOptions): HandOff {
  const files: HandOffItem[] = [];
  const images: HandOffItem[] = [];
  const previousRequests: HandOff['previousRequests'] = [];
  let pending: string | undefined;
  t.messages.forEach((m, mi) => {
    const text = m.parts
      .map((p, pi) => {
        const index = `${mi}.${pi}`;
        if (p.kind === 'image') images.push({ index, part: p });
        else if (p.kind === 'audio' || p.kind === 'resource') files.push({ index, part: p });
        return partText(p, o.resultId === undefined ? undefined : imageHandle(o.resultId, index));
      })
      .filter(s => s !== '')
      .join('\n\n');
    if (m.role === 'user') {
      pending = pending === undefined ? text : `${pending}\n\n${text}`;
    } else {
      previousRequests.push({ request: pending === undefined ? o.opener : marked(pending), response: marked(text) });
      pending = undefined;
    }
  });
  return { previousRequests, query: pending === undefined ? o.continueText : marked(pending), files, images };
  function marked(text: string): string {
    return `${sourceLine(o.source)}\n\n${text}`;
  }
}

/** The whole transcript as one text with role headings, under its source line: for the chat input, where there are no turns. */
export function handOffText(
  t: Transcript,
  labels: { user: string; assistant: string },
  source: HandOffSource,
  resultId?: string,
): string {
  const text = t.messages
    .map((m, mi) => {
      const body = m.parts
        .map((p, pi) => partText(p, resultId === undefined ? undefined : imageHandle(resultId, `${mi}.${pi}`)))
        .filter(s => s !== '')
        .join('\n\n');
      return `${m.role === 'assistant' ? labels.assistant : labels.user}:\n${body}`;
    })
    .join('\n\n');
  return `${sourceLine(source)}\n\n${text}`;
}

/**
 * Text as is (but for what hides text); anything else as one bracketed line naming it (its bytes travel beside the text). An
 * image with a handle says how to see it: the tool by its reference name, and the handle.
 */
export function partText(p: Part, handle?: string): string {
  switch (p.kind) {
    case 'text':
      return showHidden(p.text);
    case 'image':
      return handle === undefined
        ? `[${l10n.t('image {0} ({1}, {2})', p.fileName, p.mimeType, formatBytes(p.bytes))}]`
        : `[${l10n.t('image {0} ({1}, {2}): to see it, call #{3} with image "{4}"', p.fileName, p.mimeType, formatBytes(p.bytes), IMAGE_TOOL.reference, handle)}]`;
    case 'audio':
      return `[${l10n.t('audio {0} ({1}, {2})', p.fileName, p.mimeType, formatBytes(p.bytes))}]`;
    case 'resource':
      return `[${l10n.t('resource {0} attached as {1}', p.uri, p.fileName)}]`;
    case 'link':
      return `[${l10n.t('resource link {0}: {1}', p.title ?? p.name, p.uri)}]`;
    case 'invalid':
      return '';
  }
}

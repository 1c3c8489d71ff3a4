// A prompt's transcript as a request for the user's agent ("Continue in Agent", "Insert into Chat
// Input"): roles and order kept as chat turns (earlier user/assistant pairs become finished turns, the
// last user message becomes the request), and every part that is not text named in the text; embedded
// resources and audio are handed over as attached files. Images stay named in the text only: VS Code
// 1.139 attaches files from an extension's own scheme, but drops image files from any scheme but file:.
import * as l10n from '@vscode/l10n';
import { formatBytes, type Part, type Transcript } from './content.js';

/** A part handed over beside the text; `index` is `message.part` as in the transcript. */
export interface HandOffItem { index: string; part: Extract<Part, { kind: 'image' | 'audio' | 'resource' }> }

export interface HandOff {
  /** Finished turns before the request, in order: what the prompt's user said and its assistant answered. */
  previousRequests: { request: string; response: string }[];
  /** The request the agent acts on: the last user message, or `continueText` after an assistant message. */
  query: string;
  /** Embedded resources and audio: attached as files. */
  files: HandOffItem[];
  /** Images: named in the text (VS Code takes no image attachment from an extension's scheme). */
  images: HandOffItem[];
}

export interface HandOffOptions {
  /** Stands in for a missing user turn before an assistant message, e.g. the invocation. */
  opener: string;
  /** The request when the prompt ends with an assistant message. */
  continueText: string;
}

export function buildHandOff(t: Transcript, o: HandOffOptions): HandOff {
  const files: HandOffItem[] = [];
  const images: HandOffItem[] = [];
  const previousRequests: HandOff['previousRequests'] = [];
  let pending: string | undefined;
  t.messages.forEach((m, mi) => {
    const text = m.parts.map((p, pi) => {
      const index = `${mi}.${pi}`;
      if (p.kind === 'image') images.push({ index, part: p });
      else if (p.kind === 'audio' || p.kind === 'resource') files.push({ index, part: p });
      return partText(p);
    }).filter(s => s !== '').join('\n\n');
    if (m.role === 'user') {
      pending = pending === undefined ? text : `${pending}\n\n${text}`;
    } else {
      previousRequests.push({ request: pending ?? o.opener, response: text });
      pending = undefined;
    }
  });
  return { previousRequests, query: pending ?? o.continueText, files, images };
}

/** The whole transcript as one text with role headings: for the chat input, where there are no turns. */
export function handOffText(t: Transcript, labels: { user: string; assistant: string }): string {
  return t.messages.map(m => {
    const body = m.parts.map(partText).filter(s => s !== '').join('\n\n');
    return `${m.role === 'assistant' ? labels.assistant : labels.user}:\n${body}`;
  }).join('\n\n');
}

/** Text as is; anything else as one bracketed line naming it (its bytes travel beside the text). */
export function partText(p: Part): string {
  switch (p.kind) {
    case 'text': return p.text;
    case 'image': return `[${l10n.t('image {0} ({1}, {2})', p.fileName, p.mimeType, formatBytes(p.bytes))}]`;
    case 'audio': return `[${l10n.t('audio {0} ({1}, {2})', p.fileName, p.mimeType, formatBytes(p.bytes))}]`;
    case 'resource': return `[${l10n.t('resource {0} attached as {1}', p.uri, p.fileName)}]`;
    case 'link': return `[${l10n.t('resource link {0}: {1}', p.title ?? p.name, p.uri)}]`;
    case 'invalid': return '';
  }
}

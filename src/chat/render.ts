// A prompt's messages in the chat response, roles kept. Server text goes in untrusted markdown
// (no HTML, no command links); images inline as data: URIs (the only source that renders in a remote
// host); audio, blobs, embedded and linked resources as anchors the user opens with one click, all
// served from memory by our read-only providers (nothing is written to disk).
import * as vscode from 'vscode';
import { audienceOf, formatBytes, Part } from '../core/render/content';
import { showHidden } from '../core/hidden-text';
import { escapeLabel } from '../core/render/markdown';
import type { StoredResult } from '../core/run/records/result-store';
import { embeddedResourceUri, mediaUri, resourceLinkUri } from '../resources';

/** Larger images are linked (served from memory by mcp-prompts-media:) instead of inlined: chat history keeps every inlined byte. */
const INLINE_IMAGE_LIMIT = 2 * 1024 * 1024;

export function untrusted(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** Our own headings: theme icons render everywhere (emoji need a font the machine may lack). */
export function heading(icon: string, text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(`#### $(${icon}) ${escapeLabel(text)}\n\n`, true);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

export function roleLabel(role: 'user' | 'assistant'): string {
  return role === 'assistant' ? vscode.l10n.t('Assistant') : vscode.l10n.t('User');
}

export function renderTranscript(stream: vscode.ChatResponseStream, stored: StoredResult): void {
  const { transcript, result } = stored;
  const p = result.prompt.prompt;
  stream.markdown(
    untrusted(
      `**${escapeLabel(p.title ?? p.name)}** · \`${result.prompt.invocationName}\`${transcript.description ? ` — ${escapeLabel(transcript.description)}` : ''}\n\n`,
    ),
  );
  for (let mi = 0; mi < transcript.messages.length; mi++) {
    const m = transcript.messages[mi];
    stream.markdown(heading(m.role === 'assistant' ? 'hubot' : 'account', roleLabel(m.role)));
    for (let pi = 0; pi < m.parts.length; pi++) {
      renderPart(stream, m.parts[pi], stored, `${mi}.${pi}`);
    }
  }
}

function renderPart(stream: vscode.ChatResponseStream, part: Part, stored: StoredResult, index: string): void {
  if (audienceOf(part) === 'assistant') stream.markdown(untrusted(`*${vscode.l10n.t('For the assistant only:')}*\n\n`));
  switch (part.kind) {
    case 'text':
      stream.markdown(untrusted(part.text + '\n\n'));
      return;
    case 'image':
      if (part.bytes <= INLINE_IMAGE_LIMIT) {
        stream.markdown(untrusted(`![${part.fileName}](data:${part.mimeType};base64,${part.data})\n\n`));
      } else {
        fileLine(stream, 'file-media', mediaUri(stored.id, index, part), [part.mimeType, formatBytes(part.bytes)]);
      }
      return;
    case 'audio': {
      const duration =
        part.durationSeconds !== undefined ? vscode.l10n.t('{0} s', part.durationSeconds.toFixed(1)) : undefined;
      fileLine(stream, 'unmute', mediaUri(stored.id, index, part), [part.mimeType, duration, formatBytes(part.bytes)]);
      return;
    }
    case 'resource': {
      const uri =
        part.text !== undefined ? embeddedResourceUri(stored.id, index, part) : mediaUri(stored.id, index, part);
      fileLine(stream, 'file', uri, [
        part.mimeType ?? (part.text !== undefined ? 'text' : 'binary'),
        formatBytes(part.bytes),
        part.uri,
      ]);
      return;
    }
    case 'link':
      fileLine(stream, 'link', resourceLinkUri(stored.result.prompt.server.id, part), [
        part.title ?? part.name,
        part.description,
        part.uri,
      ]);
      return;
    case 'invalid':
      stream.markdown(untrusted(`⚠️ *${escapeLabel(vscode.l10n.t('Not shown: {0}', part.reason))}*\n\n`));
      return;
  }
}

/** `$(icon) [file] — detail · detail`: VS Code shows an anchor by its file name, so details follow as text. */
function fileLine(
  stream: vscode.ChatResponseStream,
  icon: string,
  uri: vscode.Uri,
  details: (string | undefined)[],
): void {
  const md = new vscode.MarkdownString(`$(${icon}) `, true);
  md.isTrusted = false;
  stream.markdown(md);
  stream.anchor(uri);
  stream.markdown(untrusted(` — ${escapeLabel(details.filter(Boolean).join(' · '))}\n\n`));
}

/**
 * The transcript as language-model messages: images as image data, the rest described as text; what
 * hides text in the server's text is written out (hidden-text.ts), as the agent's tools hand it over.
 */
export function toModelMessages(stored: StoredResult): vscode.LanguageModelChatMessage[] {
  return stored.transcript.messages.map(m => {
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart)[] = [];
    for (const part of m.parts) {
      switch (part.kind) {
        case 'text':
          parts.push(new vscode.LanguageModelTextPart(showHidden(part.text)));
          break;
        case 'image':
          if (m.role === 'user')
            parts.push(vscode.LanguageModelDataPart.image(Buffer.from(part.data, 'base64'), part.mimeType));
          else parts.push(new vscode.LanguageModelTextPart(`[image ${part.fileName}, ${part.mimeType}]`));
          break;
        case 'audio':
          parts.push(
            new vscode.LanguageModelTextPart(
              `[audio ${part.fileName}, ${part.mimeType}${part.durationSeconds !== undefined ? `, ${part.durationSeconds.toFixed(1)} s` : ''}]`,
            ),
          );
          break;
        case 'resource':
          parts.push(
            new vscode.LanguageModelTextPart(
              part.text !== undefined
                ? `Resource ${part.uri}:\n\n${showHidden(part.text)}`
                : `[binary resource ${part.uri}, ${part.mimeType ?? 'application/octet-stream'}, ${part.bytes} bytes]`,
            ),
          );
          break;
        case 'link':
          parts.push(new vscode.LanguageModelTextPart(`[resource link ${part.title ?? part.name}: ${part.uri}]`));
          break;
        case 'invalid':
          break;
      }
    }
    if (!parts.length) parts.push(new vscode.LanguageModelTextPart(''));
    return m.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(
          parts.filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart),
        )
      : vscode.LanguageModelChatMessage.User(parts);
  });
}

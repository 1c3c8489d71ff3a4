// A prompt's transcript as the get tool's result for the agent: one line naming the server it came from,
// then the messages in order with their roles, written by the same markdown rules as Copy as Markdown
// (server HTML escaped, resources as text or links), images (and, where the host takes them, audio) as data
// where they stood. Bounded, so a server cannot fill the model's context: text is cut at MAX_TOOL_TEXT_CHARS,
// images and audio past MAX_TOOL_IMAGES are only named.
import * as l10n from '@vscode/l10n';
import type { Transcript } from './content.js';
import { sourceLine, type HandOffSource } from './agent-request.js';
import { partToMarkdown, escapeLine, type MarkdownLabels } from './markdown.js';
import { audienceOf } from './content.js';
import { labelText } from '../label.js';

export type ToolResultPart =
  { kind: 'text'; text: string } | { kind: 'image' | 'audio'; mimeType: string; data: string };

/** Characters of text the result carries: a long prompt fits, a flood does not. */
export const MAX_TOOL_TEXT_CHARS = 200_000;
/** Images (and audio) handed over as data; later ones are named in the text only. */
export const MAX_TOOL_IMAGES = 8;

export function toolResultParts(
  t: Transcript,
  source: HandOffSource,
  labels: MarkdownLabels,
  maxChars = MAX_TOOL_TEXT_CHARS,
  /** Audio as data too (an MCP tool result can carry it; a VS Code tool result is given images only). */
  audio = false,
): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  let text: string[] = [sourceLine(source), ''];
  let chars = 0;
  let cut = false;
  let images = 0;
  const add = (block: string) => {
    if (cut) return;
    if (chars + block.length > maxChars) {
      text.push(
        block.slice(0, Math.max(0, maxChars - chars)),
        '',
        l10n.t('[The rest of the text from {0} was cut at {1} characters.]', labelText(source.server), maxChars),
      );
      cut = true;
      return;
    }
    chars += block.length;
    text.push(block, '');
  };
  if (t.description) add(`> ${escapeLine(t.description.replace(/\s+/g, ' ').trim())}`);
  t.messages.forEach((m, mi) => {
    add(`### ${m.role === 'assistant' ? labels.assistant : labels.user}`);
    m.parts.forEach((p, pi) => {
      if (audienceOf(p) === 'assistant') add(`*${labels.forAssistant}*`);
      add(partToMarkdown(p, `${mi}.${pi}`, { labels }));
      if ((p.kind === 'image' || (audio && p.kind === 'audio')) && !cut && images < MAX_TOOL_IMAGES) {
        images++;
        parts.push({ kind: 'text', text: text.join('\n') });
        parts.push({ kind: p.kind, mimeType: p.mimeType, data: p.data });
        text = [''];
      }
    });
  });
  parts.push({ kind: 'text', text: text.join('\n').trimEnd() });
  return parts;
}

// A prompt's transcript as the get tool's result for the agent: one line naming the server it came from,
// then the messages in order with their roles, written by the same markdown rules as Copy as Markdown
// (server HTML escaped, resources as text or links), images (and, where the host takes them, audio) as data
// where they stood. Characters that hide text (hidden-text.ts) are written out, so the model reads nothing a
// person looking at the text would not see. Bounded, so a server cannot fill the model's context: text is
// cut at MAX_TOOL_TEXT_CHARS, before it is written as markdown (a 30 MB text costs what its first 200,000
// characters cost), and images and audio past MAX_TOOL_IMAGES are only named.
import * as l10n from '@vscode/l10n';
import type { Part, Transcript } from './content.js';
import { sourceLine, type HandOffSource } from './agent-request.js';
import { partToMarkdown, escapeLine, type MarkdownLabels } from './markdown.js';
import { audienceOf } from './content.js';
import { labelText } from '../label.js';
import { showHidden } from '../hidden-text.js';

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
  const text = new BoundedText(sourceLine(source), maxChars, () =>
    l10n.t('[The rest of the text from {0} was cut at {1} characters.]', labelText(source.server), maxChars),
  );
  let images = 0;
  if (t.description) {
    const description = shown(t.description, text.left());
    text.add(`> ${escapeLine(description.text.replace(/\s+/g, ' ').trim())}`, description.more);
  }
  t.messages.forEach((m, mi) => {
    text.add(`### ${m.role === 'assistant' ? labels.assistant : labels.user}`);
    m.parts.forEach((p, pi) => {
      if (audienceOf(p) === 'assistant') text.add(`*${labels.forAssistant}*`);
      if (!text.cut) {
        const part = shownPart(p, text.left());
        text.add(partToMarkdown(part.part, `${mi}.${pi}`, { labels }), part.more);
      }
      if ((p.kind === 'image' || (audio && p.kind === 'audio')) && !text.cut && images < MAX_TOOL_IMAGES) {
        images++;
        parts.push({ kind: 'text', text: text.take() });
        parts.push({ kind: p.kind, mimeType: p.mimeType, data: p.data });
      }
    });
  });
  parts.push({ kind: 'text', text: text.take().trimEnd() });
  return parts;
}

/** The result's text, block by block, up to `max` characters; the block that passes it ends with `cutLine`. */
class BoundedText {
  private lines: string[];
  private chars = 0;
  cut = false;

  constructor(
    first: string,
    private readonly max: number,
    private readonly cutLine: () => string,
  ) {
    this.lines = [first, ''];
  }

  /** What is left of the bound: server text is cut to it before it is written as markdown (which may only grow it). */
  left(): number {
    return this.max - this.chars + 1;
  }

  /** `more`: the block was made from the first part of a longer text. */
  add(block: string, more = false): void {
    if (this.cut) return;
    if (more || this.chars + block.length > this.max) {
      this.lines.push(block.slice(0, Math.max(0, this.max - this.chars)), '', this.cutLine());
      this.cut = true;
      return;
    }
    this.chars += block.length;
    this.lines.push(block, '');
  }

  /** The text written since the last take (a media part stands between the two). */
  take(): string {
    const text = this.lines.join('\n');
    this.lines = [''];
    return text;
  }
}

/**
 * At most `max` characters of server text (a pair of surrogates is not split), its hidden characters
 * written out; `more`: the text went on.
 */
function shown(text: string, max: number): { text: string; more: boolean } {
  let end = Math.min(text.length, Math.max(0, max));
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1] ?? '')) end--;
  return { text: showHidden(text.slice(0, end)), more: end < text.length };
}

/** A part's server text as the model may read it: no more than is left of the bound, nothing hidden. */
function shownPart(p: Part, max: number): { part: Part; more: boolean } {
  if (p.kind === 'text') {
    const { text, more } = shown(p.text, max);
    return { part: { ...p, text }, more };
  }
  if (p.kind === 'resource' && p.text !== undefined) {
    const { text, more } = shown(p.text, max);
    return { part: { ...p, text }, more };
  }
  if (p.kind === 'link' && p.description !== undefined) {
    const { text, more } = shown(p.description, max);
    return { part: { ...p, description: text }, more };
  }
  return { part: p, more: false };
}

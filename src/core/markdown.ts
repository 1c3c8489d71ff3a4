// A transcript as one markdown text: for "Copy as markdown", "Open as document", `.prompt.md` and the
// transcript editor. Server text is quoted verbatim (the reader decides how to render it); the labels
// are localised by the caller.
import { audienceOf, formatBytes, Part, Transcript } from './content.js';

export interface MarkdownLabels {
  user: string;
  assistant: string;
  forAssistant: string;
  notShown: (reason: string) => string;
}

export interface MarkdownOptions {
  labels: MarkdownLabels;
  /** Where a part's file lives (image, audio, blob, text resource, link); undefined: name only. */
  href?: (part: Part, index: string) => string | undefined;
  /** Inline images as data: URIs up to this many bytes. */
  inlineImageBytes?: number;
}

export function transcriptToMarkdown(t: Transcript, o: MarkdownOptions): string {
  const out: string[] = [];
  if (t.description) out.push(`> ${oneLine(t.description)}`, '');
  t.messages.forEach((m, mi) => {
    out.push(`### ${m.role === 'assistant' ? o.labels.assistant : o.labels.user}`, '');
    m.parts.forEach((p, pi) => {
      const index = `${mi}.${pi}`;
      if (audienceOf(p) === 'assistant') out.push(`*${o.labels.forAssistant}*`, '');
      out.push(partToMarkdown(p, index, o), '');
    });
  });
  return out.join('\n').trimEnd() + '\n';
}

export function partToMarkdown(p: Part, index: string, o: MarkdownOptions): string {
  const href = o.href?.(p, index);
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'image':
      if (p.bytes <= (o.inlineImageBytes ?? 0)) return `![${p.fileName}](data:${p.mimeType};base64,${p.data})`;
      return href ? `![${p.fileName}](${href})` : `*${p.fileName} (${p.mimeType}, ${formatBytes(p.bytes)})*`;
    case 'audio': {
      const label = `${p.fileName} (${p.mimeType}${p.durationSeconds !== undefined ? `, ${p.durationSeconds.toFixed(1)} s` : ''}, ${formatBytes(p.bytes)})`;
      return href ? `🔊 [${label}](${href})` : `🔊 ${label}`;
    }
    case 'resource': {
      const head = href ? `📄 [${escapeLabel(p.uri)}](${href})` : `📄 ${escapeLabel(p.uri)}`;
      if (p.text === undefined) return `${head} (${p.mimeType ?? 'binary'}, ${formatBytes(p.bytes)})`;
      const fence = '`'.repeat(Math.max(3, longestRun(p.text, '`') + 1));
      return `${head}\n\n${fence}${fenceLanguage(p.mimeType)}\n${p.text}\n${fence}`;
    }
    case 'link': {
      const label = escapeLabel(p.title ?? p.name);
      const head = href ? `🔗 [${label}](${href})` : `🔗 ${label} <${p.uri}>`;
      return p.description ? `${head} — ${oneLine(p.description)}` : head;
    }
    case 'invalid':
      return `⚠️ *${o.labels.notShown(p.reason)}*`;
  }
}

function fenceLanguage(mimeType?: string): string {
  const m = (mimeType ?? '').split('/')[1] ?? '';
  return /^[a-z0-9+-]+$/i.test(m) && !['plain', 'octet-stream'].includes(m) ? m.replace(/^x-/, '') : '';
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  for (const m of text.matchAll(new RegExp(`\\${ch}+`, 'g'))) best = Math.max(best, m[0].length);
  return best;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Link labels come from servers: no brackets that could end the label early. */
export function escapeLabel(text: string): string {
  return text.replace(/[[\]\\`*_<>]/g, c => `\\${c}`).replace(/\s+/g, ' ').slice(0, 200);
}

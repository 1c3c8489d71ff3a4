// A transcript as one markdown text: for "Copy as markdown", "Open as document", `.prompt.md` and the
// transcript editor. Server text keeps its markdown but never its HTML: a `<!--` would hide everything
// after it in a preview while the model still gets it, so HTML is escaped and shows as text. The labels
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
  if (t.description) out.push(`> ${escapeHtml(oneLine(t.description))}`, '');
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
      return textToMarkdown(p.text);
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
      const head = href ? `🔗 [${label}](${href})` : `🔗 ${label} ${codeSpan(p.uri)}`;
      return p.description ? `${head} — ${escapeHtml(oneLine(p.description))}` : head;
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

/**
 * Server text as markdown that shows all of itself: `<` and `&` outside code are backslash-escaped, so
 * no HTML element, comment or entity is formed (markdown stays markdown). Code (fenced blocks, spans)
 * is literal already and stays as it is; a fence the text leaves open is closed, so it cannot swallow
 * what follows the part.
 */
export function textToMarkdown(text: string): string {
  const out: string[] = [];
  let fence: { ch: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence.ch && marker[1].length >= fence.length && !marker[2].trim())
        fence = undefined;
      out.push(line);
    } else if (marker && !(marker[1][0] === '`' && marker[2].includes('`'))) {
      fence = { ch: marker[1][0], length: marker[1].length };
      out.push(line);
    } else {
      out.push(escapeHtml(line));
    }
  }
  if (fence) out.push(fence.ch.repeat(fence.length));
  return out.join('\n');
}

/** `<` and `&` outside code spans escaped (one line; spans are matched within it, as backtick runs of equal length). */
export function escapeHtml(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      const close = findRun(line, run.length, i + run.length);
      if (close < 0) {
        out += run;
        i += run.length;
        continue;
      }
      out += line.slice(i, close + run.length);
      i = close + run.length;
      continue;
    }
    out += c === '<' || c === '&' ? `\\${c}` : c;
    i++;
  }
  return out;
}

/** Index of the next run of exactly `length` backticks from `from`, or -1. */
function findRun(line: string, length: number, from: number): number {
  const re = /`+/g;
  re.lastIndex = from;
  for (let m = re.exec(line); m; m = re.exec(line)) if (m[0].length === length) return m.index;
  return -1;
}

/** Text as one inline code span, whatever it holds: on one line, fenced by more backticks than it contains. */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Link labels come from servers: no brackets that could end the label early. */
export function escapeLabel(text: string): string {
  // Controls (ESC, C1, bidi overrides) have no business in a label: they show as boxes or reorder the text.
  return text
    .replace(/[[\]\\`*_<>]/g, c => `\\${c}`)
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '')
    .slice(0, 200);
}

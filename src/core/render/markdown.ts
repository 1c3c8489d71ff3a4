// A transcript as one markdown text: for "Copy as markdown", "Open as document", `.prompt.md` and the
// transcript editor. Server text keeps its markdown but never its HTML: a `<!--` would hide everything
// after it in a preview while the model still gets it, so HTML is escaped and shows as text. The labels
// are localised by the caller.
import { audienceOf, formatBytes, Part, Transcript } from './content.js';
import { labelText } from '../label.js';

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
  if (t.description) out.push(`> ${escapeLine(oneLine(t.description))}`, '');
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
      // A file from Windows keeps CRLF: the markdown gets one kind of line ending, as textToMarkdown gives it.
      const text = p.text.replace(/\r\n?/g, '\n');
      return `${head}\n\n${fence}${fenceLanguage(p.mimeType)}\n${text}\n${fence}`;
    }
    case 'link': {
      const label = escapeLabel(p.title ?? p.name);
      const head = href ? `🔗 [${label}](${href})` : `🔗 ${label} ${codeSpan(p.uri)}`;
      return p.description ? `${head} — ${escapeLine(oneLine(p.description))}` : head;
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
 * Server text as markdown that shows all of itself, whatever block or span structure a renderer finds
 * in it. Markdown stays markdown, but no raw HTML (an HTML comment would hide the rest from the reader
 * while the model still gets it; an <img> would be fetched), no link reference definition (it hides its
 * line) and no image (`![](https://…)` is fetched) can form:
 * - line breaks are read as CommonMark reads them (\r, \n, \r\n);
 * - a fenced code block is kept only when its opening fence is not indented (then no list item or block
 *   quote can hold it and end it early, so its lines are code for every renderer) and its info string is
 *   one word, the language (a renderer shows no info string); a fence the text leaves open is closed, so
 *   it cannot swallow what follows the part;
 * - every other line goes through escapeLine(), told which runs of backticks a later line could close.
 */
export function textToMarkdown(text: string): string {
  const out: string[] = [];
  let fence: { ch: string; length: number } | undefined;
  const lines = text.split(/\r\n|\r|\n/);
  const lastLine = lastLineOfRuns(lines);
  for (const [index, line] of lines.entries()) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1][0] === fence.ch && close[1].length >= fence.length) fence = undefined;
      out.push(line);
      continue;
    }
    fence = fenceOpener(line);
    out.push(fence ? line : escapeLine(line, length => (lastLine.get(length) ?? -1) > index));
  }
  if (fence) out.push(fence.ch.repeat(fence.length));
  return out.join('\n');
}

/** For each length of a run of backticks, the last line holding one: a code span may close on a later line. */
function lastLineOfRuns(lines: readonly string[]): Map<number, number> {
  const last = new Map<number, number>();
  lines.forEach((line, index) => {
    for (const [, length] of backtickRunsOf(line)) last.set(length, index);
  });
  return last;
}

/** Each run of backticks of `line`, as [start, length], backslashes or not (inside a code span they escape nothing). */
function* backtickRunsOf(line: string): Generator<[number, number]> {
  for (let i = line.indexOf('`'); i >= 0; i = line.indexOf('`', i)) {
    const length = runLength(line, i);
    yield [i, length];
    i += length;
  }
}

/**
 * The fence a line opens: three or more backticks or tildes, then blanks, at most one word (the
 * language) and blanks. Read without a regex that could try each way of splitting a run of blanks.
 */
function fenceOpener(line: string): { ch: string; length: number } | undefined {
  const ch = line[0];
  if (ch !== '`' && ch !== '~') return undefined;
  const length = runLength(line, 0);
  if (length < 3) return undefined;
  let start = length;
  while (line[start] === ' ' || line[start] === '\t') start++;
  let end = line.length;
  while (end > start && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return /^[\w.+#-]*$/.test(line.slice(start, end)) ? { ch, length } : undefined;
}

/**
 * One line of server text as markdown. It holds no `<` at all (each is `&lt;`): no HTML element,
 * comment or autolink can form whatever a renderer makes of the rest, and a backslash would not do,
 * since a renderer that links bare URLs takes the backslash into the link (`https://x/\<img>` left a raw
 * <img>). No `!` stands before a `[` (no image is fetched), `]:` and runs of `~~~` are escaped (no link
 * reference definition hides the line, no fence opens whose info string is not shown), `&` is `&amp;`.
 * Code spans are paired within the line, as CommonMark pairs them (the next run of backticks of the same
 * length), and kept as they are unless they hold `<` or `![`; a run with no partner on its line is
 * escaped when `closesLater` says a later line could close it, so no span reaches into the next line and
 * pairs differently there (CommonMark spans cross line breaks), and when it could open a fence (three or
 * more, after nothing but indentation and list or quote markers). Any other run stays as it is: nothing
 * can close it, so every renderer shows it as text, and each escaped backtick costs a renderer about 25
 * times a plain character (a line of 6 MB of backtick runs took VS Code's markdown preview 39 s). A span
 * that is not kept shows its text, backticks included.
 */
export function escapeLine(line: string, closesLater: (length: number) => boolean = () => true): string {
  const closer = backtickRuns(line);
  // Where a run of backticks could open a fence: right after the line's indentation and container markers.
  const fenceAt = /^[ \t>*+\-.)0-9]*/.exec(line)![0].length;
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    const next = line[i + 1];
    if (c === '\\' && next !== undefined && !'<&!'.includes(next)) {
      // The text's own escapes stay; before `<`, `&` and `!` the entities below say the same.
      out += c + next;
      i += 2;
    } else if (c === '`' || c === '~') {
      const length = runLength(line, i);
      const close = c === '`' ? closer(length, i + length) : -1;
      if (close >= 0) {
        const span = line.slice(i, close + length);
        out += /<|!\[/.test(span) ? escapeAll(span) : span;
        i = close + length;
      } else if (c === '`') {
        const escaped = closesLater(length) || (length >= 3 && i === fenceAt);
        out += escaped ? '\\`'.repeat(length) : line.slice(i, i + length);
        i += length;
      } else {
        // No fence of tildes opens here, after a list marker or `>` either (backtick runs are escaped above).
        out += length >= 3 ? `\\${line.slice(i, i + length)}` : line.slice(i, i + length);
        i += length;
      }
    } else {
      // A backslash before `<`, `&` or `!` goes (the entity says it); one that ends the line stays.
      out += c === '\\' ? (next === undefined ? c : '') : inertChar(c, next, line[i - 1]);
      i++;
    }
  }
  return out;
}

/** How many times `line[at]` repeats from `at`. */
function runLength(line: string, at: number): number {
  let end = at + 1;
  while (line[end] === line[at]) end++;
  return end - at;
}

/**
 * The line's runs of backticks, found once: `closer(length, from)` is where the first run of exactly
 * `length` backticks at or after `from` starts (-1: none), as CommonMark closes a code span (a backslash
 * escapes nothing inside one). The calls come with growing `from`, so each length's list is walked once:
 * the whole line costs one pass, whatever runs it holds.
 */
function backtickRuns(line: string): (length: number, from: number) => number {
  const starts = new Map<number, number[]>();
  for (const [i, length] of backtickRunsOf(line)) {
    const list = starts.get(length);
    if (list) list.push(i);
    else starts.set(length, [i]);
  }
  const next = new Map<number, number>();
  return (length, from) => {
    const list = starts.get(length);
    if (!list) return -1;
    let k = next.get(length) ?? 0;
    while (k < list.length && list[k] < from) k++;
    next.set(length, k);
    return k < list.length ? list[k] : -1;
  };
}

/** `<`, `&`, `!` before `[` and `:` after `]` as text that starts no markup. */
function inertChar(c: string, next: string | undefined, before?: string): string {
  if (c === '<') return '&lt;';
  if (c === '&') return '&amp;';
  if (c === '!' && (next === '[' || next === '\\')) return '&#33;';
  if (c === ':' && before === ']') return '\\:';
  return c;
}

/** Every ASCII punctuation character escaped: the text shows literally, markdown or not. */
function escapeAll(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, c => (c === '<' || c === '&' ? inertChar(c, undefined) : `\\${c}`));
}

/** Text as one inline code span, whatever it holds: on one line, fenced by more backticks than it contains. */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Server text as a label inside our markdown (a link label, a heading): the label rule, then markdown's
 * own escapes; `<` and `&` as entities (a backslash can be taken into a linked bare URL, see escapeLine).
 */
export function escapeLabel(text: string): string {
  return labelText(text).replace(/[[\]\\`*_<>&]/g, c => (c === '<' ? '&lt;' : c === '&' ? '&amp;' : `\\${c}`));
}

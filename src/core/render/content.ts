// PromptMessage content → neutral parts the surfaces render. Everything from a server is untrusted:
// base64 is checked, media types are checked against an allow-list AND against the bytes, sizes are
// capped, and file names derived from server data can never leave the folder they are written to.
import * as l10n from '@vscode/l10n';
import type { Annotations, EmbeddedResource } from '@modelcontextprotocol/client';
import { ContentBlockSchema } from '@modelcontextprotocol/core';
import type { RawGetResult } from '../protocol/connection/connection.js';

export type Role = 'user' | 'assistant';

export type Part =
  | { kind: 'text'; text: string; annotations?: Annotations }
  | { kind: 'image'; mimeType: string; data: string; bytes: number; fileName: string; annotations?: Annotations }
  | {
      kind: 'audio';
      mimeType: string;
      data: string;
      bytes: number;
      fileName: string;
      durationSeconds?: number;
      annotations?: Annotations;
    }
  | {
      kind: 'resource';
      uri: string;
      mimeType?: string;
      text?: string;
      blob?: string;
      bytes: number;
      fileName: string;
      annotations?: Annotations;
    }
  | {
      kind: 'link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
      annotations?: Annotations;
    }
  | { kind: 'invalid'; reason: string; contentType: string };

export interface TranscriptMessage {
  role: Role;
  parts: Part[];
}
export interface Transcript {
  description?: string;
  messages: TranscriptMessage[];
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const AUDIO_TYPES = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
];
export const MAX_MEDIA_BYTES = 10 * 1024 * 1024;

export function toTranscript(result: RawGetResult): Transcript {
  const messages: TranscriptMessage[] = [];
  for (const raw of result.messages ?? []) {
    const msg = raw as { role?: unknown; content?: unknown } | null;
    const role: Role = msg?.role === 'assistant' ? 'assistant' : 'user';
    const parts = (Array.isArray(msg?.content) ? msg.content : [msg?.content]).map(toPart);
    const last = messages[messages.length - 1];
    // Consecutive messages of one role read as one turn.
    if (last && last.role === role) last.parts.push(...parts);
    else messages.push({ role, parts });
  }
  return { description: typeof result.description === 'string' ? result.description : undefined, messages };
}

/** `{ type: 'text', text }` with no other field. */
function isPlainText(raw: unknown): raw is { type: 'text'; text: string } {
  if (typeof raw !== 'object' || raw === null) return false;
  const { type, text } = raw as { type?: unknown; text?: unknown };
  return type === 'text' && typeof text === 'string' && Object.keys(raw).length === 2;
}

/** One content block from a server as a part; one that cannot be shown is an `invalid` part that says why. */
export function toPart(raw: unknown): Part {
  const type =
    typeof (raw as { type?: unknown } | null)?.type === 'string' ? (raw as { type: string }).type : typeof raw;
  // Media is checked by us first: the SDK schema would only say "malformed" where we can say why.
  const media = raw as { type: string; data?: unknown; mimeType?: unknown; annotations?: Annotations };
  if ((type === 'image' || type === 'audio') && typeof media.data === 'string' && typeof media.mimeType === 'string') {
    return toMediaPart(type, media.data, media.mimeType, media.annotations);
  }
  if (raw === undefined || raw === null)
    return { kind: 'invalid', contentType: 'none', reason: l10n.t('a message without content') };
  // The usual part, plain text and nothing else, is what the schema would make of it: no need to ask it.
  if (isPlainText(raw)) return { kind: 'text', text: raw.text, annotations: undefined };
  const parsed = ContentBlockSchema.safeParse(raw);
  if (!parsed.success) {
    const known = ['text', 'image', 'audio', 'resource', 'resource_link'].includes(type);
    return {
      kind: 'invalid',
      contentType: type,
      reason: known ? l10n.t('malformed {0} content', type) : l10n.t('unsupported content type "{0}"', type),
    };
  }
  const c = parsed.data;
  switch (c.type) {
    case 'text':
      return { kind: 'text', text: c.text, annotations: c.annotations };
    case 'image':
    case 'audio':
      return toMediaPart(c.type, c.data, c.mimeType, c.annotations);
    case 'resource':
      return toResourcePart(c.resource, c.annotations);
    case 'resource_link':
      return {
        kind: 'link',
        uri: c.uri,
        name: c.name,
        title: c.title,
        description: c.description,
        mimeType: c.mimeType,
        size: c.size,
        annotations: c.annotations,
      };
  }
}

/** An embedded resource: its text as it is, or its blob checked (strict base64, at most MAX_MEDIA_BYTES). */
function toResourcePart(r: EmbeddedResource['resource'], annotations: Annotations | undefined): Part {
  if ('text' in r && typeof r.text === 'string') {
    return {
      kind: 'resource',
      uri: r.uri,
      mimeType: r.mimeType,
      text: r.text,
      bytes: Buffer.byteLength(r.text),
      fileName: safeFileName(r.uri, r.mimeType),
      annotations,
    };
  }
  const blob = (r as { blob: string }).blob;
  const bytes = decodeBase64(blob);
  if (!bytes)
    return { kind: 'invalid', contentType: 'resource', reason: l10n.t('resource {0} is not valid base64', r.uri) };
  if (bytes.length > MAX_MEDIA_BYTES)
    return {
      kind: 'invalid',
      contentType: 'resource',
      reason: l10n.t('resource {0} is too large ({1} MB)', r.uri, (bytes.length / 1048576).toFixed(1)),
    };
  // The normalised base64 (no line breaks): what every surface decodes or puts in a data: URI.
  return {
    kind: 'resource',
    uri: r.uri,
    mimeType: r.mimeType,
    blob: bytes.toString('base64'),
    bytes: bytes.length,
    fileName: safeFileName(r.uri, r.mimeType),
    annotations,
  };
}

function toMediaPart(kind: 'image' | 'audio', data: string, declared: string, annotations?: Annotations): Part {
  const allowed = kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES;
  const mimeType = declared.toLowerCase().split(';')[0].trim();
  if (!allowed.includes(mimeType))
    return { kind: 'invalid', contentType: kind, reason: l10n.t('{0} type "{1}" is not supported', kind, declared) };
  const bytes = decodeBase64(data);
  if (!bytes) return { kind: 'invalid', contentType: kind, reason: l10n.t('{0} data is not valid base64', kind) };
  if (bytes.length > MAX_MEDIA_BYTES)
    return {
      kind: 'invalid',
      contentType: kind,
      reason: l10n.t(
        '{0} is too large ({1} MB, limit {2} MB)',
        kind,
        (bytes.length / 1048576).toFixed(1),
        MAX_MEDIA_BYTES / 1048576,
      ),
    };
  const sniffed = sniffMimeType(bytes);
  if (!sniffed || !sameFamily(sniffed, mimeType))
    return {
      kind: 'invalid',
      contentType: kind,
      reason: l10n.t(
        '{0} claims to be {1} but its data is {2}',
        kind,
        mimeType,
        sniffed ?? l10n.t('not a known format'),
      ),
    };
  const fileName = `${kind}${extensionFor(mimeType)}`;
  // Base64 wrapped at 76 columns (MIME style) is valid, but a data: URI with line breaks does not render: keep the normalised text.
  const normalised = bytes.toString('base64');
  if (kind === 'image')
    return { kind: 'image', mimeType, data: normalised, bytes: bytes.length, fileName, annotations };
  return {
    kind: 'audio',
    mimeType,
    data: normalised,
    bytes: bytes.length,
    fileName,
    durationSeconds: wavDuration(bytes),
    annotations,
  };
}

/** Strict base64: the decoded bytes must encode back to the same text (Buffer.from is lenient). */
export function decodeBase64(data: string): Buffer | undefined {
  const clean = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  const bytes = Buffer.from(clean, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== clean.replace(/=+$/, '')) return undefined;
  return bytes;
}

/** The real type from the first bytes, for the formats we display. */
export function sniffMimeType(b: Buffer): string | undefined {
  const ascii = (start: number, end: number) => b.subarray(start, end).toString('latin1');
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(0, 3) === 'ID3' || (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return 'audio/webm';
  return undefined;
}

function sameFamily(sniffed: string, declared: string): boolean {
  const norm = (m: string) =>
    (({ 'audio/x-wav': 'audio/wav', 'audio/wave': 'audio/wav', 'audio/mp3': 'audio/mpeg' }) as Record<string, string>)[
      m
    ] ?? m;
  return norm(sniffed) === norm(declared);
}

function wavDuration(b: Buffer): number | undefined {
  if (b.length < 44 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
    return undefined;
  const byteRate = b.readUInt32LE(28);
  return byteRate > 0 ? Math.max(0, b.length - 44) / byteRate : undefined;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/wave': '.wav',
  'audio/mpeg': '.mp3',
  'audio/mp3': '.mp3',
  'audio/ogg': '.ogg',
  'audio/webm': '.webm',
  'audio/flac': '.flac',
  'text/markdown': '.md',
  'text/plain': '.txt',
  'application/json': '.json',
  'text/html': '.html.txt',
  'text/x-python': '.py',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/typescript': '.ts',
  'text/css': '.css',
  'text/csv': '.csv',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'application/x-yaml': '.yaml',
  'text/yaml': '.yaml',
  'image/svg+xml': '.svg.txt',
  'application/octet-stream': '.bin',
  'application/pdf': '.pdf',
};

export function extensionFor(mimeType: string | undefined): string {
  return (mimeType && EXTENSIONS[mimeType.toLowerCase()]) || '';
}

/**
 * A file name from server data (a URI's last segment) that cannot escape a folder: no separators,
 * no `..`, no leading dot, printable ASCII only, bounded length; the extension follows the mimeType.
 */
export function safeFileName(uri: string, mimeType?: string): string {
  let last: string;
  try {
    last = decodeURIComponent(new URL(uri).pathname.split('/').filter(Boolean).pop() ?? '');
  } catch {
    last = uri.split(/[\\/]/).pop() ?? '';
  }
  let name = last
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .slice(0, 80);
  const ext = extensionFor(mimeType);
  // An HTML or SVG resource must never be saved under a name that a viewer would render.
  name = name.replace(/\.(html?|svg|xhtml)$/i, m => `${m}.txt`);
  if (!name) name = 'resource';
  if (ext && !name.toLowerCase().endsWith(ext)) name = name.replace(/\.[A-Za-z0-9]{1,5}$/, '') + ext;
  return name;
}

/** Language id for a text resource, from its media type (falls back to plaintext). */
export function languageFor(mimeType: string | undefined, uri = ''): string {
  const m = (mimeType ?? '').toLowerCase();
  const byMime: Record<string, string> = {
    'text/markdown': 'markdown',
    'application/json': 'json',
    'text/x-python': 'python',
    'text/javascript': 'javascript',
    'application/javascript': 'javascript',
    'text/typescript': 'typescript',
    'text/css': 'css',
    'text/html': 'html',
    'application/xml': 'xml',
    'text/xml': 'xml',
    'text/yaml': 'yaml',
    'application/x-yaml': 'yaml',
    'text/x-rust': 'rust',
    'text/x-go': 'go',
    'text/x-java': 'java',
    'text/x-sh': 'shellscript',
    'text/csv': 'csv',
  };
  if (byMime[m]) return byMime[m];
  const ext = /\.([A-Za-z0-9]+)$/.exec(uri)?.[1]?.toLowerCase();
  const byExt: Record<string, string> = {
    md: 'markdown',
    json: 'json',
    py: 'python',
    js: 'javascript',
    ts: 'typescript',
    rs: 'rust',
    go: 'go',
    yaml: 'yaml',
    yml: 'yaml',
    sh: 'shellscript',
    html: 'html',
    css: 'css',
  };
  return (ext && byExt[ext]) || 'plaintext';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

/** Who a part is for, from `annotations.audience` (`assistant` only: hidden from the user by default). */
export function audienceOf(part: Part): 'both' | 'user' | 'assistant' {
  const a = 'annotations' in part ? part.annotations?.audience : undefined;
  if (!a || a.length !== 1) return 'both';
  return a[0];
}

// Where server content becomes something VS Code can open: media and blobs written under the
// extension's storage (names from core/content's safeFileName, so nothing escapes it), embedded text
// resources and resource links served read-only through our own URI scheme.
import * as vscode from 'vscode';
import { ReadonlyFileSystem } from './readonly-file-system';
import type { Catalog } from '../core/catalog/catalog';
import type { ResultStore } from '../core/run/records/result-store';
import type { Part } from '../core/render/content';
import { languageFor, safeFileName } from '../core/render/content';

export const RESOURCE_SCHEME = 'mcp-prompts-resource';
/** Read-only bytes of a result's media and blobs, e.g. for links in the transcript editor (markdown refuses file: links). */
export const MEDIA_SCHEME = 'mcp-prompts-media';

/** `mcp-prompts-resource:/<resultId>/<index>/<fileName>` (embedded text) or `/<server>/link/<fileName>?<uri>` (resources/read). */
export class ResourceProvider implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly results: ResultStore,
    private readonly catalog: Catalog,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const [first, second] = uri.path.split('/').filter(Boolean);
    if (second === 'link') return this.readLink(first, decodeURIComponent(uri.query), token);
    const stored = this.results.get(first);
    const part = stored && partAt(stored.transcript, second);
    if (!part || part.kind !== 'resource' || part.text === undefined)
      return vscode.l10n.t('This resource is no longer available. Run the prompt again.');
    return part.text;
  }

  private async readLink(serverId: string, resourceUri: string, token: vscode.CancellationToken): Promise<string> {
    const entry = this.catalog.server(serverId);
    if (!entry) return vscode.l10n.t('Server "{0}" is not configured', serverId);
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const contents = await entry.connection.readResource(resourceUri, { signal: controller.signal });
      return contents
        .map(c => {
          const item = c as { text?: unknown; blob?: unknown; uri?: unknown; mimeType?: unknown };
          if (typeof item.text === 'string') return item.text;
          return vscode.l10n.t(
            '[binary content: {0}]',
            typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream',
          );
        })
        .join('\n\n');
    } catch (err) {
      return (err as Error).message;
    } finally {
      sub.dispose();
    }
  }
}

/** `mcp-prompts-media:/<resultId>/<m-p>/<fileName>`: served from memory, nothing written to disk. */
export class MediaFileSystem extends ReadonlyFileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  constructor(private readonly results: ResultStore) {
    super();
  }

  private bytes(uri: vscode.Uri): Uint8Array | undefined {
    const [id, index] = uri.path.split('/').filter(Boolean);
    const stored = id ? this.results.get(id) : undefined;
    const part = stored && index ? partAt(stored.transcript, index.replace('-', '.')) : undefined;
    if (!part) return undefined;
    if (part.kind === 'image' || part.kind === 'audio') return Buffer.from(part.data, 'base64');
    if (part.kind === 'resource')
      return part.blob !== undefined ? Buffer.from(part.blob, 'base64') : Buffer.from(part.text ?? '', 'utf8');
    return undefined;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const depth = uri.path.split('/').filter(Boolean).length;
    if (depth < 3) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const bytes = this.bytes(uri);
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: 0,
      size: bytes.length,
      permissions: vscode.FilePermission.Readonly,
    };
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const bytes = this.bytes(uri);
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return bytes;
  }
}

/** `name`: the file's name as shown (the path's last part; only the result id and index find the bytes). */
export function mediaUri(
  resultId: string,
  index: string,
  part: Extract<Part, { kind: 'image' | 'audio' | 'resource' }>,
  name = part.fileName,
): vscode.Uri {
  return vscode.Uri.from({ scheme: MEDIA_SCHEME, path: `/${resultId}/${index.replace('.', '-')}/${name}` });
}

export function partAt(transcript: { messages: { parts: Part[] }[] }, index: string): Part | undefined {
  const [m, p] = index.split('.').map(Number);
  return transcript.messages[m]?.parts[p];
}

export function embeddedResourceUri(
  resultId: string,
  index: string,
  part: Extract<Part, { kind: 'resource' }>,
): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${resultId}/${index}/${part.fileName}` });
}

export function resourceLinkUri(serverId: string, part: Extract<Part, { kind: 'link' }>): vscode.Uri {
  return vscode.Uri.from({
    scheme: RESOURCE_SCHEME,
    path: `/${serverId}/link/${safeFileName(part.uri, part.mimeType)}`,
    query: encodeURIComponent(part.uri),
  });
}

export function register(results: ResultStore, catalog: Catalog): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, new ResourceProvider(results, catalog)),
    vscode.workspace.registerFileSystemProvider(MEDIA_SCHEME, new MediaFileSystem(results), {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    // Give opened resources a language from their media type where the file name does not say it.
    vscode.workspace.onDidOpenTextDocument(doc => {
      if (doc.uri.scheme !== RESOURCE_SCHEME || doc.languageId !== 'plaintext') return;
      const [id, index] = doc.uri.path.split('/').filter(Boolean);
      const stored = results.get(id);
      const part = stored && partAt(stored.transcript, index ?? '');
      const lang = part && part.kind === 'resource' ? languageFor(part.mimeType, part.uri) : 'plaintext';
      if (lang !== 'plaintext') void vscode.languages.setTextDocumentLanguage(doc, lang);
    }),
  ];
}

// Add Server… and Import Servers…: write valid entries where VS Code 1.140 keeps servers — the portable
// files (a folder's .mcp.json, the user's $COPILOT_HOME/mcp-config.json), offered first — or in VS Code's
// own .vscode/mcp.json and profile mcp.json, with jsonc-parser's edits, so the user's comments, the
// file's shape, indentation and line endings survive. Secrets written in clear in an imported entry never
// go into a repository file without the user's word: a modal offers `${input:…}` placeholders (VS Code's
// files) or environment references (the portable files, which refuse inputs) instead.
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { parseConfigText, sanitizeServerId, type ConfigFormat, type InputDefinition } from '../core/config/config';
import { chosenPlace, discoveryFiles, homeRelative, userPortableFile } from '../core/config/config-locations';
import { EMPTY_MCP_JSON, EMPTY_PORTABLE_JSON, withServers } from '../core/config/config-text';
import type { Platform } from '../core/platform';
import {
  literalSecrets,
  withEnvironmentReferences,
  withInputPlaceholders,
  type LiteralSecret,
} from '../core/config/import-secrets';
import { labelText } from '../core/label';
import { tokenize } from '../core/run/invocation';
import { fileExists, profileMcpJson } from '../workspace/config-sources';

/**
 * A file servers can be written to: the portable ones VS Code 1.140 writes, or VS Code's own. `user`
 * is the profile mcp.json, `workspace` the first folder's .vscode/mcp.json; `user-portable` the user's
 * mcp-config.json, `workspace-portable` the first folder's .mcp.json.
 */
export const IMPORT_TARGETS = ['user', 'workspace', 'user-portable', 'workspace-portable'] as const;
export type ImportTarget = (typeof IMPORT_TARGETS)[number];

interface ServerFile {
  target: ImportTarget;
  uri: vscode.Uri;
  format: ConfigFormat;
  /** Shown in the list and the message: `.mcp.json`, `~/.copilot/mcp-config.json`, … */
  name: string;
}

/** Where a target is now (undefined: no folder open, or no profile found). */
function serverFile(target: ImportTarget, globalStorageUri: vscode.Uri, platform: Platform): ServerFile | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  switch (target) {
    case 'workspace-portable':
      return (
        folder && { target, uri: vscode.Uri.joinPath(folder.uri, '.mcp.json'), format: 'portable', name: '.mcp.json' }
      );
    case 'user-portable': {
      const file = userPortableFile(platform).path;
      return { target, uri: vscode.Uri.file(file), format: 'portable', name: homeRelative(file, platform) };
    }
    case 'workspace':
      return (
        folder && {
          target,
          uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'),
          format: 'vscode',
          name: '.vscode/mcp.json',
        }
      );
    case 'user': {
      const uri = profileMcpJson(globalStorageUri);
      return uri && { target, uri, format: 'vscode', name: vscode.l10n.t('your profile mcp.json') };
    }
  }
}

/** The list of files to keep servers in, in `order` (the portable files first, as VS Code 1.140 offers them). */
async function pickFile(
  order: readonly ImportTarget[],
  globalStorageUri: vscode.Uri,
  platform: Platform,
  title: string,
  placeHolder?: string,
): Promise<ServerFile | undefined> {
  const detail: Record<ImportTarget, string> = {
    'workspace-portable': vscode.l10n.t('Shared with the repository; VS Code, Copilot CLI and Claude Code read it'),
    'user-portable': vscode.l10n.t('Yours, in every workspace; VS Code and Copilot CLI read it'),
    workspace: vscode.l10n.t('VS Code only; deprecated since VS Code 1.140'),
    user: vscode.l10n.t('VS Code only; deprecated since VS Code 1.140'),
  };
  const items = order
    .map(t => serverFile(t, globalStorageUri, platform))
    .filter((f): f is ServerFile => f !== undefined)
    .map((file, i) => ({
      label: file.name,
      description: i === 0 ? vscode.l10n.t('recommended') : '',
      detail: detail[file.target],
      file,
    }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder }))?.file;
}

/** An entry in the shape of its file: the Copilot CLI's mcp-config.json says `local` and lists its tools. */
function entryFor(file: ServerFile, entry: Record<string, unknown>): Record<string, unknown> {
  if (file.target !== 'user-portable') return entry;
  return { ...entry, ...(entry.type === 'stdio' ? { type: 'local' } : {}), tools: ['*'] };
}

/** Adds entries to the servers (and inputs not declared yet) of `file`, creating it if absent. */
async function writeServers(
  file: ServerFile,
  entries: Record<string, unknown>,
  inputs: readonly InputDefinition[] = [],
): Promise<vscode.Uri> {
  const { uri, format } = file;
  let text = format === 'portable' ? EMPTY_PORTABLE_JSON : EMPTY_MCP_JSON;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    /* created below */
  }
  text = withServers(text, entries, inputs, format, file.target === 'workspace-portable');
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/** Add MCP Server's step 2: the command line of a stdio server, or the URL of an HTTP one. */
function askWhatRuns(kind: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Add MCP Server (2/4)'),
    prompt: kind === 'stdio' ? vscode.l10n.t('Command line') : vscode.l10n.t('URL'),
    placeHolder: kind === 'stdio' ? 'npx -y @modelcontextprotocol/server-everything' : 'http://localhost:3001/mcp',
    validateInput: v => {
      if (!v.trim()) return vscode.l10n.t('Required');
      if (kind === 'http') {
        try {
          const u = new URL(v);
          if (!/^https?:$/.test(u.protocol)) return vscode.l10n.t('Use an http or https URL');
        } catch {
          return vscode.l10n.t('Not a URL');
        }
      }
      return undefined;
    },
  });
}

/** The name of what runs, not of the launcher: `/usr/bin/node server.mjs` suggests "server"; a URL its host. */
function suggestedName(kind: string, words: readonly string[], target: string): string {
  const launchers = ['npx', 'node', 'uvx', 'uv', 'python', 'python3', 'deno', 'bun', 'docker'];
  const program = words.find(w => !w.startsWith('-') && !launchers.includes(path.basename(w))) ?? words[0];
  return sanitizeServerId(
    kind === 'stdio' ? path.basename(program).replace(/\.(m?js|cjs|ts|py)$/, '') : new URL(target).hostname,
  );
}

export async function addServer(globalStorageUri: vscode.Uri, platform: Platform): Promise<void> {
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('Command (stdio)'),
        description: vscode.l10n.t('runs a local process, e.g. npx -y @modelcontextprotocol/server-everything'),
        value: 'stdio',
      },
      {
        label: vscode.l10n.t('HTTP'),
        description: vscode.l10n.t('Streamable HTTP, falling back to SSE'),
        value: 'http',
      },
    ],
    { title: vscode.l10n.t('Add MCP Server (1/4)'), placeHolder: vscode.l10n.t('How does the server run?') },
  );
  if (!kind) return;
  const target = await askWhatRuns(kind.value);
  if (!target) return;
  const words = tokenize(target.trim()).map(t => t.raw.replace(/^(["'])(.*)\1$/, '$2'));
  const suggested = suggestedName(kind.value, words, target);
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add MCP Server (3/4)'),
    prompt: vscode.l10n.t('Name (used as /name.prompt)'),
    value: suggested,
    validateInput: v => (v.trim() ? undefined : vscode.l10n.t('Required')),
  });
  if (!name) return;
  const entry =
    kind.value === 'stdio'
      ? { type: 'stdio', command: words[0], args: words.slice(1) }
      : { type: 'http', url: target.trim() };
  const file = await pickFile(
    ['workspace-portable', 'user-portable', 'workspace', 'user'],
    globalStorageUri,
    platform,
    vscode.l10n.t('Add MCP Server (4/4)'),
    vscode.l10n.t('Where to keep it?'),
  );
  if (!file) return;
  const uri = await writeServers(file, { [name.trim()]: entryFor(file, entry) });
  // Pinned, so it does not replace a preview editor such as the walkthrough the user came from.
  await vscode.window.showTextDocument(uri, { preview: false });
}

/** The files Import offers: Claude Desktop's and Cursor's, each at the place discovery reads it (chosenPlace). */
async function importSources(platform: Platform): Promise<{ label: string; path: string }[]> {
  const off = { claudeDesktop: false, claudeCode: false, cursor: false, windsurf: false };
  const label = { claudeDesktop: 'Claude Desktop', cursor: 'Cursor' } as const;
  const files = discoveryFiles({ platform, folders: [] }, { ...off, claudeDesktop: true, cursor: true });
  return Promise.all(
    files.map(async f => ({ label: label[f.source as keyof typeof label], path: await chosenPlace(f, fileExists) })),
  );
}

/** Import's first step: another client's file, or one the person chooses. */
async function chooseImportFile(platform: Platform): Promise<vscode.Uri | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      ...(await importSources(platform)).map(s => ({
        label: s.label,
        description: s.path,
        uri: vscode.Uri.file(s.path),
      })),
      { label: vscode.l10n.t('Choose a file…'), description: '', uri: undefined },
    ],
    { title: vscode.l10n.t('Import MCP Servers') },
  );
  if (!choice) return undefined;
  return choice.uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] } }))?.[0];
}

/** The servers a file to import names, and their entries as written; a message says why there are none. */
async function readImportFile(
  file: vscode.Uri,
): Promise<{ names: string[]; raw: Record<string, unknown> } | undefined> {
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    void vscode.window.showErrorMessage(vscode.l10n.t('Cannot read {0}', file.fsPath));
    return undefined;
  }
  try {
    const names = parseConfigText(text, 'import', path.basename(file.fsPath)).servers.map(s => s.name);
    const value = jsonc.parse(text) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
    if (!names.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} has no servers', file.fsPath));
      return undefined;
    }
    return { names, raw: value.mcpServers ?? value.servers ?? {} };
  } catch (err) {
    void vscode.window.showErrorMessage((err as Error).message);
    return undefined;
  }
}

/** What to do with secrets written in clear when the target is a repository file. */
export type SecretsChoice = 'placeholders' | 'literal';

export interface ImportOptions {
  /** Skips the question (tests, or a command that names it). */
  target?: ImportTarget;
  /** Skips the warning about secrets in clear (`placeholders` needs none; `literal` only after a warning of the caller's own). */
  secrets?: SecretsChoice;
}

/** `file` skips the dialogs for the file and the servers (tests, or a file the user named). */
export async function importServers(
  globalStorageUri: vscode.Uri,
  platform: Platform,
  file?: vscode.Uri,
  options: ImportOptions = {},
): Promise<number> {
  const named = file !== undefined;
  file ??= await chooseImportFile(platform);
  if (!file) return 0;
  const read = await readImportFile(file);
  if (!read) return 0;
  const { names, raw } = read;
  const picked = named
    ? names
    : ((await vscode.window.showQuickPick(names, { canPickMany: true, title: vscode.l10n.t('Servers to import') })) ??
      []);
  const entries: Record<string, unknown> = {};
  for (const n of picked) {
    const e = raw[n] as Record<string, unknown>;
    entries[n] = { type: e.type ?? (e.url ? 'http' : 'stdio'), ...e };
  }
  if (!Object.keys(entries).length) return 0;
  // Servers from another client's global file are the user's own, not the repository's: theirs first.
  const into = options.target
    ? serverFile(options.target, globalStorageUri, platform)
    : await pickFile(
        ['user-portable', 'user', 'workspace-portable', 'workspace'],
        globalStorageUri,
        platform,
        vscode.l10n.t('Import the servers into…'),
      );
  if (!into) {
    if (options.target)
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: workspace servers are kept in it.'));
    return 0;
  }
  return writeImported(into, entries, options.secrets);
}

/** The picked entries written into `into`: refused there, placeholders for their secrets, or as they are. */
async function writeImported(
  into: ServerFile,
  entries: Record<string, unknown>,
  secretsChoice: SecretsChoice | undefined,
): Promise<number> {
  const input =
    into.format === 'portable' &&
    Object.entries(entries)
      .map(([name, e]) => [name, /\$\{input:[^}]*\}/.exec(JSON.stringify(e))?.[0]] as const)
      .find(([, found]) => found);
  if (input) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'Server "{0}": VS Code input variables such as {1} are not supported in {2}. Use environment variable references instead.',
        input[0],
        input[1]!,
        into.name,
      ),
    );
    return 0;
  }
  let inputs: InputDefinition[] = [];
  let variables: string[] = [];
  const secrets = into.target.startsWith('workspace') ? literalSecrets(entries) : [];
  if (secrets.length) {
    const choice = secretsChoice ?? (await askSecrets(secrets, into));
    if (!choice) return 0;
    if (choice === 'placeholders' && into.format === 'portable')
      ({ entries, variables } = withEnvironmentReferences(entries, secrets));
    else if (choice === 'placeholders') ({ entries, inputs } = withInputPlaceholders(entries, secrets));
  }
  const shaped = Object.fromEntries(
    Object.entries(entries).map(([n, e]) => [n, entryFor(into, e as Record<string, unknown>)] as const),
  );
  await writeServers(into, shaped, inputs);
  const count = Object.keys(shaped).length;
  void vscode.window.showInformationMessage(
    variables.length
      ? vscode.l10n.t(
          'Imported {0} servers into {1}. Set {2} in the environment of VS Code.',
          count,
          into.name,
          variables.join(', '),
        )
      : vscode.l10n.t('Imported {0} servers into {1}', count, into.name),
  );
  return count;
}

/**
 * A modal before literal secrets go into a repository file: placeholders (the default: `${input:…}` in
 * VS Code's file, environment references in a portable one), in clear, or nothing.
 */
async function askSecrets(secrets: readonly LiteralSecret[], file: ServerFile): Promise<SecretsChoice | undefined> {
  const portable = file.format === 'portable';
  const placeholders = portable ? vscode.l10n.t('Use Environment Variables') : vscode.l10n.t('Use Input Placeholders');
  const literal = vscode.l10n.t('Write Them in Clear');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('These servers carry secrets written in clear. Write them into {0}?', file.name),
    {
      modal: true,
      detail: [
        ...secrets.map(s => `${labelText(s.server)}: ${labelText(s.field)}`),
        '',
        portable
          ? vscode.l10n.t(
              'Everyone who can read the repository can read this file. References ({0}) keep each secret out: VS Code reads the value from its environment.',
              '${NAME}',
            )
          : vscode.l10n.t(
              'Everyone who can read the repository can read this file. Placeholders ({0}) keep each secret out of it: you are asked for the value once, and VS Code keeps it in its secret storage.',
              '${input:…}',
            ),
      ].join('\n'),
    },
    placeholders,
    literal,
  );
  return choice === placeholders ? 'placeholders' : choice === literal ? 'literal' : undefined;
}

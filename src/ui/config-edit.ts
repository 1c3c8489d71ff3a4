// Add Server… and Import Servers…: write valid entries into .vscode/mcp.json or (imports of the user's
// own servers, by default) the profile's mcp.json, with jsonc-parser's edits, so the user's comments and
// formatting survive. Secrets written in clear in an imported entry never go into a repository file
// without the user's word: a modal offers `${input:…}` placeholders instead.
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { parseConfigText, sanitizeServerId, type InputDefinition } from '../core/config/config';
import { chosenPlace, discoveryFiles } from '../core/config/config-locations';
import { EMPTY_MCP_JSON, withServers } from '../core/config/config-text';
import type { Platform } from '../core/platform';
import { literalSecrets, withInputPlaceholders, type LiteralSecret } from '../core/config/import-secrets';
import { labelText } from '../core/label';
import { tokenize } from '../core/run/invocation';
import { fileExists, profileMcpJson } from '../workspace/config-sources';

export async function mcpJsonUri(): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a folder first: servers are added to its .vscode/mcp.json.'),
    );
    return undefined;
  }
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

/** Adds entries under "servers" (and inputs not declared yet under "inputs") of `uri`, creating the file if absent. */
export async function writeServers(
  uri: vscode.Uri,
  entries: Record<string, unknown>,
  inputs: readonly InputDefinition[] = [],
): Promise<vscode.Uri> {
  let text = EMPTY_MCP_JSON;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    /* created below */
  }
  text = withServers(text, entries, inputs);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

export async function addServer(): Promise<void> {
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
    { title: vscode.l10n.t('Add MCP Server (1/3)'), placeHolder: vscode.l10n.t('How does the server run?') },
  );
  if (!kind) return;
  const target = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add MCP Server (2/3)'),
    prompt: kind.value === 'stdio' ? vscode.l10n.t('Command line') : vscode.l10n.t('URL'),
    placeHolder:
      kind.value === 'stdio' ? 'npx -y @modelcontextprotocol/server-everything' : 'http://localhost:3001/mcp',
    validateInput: v => {
      if (!v.trim()) return vscode.l10n.t('Required');
      if (kind.value === 'http') {
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
  if (!target) return;
  const words = tokenize(target.trim()).map(t => t.raw.replace(/^(["'])(.*)\1$/, '$2'));
  // The name of what runs, not of the launcher: `/usr/bin/node server.mjs` suggests "server".
  const launchers = ['npx', 'node', 'uvx', 'uv', 'python', 'python3', 'deno', 'bun', 'docker'];
  const program = words.find(w => !w.startsWith('-') && !launchers.includes(path.basename(w))) ?? words[0];
  const suggested = sanitizeServerId(
    kind.value === 'stdio' ? path.basename(program).replace(/\.(m?js|cjs|ts|py)$/, '') : new URL(target).hostname,
  );
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add MCP Server (3/3)'),
    prompt: vscode.l10n.t('Name (used as /name.prompt)'),
    value: suggested,
    validateInput: v => (v.trim() ? undefined : vscode.l10n.t('Required')),
  });
  if (!name) return;
  const entry =
    kind.value === 'stdio'
      ? { type: 'stdio', command: words[0], args: words.slice(1) }
      : { type: 'http', url: target.trim() };
  const file = await mcpJsonUri();
  const uri = file && (await writeServers(file, { [name.trim()]: entry }));
  // Pinned, so it does not replace a preview editor such as the walkthrough the user came from.
  if (uri) await vscode.window.showTextDocument(uri, { preview: false });
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

/** Where imported servers go: the user's profile (their own, every workspace) or the workspace's file. */
export type ImportTarget = 'user' | 'workspace';

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
  if (!file) {
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
    if (!choice) return 0;
    file =
      choice.uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] } }))?.[0];
    if (!file) return 0;
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    void vscode.window.showErrorMessage(vscode.l10n.t('Cannot read {0}', file.fsPath));
    return 0;
  }
  let names: string[];
  let raw: Record<string, unknown>;
  try {
    names = parseConfigText(text, 'import', path.basename(file.fsPath)).servers.map(s => s.name);
    const value = jsonc.parse(text) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
    raw = value.mcpServers ?? value.servers ?? {};
  } catch (err) {
    void vscode.window.showErrorMessage((err as Error).message);
    return 0;
  }
  if (!names.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} has no servers', file.fsPath));
    return 0;
  }
  const picked = named
    ? names
    : ((await vscode.window.showQuickPick(names, { canPickMany: true, title: vscode.l10n.t('Servers to import') })) ??
      []);
  let entries: Record<string, unknown> = {};
  for (const n of picked) {
    const e = raw[n] as Record<string, unknown>;
    entries[n] = { type: e.type ?? (e.url ? 'http' : 'stdio'), ...e };
  }
  if (!Object.keys(entries).length) return 0;
  const target = options.target ?? (await askTarget());
  const uri = target === 'user' ? profileMcpJson(globalStorageUri) : target && (await mcpJsonUri());
  if (!uri) return 0;
  let inputs: InputDefinition[] = [];
  const secrets = target === 'workspace' ? literalSecrets(entries) : [];
  if (secrets.length) {
    const choice = options.secrets ?? (await askSecrets(secrets));
    if (!choice) return 0;
    if (choice === 'placeholders') ({ entries, inputs } = withInputPlaceholders(entries, secrets));
  }
  await writeServers(uri, entries, inputs);
  const where = target === 'user' ? vscode.l10n.t('your profile mcp.json') : '.vscode/mcp.json';
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Imported {0} servers into {1}', Object.keys(entries).length, where),
  );
  return Object.keys(entries).length;
}

/** User scope first: servers from another client's global file are the user's own, not the repository's. */
async function askTarget(): Promise<ImportTarget | undefined> {
  const items: (vscode.QuickPickItem & { target: ImportTarget })[] = [
    {
      label: vscode.l10n.t('Your profile (user mcp.json)'),
      description: vscode.l10n.t('recommended'),
      detail: vscode.l10n.t('Your own servers: in every workspace, in no repository'),
      target: 'user',
    },
  ];
  if (vscode.workspace.workspaceFolders?.length)
    items.push({
      label: vscode.l10n.t('This workspace (.vscode/mcp.json)'),
      detail: vscode.l10n.t('Shared with everyone who opens the repository'),
      target: 'workspace',
    });
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Import the servers into…') });
  return pick?.target;
}

/** A modal before literal secrets go into a repository file: placeholders (the default), in clear, or nothing. */
async function askSecrets(secrets: readonly LiteralSecret[]): Promise<SecretsChoice | undefined> {
  const placeholders = vscode.l10n.t('Use Input Placeholders');
  const literal = vscode.l10n.t('Write Them in Clear');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('These servers carry secrets written in clear. Write them into .vscode/mcp.json?'),
    {
      modal: true,
      detail: [
        ...secrets.map(s => `${labelText(s.server)}: ${labelText(s.field)}`),
        '',
        vscode.l10n.t(
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

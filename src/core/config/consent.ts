// Consent to start a workspace-defined server, what the user is shown before they give it, and the
// storage keys that keep secrets and consent apart per definition. A definition is identified by a hash
// of everything it runs, sets or sends, before substitution, and of the folder it came from: any change,
// or another folder at the same path, asks again, and a stored secret never enters the hash.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';
import { labelEnds } from '../label.js';
import type { ServerDefinition } from './config.js';

export type ConsentDecision = 'allowed' | 'denied';
export interface ConsentRecord {
  fingerprint: string;
  decision: ConsentDecision;
}

/** Definitions are never changed once made: each one's hash is computed once (a run keys its history by it). */
const fingerprints = new WeakMap<ServerDefinition, string>();

export function definitionFingerprint(def: ServerDefinition): string {
  let fingerprint = fingerprints.get(def);
  if (fingerprint === undefined) fingerprints.set(def, (fingerprint = hashDefinition(def)));
  return fingerprint;
}

function hashDefinition(def: ServerDefinition): string {
  const t = def.transport;
  const what =
    t.type === 'stdio'
      ? { type: t.type, command: t.command, args: t.args, env: t.env, envFile: t.envFile, cwd: t.cwd }
      : { type: t.type, url: t.url, headers: t.headers, clientId: t.clientId, clientSecret: t.clientSecret };
  // A portable file (.mcp.json) fills `${NAME}` from the environment where VS Code's mcp.json leaves it as
  // written: the same entry moved between them does something else, and asks again.
  if (def.format === 'portable') Object.assign(what, { format: def.format });
  // Without a folder identity (user servers, the CLI) the hash is what it was before there was one.
  const where = def.folderId === undefined ? [def.scope ?? ''] : [def.scope ?? '', def.folderId];
  return createHash('sha256')
    .update(JSON.stringify([...where, def.name, what]))
    .digest('hex');
}

/**
 * Which folder is at a path: its inode and, where the file system keeps one, its creation time. VS Code
 * keys a folder's workspace storage, and with it its own MCP trust, by the path and the inode (Linux) or
 * the creation time (macOS, Windows), so a folder deleted and cloned again is a new workspace. The inode
 * alone is not enough: ext4 gives a folder deleted and made again at once the same inode back. A folder
 * made and filled within one clock tick has a creation time equal to its change time: that is still its
 * creation time, and a file added later (which moves the change time) leaves the identity as it was.
 */
export function folderIdentity(st: { ino: number; birthtimeMs: number }): string {
  return `${st.ino}:${st.birthtimeMs > 0 ? Math.floor(st.birthtimeMs) : 0}`;
}

/** The identity of each folder now (folderIdentity); a folder that cannot be read is left out (its path alone keys it). */
export async function readFolderIdentities(folders: Iterable<string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  await Promise.all(
    [...new Set(folders)].map(folder =>
      stat(folder).then(
        st => void ids.set(folder, folderIdentity(st)),
        () => undefined,
      ),
    ),
  );
  return ids;
}

/** What the user is asked to allow: the command line or the URL, as written in the configuration. */
export function describeLaunch(def: ServerDefinition): string {
  const t = def.transport;
  return t.type === 'stdio' ? [t.command, ...t.args].map(quoteArg).join(' ') : t.url;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a);
}

export function consentKey(def: ServerDefinition): string {
  return `consent:${def.scope ?? def.source}:${def.id}`;
}

/** `allowed`, `denied`, or `ask` when there is no decision for this exact definition. */
export function consentState(def: ServerDefinition, record: ConsentRecord | undefined): ConsentDecision | 'ask' {
  if (!record || record.fingerprint !== definitionFingerprint(def)) return 'ask';
  return record.decision;
}

/**
 * Where a stored `${input:id}` value lives: per input id and per definition that asked for it (its
 * consent fingerprint). A new server in the same repository, a changed one, or another repository cloned
 * to the same path is asked again; the value never goes to a definition the user did not type it for.
 */
export function inputStorageKey(def: ServerDefinition, id: string): string {
  return `input:${definitionFingerprint(def)}:${id}`;
}

/**
 * Environment variables that change how a program loads code (Node, the dynamic linker, Python, Perl,
 * Ruby, Java, shells) or which program a bare command name runs: shown first in the consent dialog.
 */
const LOADER_VARIABLES = new Set([
  'NODE_OPTIONS',
  'NODE_PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'BASH_ENV',
  'ENV',
  'PATH',
  // Windows: which file a bare name runs (`npx` may be `npx.js`) and the shell that runs `.cmd` files.
  'PATHEXT',
  'COMSPEC',
]);

export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return LOADER_VARIABLES.has(upper) || upper.startsWith('DYLD_');
}

/** A value of the definition as written, one line; a longer one shows its start and its end, and how much is between. */
const MAX_VALUE_CHARS = 600;

/** `${env:NAME}` variables a text reads from the user's environment: any name substituteVariables reads. */
function envReads(text: string): string[] {
  return [...text.matchAll(/\$\{env:([^{}:]+)\}/g)].map(m => m[1]);
}

/**
 * What the consent dialog says about a definition: every field that will be run, set or sent, as written
 * (variables not substituted), in this order: variables that change how code loads, then what it reads
 * from the user's environment, then command, arguments, working folder, env, envFile, URL, headers and
 * OAuth client id and secret. Every value follows the label rule (one line, no controls).
 */
export function consentDetail(def: ServerDefinition): string {
  const t = def.transport;
  const value = (v: string) => labelEnds(v, MAX_VALUE_CHARS);
  const warnings: string[] = [];
  const loaders = t.type === 'stdio' ? Object.entries(t.env).filter(([k]) => isLoaderVariable(k)) : [];
  if (loaders.length)
    warnings.push(
      `⚠ ${l10n.t('It sets variables that change which code runs:')}`,
      ...loaders.map(([k, v]) => `    ${value(k)}=${value(v)}`),
    );
  const reads = environmentReads(t);
  if (reads.length)
    warnings.push(
      `⚠ ${l10n.t('It reads from your environment and passes on:')}`,
      ...reads.map(r => `    ${value(r.name)} (${value(r.where)})`),
    );
  return [...warnings, ...(warnings.length ? [''] : []), ...writtenFields(def, value)].join('\n');
}

/** The `${env:…}` variables a transport reads, with the field that reads each, in the order the dialog lists the fields. */
function environmentReads(t: ServerDefinition['transport']): { name: string; where: string }[] {
  const reads: { name: string; where: string }[] = [];
  const note = (text: string, where: string) => reads.push(...envReads(text).map(name => ({ name, where })));
  if (t.type === 'stdio') {
    note(t.command, 'command');
    t.args.forEach(a => note(a, 'args'));
    if (t.cwd) note(t.cwd, 'cwd');
    for (const [k, v] of Object.entries(t.env)) note(v, `env ${k}`);
  } else {
    note(t.url, 'url');
    for (const [k, v] of Object.entries(t.headers)) note(v, `headers ${k}`);
    if (t.clientId !== undefined) note(t.clientId, 'clientId');
    if (t.clientSecret !== undefined) note(t.clientSecret, 'clientSecret');
  }
  return reads;
}

/** The fields that will be run, set or sent, as written, one line each (env and headers one line per entry). */
function writtenFields(def: ServerDefinition, value: (v: string) => string): string[] {
  const t = def.transport;
  const fields: string[] = [];
  if (t.type === 'stdio') {
    const env = Object.entries(t.env);
    fields.push(`${l10n.t('Command:')} ${value(describeLaunch(def))}`);
    fields.push(`${l10n.t('Working folder:')} ${t.cwd === undefined ? l10n.t('the workspace folder') : value(t.cwd)}`);
    if (env.length) fields.push(l10n.t('Environment:'), ...env.map(([k, v]) => `    ${value(k)}=${value(v)}`));
    if (t.envFile !== undefined)
      fields.push(`${l10n.t('Environment file (may set any variable, loaders too):')} ${value(t.envFile)}`);
    return fields;
  }
  const headers = Object.entries(t.headers);
  fields.push(`${l10n.t('URL:')} ${value(t.url)}`);
  if (headers.length) fields.push(l10n.t('Headers:'), ...headers.map(([k, v]) => `    ${value(k)}: ${value(v)}`));
  if (t.clientId !== undefined) fields.push(`${l10n.t('OAuth client:')} ${value(t.clientId)}`);
  // Sent to the token endpoint the server's metadata names, at sign-in and every refresh.
  if (t.clientSecret !== undefined) fields.push(`${l10n.t('OAuth client secret:')} ${value(t.clientSecret)}`);
  return fields;
}

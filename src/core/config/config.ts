// Server definitions from VS Code's mcp.json, the portable files (`.mcp.json`, the Copilot CLI's
// mcp-config.json), the `mcpPrompts.servers` setting, or Claude Desktop / Cursor `mcpServers` files.
// Pure data in, typed definitions out; their variables are filled in by substitute-variables.ts.
import * as jsonc from 'jsonc-parser';
import * as l10n from '@vscode/l10n';

export type ServerSource = 'workspace' | 'user' | 'import';

/**
 * How a file's entries are read. `vscode`: VS Code's mcp.json (`${input:…}`, `${env:…}`,
 * `${workspaceFolder}`). `portable`: the files VS Code 1.140 writes for every Copilot client, the
 * workspace-root `.mcp.json` and `$COPILOT_HOME/mcp-config.json`: `${VAR}` environment references
 * only, and `${input:…}` refused (docs/vscode-versions.md).
 */
export type ConfigFormat = 'vscode' | 'portable';

/** The portable files by their name, as VS Code tells them apart (`isMcpServersConfigurationResource`). */
export const PORTABLE_FILE_NAMES = ['.mcp.json', 'mcp-config.json'] as const;

/** The format of a file from its name: the portable files, else VS Code's. */
export function formatOfFile(fileName: string): ConfigFormat {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return (PORTABLE_FILE_NAMES as readonly string[]).includes(base) ? 'portable' : 'vscode';
}

export interface StdioTransportConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
  cwd?: string;
}

export interface HttpTransportConfig {
  /** `http` tries Streamable HTTP first and falls back to legacy SSE; `sse` goes to SSE directly. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** A pre-registered OAuth client, for authorization servers without dynamic registration. */
  clientId?: string;
  /** Its secret, usually `${input:…}` (a password input); substituted like headers. */
  clientSecret?: string;
}

export interface ServerDefinition {
  /** The name as the user wrote it (the key in `servers`). */
  name: string;
  /** `name` sanitised to `[a-z0-9_-]`, unique within one configuration: the `server` in `server.prompt`. */
  id: string;
  source: ServerSource;
  transport: StdioTransportConfig | HttpTransportConfig;
  /** Per-request timeout in ms (`timeout` in the entry; our own field, ignored by other clients). */
  timeoutMs?: number;
  /** Whose definition this is: `user`, or the workspace folder it came from (keys stored secrets and consent). */
  scope?: string;
  /**
   * Which folder at that path it came from (folderIdentity in consent.ts): a folder deleted and cloned
   * again at the same path is another folder, so its consent and stored inputs are asked again.
   */
  folderId?: string;
  /** Working directory when the entry sets no `cwd` (decided by the trust rules, see server-merge.ts). */
  defaultCwd?: string;
  /** Substituted password input values: redacted from every log line and error of this server. */
  secrets?: string[];
  /** Where it is defined, for the tooltip and the log ("user profile mcp.json", ".vscode/mcp.json", …). */
  origin?: string;
  /** Keys the user's own disable from the tree: the place's stable key and the name (server-merge.ts). */
  disableKey?: string;
  /**
   * The consent fingerprint of the definition as written, before its variables were filled in (set by
   * substituteVariables): keys what belongs to this definition alone, such as its argument history.
   */
  fingerprint?: string;
  /** Read from a portable file: its variables are `${VAR}` environment references (substituteVariables). */
  format?: 'portable';
}

export interface InputDefinition {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

export interface ServerConfig {
  servers: ServerDefinition[];
  inputs: InputDefinition[];
  /** Entries that could not be read; the other servers of the file still load. */
  problems: ConfigError[];
}

/** Longest per-request timeout an entry may set: beyond it a hung server would look like a hung editor. */
export const MAX_TIMEOUT_MS = 10 * 60 * 1000;

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly server?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * JSON with comments, as VS Code reads its own files; a syntax error names the file and the offset. A
 * UTF-8 byte-order mark (Windows PowerShell 5.1 writes one) is no part of the text, as VS Code reads it.
 */
export function parseJsonc(text: string, origin: string): unknown {
  const errors: jsonc.ParseError[] = [];
  const value: unknown = jsonc.parse(text.replace(/^\uFEFF/, ''), errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  if (errors.length) {
    const first = errors[0];
    throw new ConfigError(
      l10n.t('{0}: invalid JSON ({1} at offset {2})', origin, jsonc.printParseErrorCode(first.error), first.offset),
    );
  }
  return value;
}

/** Parses the text of a config file (JSON with comments), in either shape. */
export function parseConfigText(
  text: string,
  source: ServerSource,
  origin = 'mcp.json',
  format: ConfigFormat = 'vscode',
): ServerConfig {
  const value = parseJsonc(text, origin);
  return parseConfigObject(value, source, origin, format);
}

/**
 * Accepts `{servers, inputs}` (VS Code) or `{mcpServers}` (Claude Desktop / Cursor). A portable file
 * keeps its servers under `mcpServers`, or (`.mcp.json`, as VS Code reads it) is the map of servers itself.
 */
export function parseConfigObject(
  value: unknown,
  source: ServerSource,
  origin = 'mcp.json',
  format: ConfigFormat = 'vscode',
): ServerConfig {
  if (!isObject(value)) throw new ConfigError(l10n.t('{0}: expected an object with "servers" or "mcpServers"', origin));
  const raw =
    format === 'portable'
      ? Object.hasOwn(value, 'mcpServers')
        ? value.mcpServers
        : value
      : (value.servers ?? value.mcpServers ?? {});
  if (!isObject(raw)) throw new ConfigError(l10n.t('{0}: "servers" must be an object', origin));
  const inputs = format === 'portable' ? [] : parseInputs(value.inputs, origin);
  const servers: ServerDefinition[] = [];
  const problems: ConfigError[] = [];
  const ids = new Set<string>();
  for (const [name, entry] of Object.entries(raw)) {
    let def: ServerDefinition;
    try {
      def = parseServer(name, entry, source);
      if (format === 'portable') def = portableServer(def, entry, origin);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err);
      continue;
    }
    let id = def.id;
    for (let n = 2; ids.has(id); n++) id = `${def.id}-${n}`;
    ids.add(id);
    servers.push({ ...def, id });
  }
  return { servers, inputs, problems };
}

export function sanitizeServerId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'server';
}

/**
 * A portable entry as VS Code reads it: its environment references are substituted (substituteVariables),
 * and a VS Code input is refused with VS Code's advice, since no one is asked for its value there.
 */
function portableServer(def: ServerDefinition, entry: unknown, origin: string): ServerDefinition {
  const input = /\$\{input:[^}]*\}/.exec(JSON.stringify(entry));
  if (input)
    throw new ConfigError(
      l10n.t(
        'Server "{0}": VS Code input variables such as {1} are not supported in {2}. Use environment variable references instead.',
        def.name,
        input[0],
        origin,
      ),
      def.name,
    );
  return { ...def, format: 'portable' };
}

/** One entry of a file's servers as a definition; what is wrong with it is a ConfigError naming the server. */
function parseServer(name: string, entry: unknown, source: ServerSource): ServerDefinition {
  if (!isObject(entry)) throw new ConfigError(l10n.t('Server "{0}": the entry must be an object', name), name);
  const written = optString(entry, 'type', name) ?? (entry.url !== undefined ? 'http' : 'stdio');
  // The Copilot CLI's word for stdio, which VS Code 1.140 reads and its migration writes.
  const type = written === 'local' ? 'stdio' : written;
  const base = { name, id: sanitizeServerId(name), source, timeoutMs: parseTimeout(entry.timeout, name) };
  if (type === 'stdio') return { ...base, transport: stdioTransport(entry, name) };
  // `streamableHttp` and `streamable-http`: other clients' words for http.
  if (type === 'http' || type === 'sse' || type === 'streamableHttp' || type === 'streamable-http')
    return { ...base, transport: httpTransport(entry, name, type === 'sse' ? 'sse' : 'http') };
  throw new ConfigError(
    l10n.t('Server "{0}": unknown type "{1}" (expected stdio, http or sse)', name, type),
    name,
    'type',
  );
}

/** An entry's `timeout`: a positive number of ms, at most MAX_TIMEOUT_MS. */
function parseTimeout(timeout: unknown, name: string): number | undefined {
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) {
    throw new ConfigError(l10n.t('Server "{0}": "{1}" must be a positive number', name, 'timeout'), name, 'timeout');
  }
  if (timeout !== undefined && timeout > MAX_TIMEOUT_MS) {
    throw new ConfigError(
      l10n.t(
        'Server "{0}": "{1}" is {2} ms; the limit is {3} ms (10 minutes)',
        name,
        'timeout',
        timeout,
        MAX_TIMEOUT_MS,
      ),
      name,
      'timeout',
    );
  }
  return timeout;
}

/** A stdio entry: its command (required), arguments, environment, env file and working directory. */
function stdioTransport(entry: Record<string, unknown>, name: string): StdioTransportConfig {
  const command = optString(entry, 'command', name);
  if (!command) throw new ConfigError(l10n.t('Server "{0}": "{1}" is required', name, 'command'), name, 'command');
  return {
    type: 'stdio',
    command,
    args: optStringArray(entry, 'args', name) ?? [],
    env: optStringRecord(entry, 'env', name) ?? {},
    envFile: optString(entry, 'envFile', name),
    cwd: optString(entry, 'cwd', name),
  };
}

/** An HTTP entry: its URL, headers and a pre-registered OAuth client (a secret needs its id). */
function httpTransport(entry: Record<string, unknown>, name: string, type: 'http' | 'sse'): HttpTransportConfig {
  const url = optString(entry, 'url', name);
  if (!url) throw new ConfigError(l10n.t('Server "{0}": "{1}" is required', name, 'url'), name, 'url');
  const clientId = optString(entry, 'clientId', name);
  const clientSecret = optString(entry, 'clientSecret', name);
  if (clientSecret !== undefined && !clientId)
    throw new ConfigError(l10n.t('Server "{0}": "{1}" is required', name, 'clientId'), name, 'clientId');
  return {
    type,
    url,
    headers: optStringRecord(entry, 'headers', name) ?? {},
    ...(clientId ? { clientId, clientSecret } : {}),
  };
}

function parseInputs(value: unknown, origin: string): InputDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError(l10n.t('{0}: "inputs" must be an array', origin));
  return value
    .filter(isObject)
    .filter(i => typeof i.id === 'string')
    .map(i => ({
      id: i.id as string,
      type: typeof i.type === 'string' ? i.type : 'promptString',
      description: typeof i.description === 'string' ? i.description : undefined,
      password: i.password === true,
      default: typeof i.default === 'string' ? i.default : undefined,
      options: Array.isArray(i.options) ? i.options.filter((o): o is string => typeof o === 'string') : undefined,
    }));
}

/** Reads a dotenv file's `KEY=value` lines (quotes stripped, `#` comments skipped). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let v = m[2];
    if (/^(["']).*\1$/.test(v)) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    out[m[1]] = v;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optString(o: Record<string, unknown>, field: string, server: string): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    throw new ConfigError(l10n.t('Server "{0}": "{1}" must be a string', server, field), server, field);
  return v;
}

function optStringArray(o: Record<string, unknown>, field: string, server: string): string[] | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every(x => typeof x === 'string'))
    throw new ConfigError(l10n.t('Server "{0}": "{1}" must be an array of strings', server, field), server, field);
  return v;
}

function optStringRecord(
  o: Record<string, unknown>,
  field: string,
  server: string,
): Record<string, string> | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v))
    throw new ConfigError(l10n.t('Server "{0}": "{1}" must be an object of strings', server, field), server, field);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
    else if (typeof x === 'string') out[k] = x;
    else if (x !== null)
      throw new ConfigError(
        l10n.t('Server "{0}": "{1}.{2}" must be a string', server, field, k),
        server,
        `${field}.${k}`,
      );
  }
  return out;
}

// The one owner of long-lived extension state: the catalog, per-server logs, the configuration
// sources (workspace mcp.json files and the setting), argument history and recent results.
import * as vscode from 'vscode';
import * as os from 'node:os';
import { Catalog } from './core/catalog';
import { OAuthCallbackServer, StoredOAuthProvider } from './core/oauth';
import { signInCallback } from './core/sign-in';
import { ConfigError, InputDefinition, ServerDefinition, parseConfigObject, parseConfigText, substituteVariables } from './core/config';
import type { LogSink } from './core/log';
import type { InvokeResult } from './core/invocation';
import type { Transcript } from './core/content';

export interface ConfigProblem { origin: string; message: string; server?: string }

export interface StoredResult {
  id: string;
  invocation: string;
  result: InvokeResult;
  transcript: Transcript;
}

const HISTORY_LIMIT = 10;
const RESULTS_LIMIT = 50;

export class ExtensionState implements vscode.Disposable {
  readonly catalog: Catalog;
  private readonly logs = new Map<string, vscode.LogOutputChannel>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly results = new Map<string, StoredResult>();
  private resultCounter = 0;
  /** Servers the configuration names but that may not start (untrusted workspace). */
  blocked: ServerDefinition[] = [];
  problems: ConfigProblem[] = [];
  /** Set by "Send to Model": the id of the stored result the next `@mcp` request of its invocation sends. */
  forceSend?: string;
  lastInvocation?: string;
  private readonly configEmitter = new vscode.EventEmitter<void>();
  readonly onDidLoadConfig = this.configEmitter.event;
  private loading?: Promise<void>;
  private reloadQueued = false;
  private readRetries = 0;

  constructor(readonly context: vscode.ExtensionContext) {
    const version = String(context.extension.packageJSON.version ?? '0.0.0');
    this.catalog = new Catalog({
      start: 'eager',
      connection: def => ({
        log: this.logSink(def),
        clientInfo: { name: 'mcp-prompts-vscode', version },
        defaultCwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
        secrets: secretValues(def),
        oauth: def.transport.type !== 'stdio' && this.oauthRedirect ? new StoredOAuthProvider(`${def.id}:${def.transport.url}`, context.secrets, this.oauthRedirect, 'MCP Prompts for VS Code') : undefined,
      }),
    });
    this.disposables.push(this.configEmitter);
  }

  log(server: ServerDefinition): vscode.LogOutputChannel {
    let channel = this.logs.get(server.id);
    if (!channel) {
      channel = vscode.window.createOutputChannel(vscode.l10n.t('MCP Prompts: {0}', server.name), { log: true });
      this.logs.set(server.id, channel);
    }
    return channel;
  }

  private logSink(def: ServerDefinition): LogSink {
    const channel = () => this.log(def);
    return {
      trace: m => channel().trace(m),
      info: m => channel().info(m),
      warn: m => channel().warn(m),
      error: m => channel().error(m),
      traceEnabled: () => channel().logLevel === vscode.LogLevel.Trace,
    };
  }

  /** Reads all configuration sources and updates the catalog; concurrent calls collapse. */
  reload(): Promise<void> {
    if (this.loading) { this.reloadQueued = true; return this.loading; }
    this.loading = this.readConfig().finally(() => {
      this.loading = undefined;
      if (this.reloadQueued) { this.reloadQueued = false; void this.reload(); }
    });
    return this.loading;
  }

  /** Where the browser returns after an OAuth sign-in: our loopback listener, as the browser reaches it. */
  private oauthRedirect?: string;
  private callbackServer?: OAuthCallbackServer;

  private async prepareOAuthRedirect(): Promise<void> {
    if (this.oauthRedirect) return;
    this.callbackServer ??= new OAuthCallbackServer(signInCallback(this.catalog));
    const port = await this.callbackServer.start();
    // Through VS Code's port mapping: the same address on the desktop, a forwarded one in remote and web windows.
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${port}/oauth/callback`));
    this.oauthRedirect = external.toString(true);
  }

  private async readConfig(): Promise<void> {
    const problems: ConfigProblem[] = [];
    const defs: ServerDefinition[] = [];
    const blocked: ServerDefinition[] = [];
    const trusted = vscode.workspace.isTrusted;
    const add = async (origin: string, load: () => { servers: ServerDefinition[]; inputs: InputDefinition[] }, workspaceFolder?: string) => {
      try {
        const config = load();
        for (const def of config.servers) {
          if (defs.some(d => d.id === def.id)) {
            problems.push({ origin, server: def.name, message: vscode.l10n.t('Server "{0}" is defined twice; the first definition is used', def.name) });
            continue;
          }
          if (!trusted && def.source === 'workspace' && def.transport.type === 'stdio') { blocked.push(def); continue; }
          try {
            defs.push(await substituteVariables(def, { workspaceFolder, userHome: os.homedir(), env: process.env }, config.inputs, (input, id, server) => this.resolveInput(input, id, server)));
          } catch (err) {
            problems.push({ origin, server: def.name, message: err instanceof Error ? err.message : String(err) });
          }
        }
      } catch (err) {
        problems.push({ origin, message: err instanceof ConfigError || err instanceof Error ? err.message : String(err) });
      }
    };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
      let text: string | undefined;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch (err) {
        // Early in a remote window the file system may not answer yet: try again shortly.
        if (!(err instanceof vscode.FileSystemError && err.code === 'FileNotFound') && this.readRetries++ < 10) {
          setTimeout(() => void this.reload(), 1000);
        }
        text = undefined;
      }
      if (text !== undefined) await add(vscode.workspace.asRelativePath(uri), () => parseConfigText(text!, 'workspace', vscode.workspace.asRelativePath(uri)), folder.uri.fsPath);
    }
    const setting = vscode.workspace.getConfiguration('mcpPrompts').get<unknown>('servers');
    if (setting && typeof setting === 'object' && Object.keys(setting).length) {
      await add(vscode.l10n.t('setting {0}', 'mcpPrompts.servers'), () => parseConfigObject({ servers: setting }, 'user', 'mcpPrompts.servers'), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    }
    if (defs.some(d => d.transport.type !== 'stdio')) await this.prepareOAuthRedirect().catch(() => undefined);
    this.problems = problems;
    this.blocked = blocked;
    this.catalog.setServers(defs);
    this.configEmitter.fire();
  }

  /** `${input:id}`: password inputs live in SecretStorage, others in workspace state; asked once. */
  private async resolveInput(input: InputDefinition | undefined, id: string, server: string): Promise<string | undefined> {
    const key = `input:${id}`;
    const stored = input?.password ? await this.context.secrets.get(key) : this.context.workspaceState.get<string>(key);
    if (stored !== undefined) return stored;
    let value: string | undefined;
    if (input?.type === 'pickString' && input.options?.length) {
      value = await vscode.window.showQuickPick(input.options, { title: vscode.l10n.t('{0}: {1}', server, input.description ?? id), ignoreFocusOut: true });
    } else {
      value = await vscode.window.showInputBox({ title: vscode.l10n.t('{0}: {1}', server, input?.description ?? id), value: input?.default, password: input?.password, ignoreFocusOut: true });
    }
    if (value === undefined) return undefined;
    if (input?.password) await this.context.secrets.store(key, value); else await this.context.workspaceState.update(key, value);
    return value;
  }

  /** Arguments of the last failed attempt per prompt: the next attempt starts from them. */
  private readonly drafts = new Map<string, Record<string, string>>();

  draft(invocationName: string): Record<string, string> {
    return this.drafts.get(invocationName) ?? {};
  }

  /** Keeps `args` after a failure; `undefined` (a success) forgets them. */
  setDraft(invocationName: string, args: Record<string, string> | undefined): void {
    if (args) this.drafts.set(invocationName, args); else this.drafts.delete(invocationName);
  }

  history(invocationName: string, argument: string): string[] {
    return this.context.globalState.get<string[]>(`history:${invocationName}:${argument}`, []);
  }

  async remember(invocationName: string, values: Record<string, string>): Promise<void> {
    for (const [arg, value] of Object.entries(values)) {
      if (!value) continue;
      const key = `history:${invocationName}:${arg}`;
      const list = [value, ...this.history(invocationName, arg).filter(v => v !== value)].slice(0, HISTORY_LIMIT);
      await this.context.globalState.update(key, list);
    }
  }

  storeResult(invocation: string, result: InvokeResult, transcript: Transcript): StoredResult {
    const stored = { id: `r${++this.resultCounter}`, invocation, result, transcript };
    this.results.set(stored.id, stored);
    if (this.results.size > RESULTS_LIMIT) this.results.delete(this.results.keys().next().value!);
    this.lastInvocation = invocation;
    return stored;
  }

  get latestResult(): StoredResult | undefined {
    return [...this.results.values()].pop();
  }

  result(id: string): StoredResult | undefined {
    return this.results.get(id);
  }

  dispose(): void {
    void this.catalog.dispose();
    this.callbackServer?.dispose();
    for (const l of this.logs.values()) l.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Header values (tokens) are hidden in the JSON-RPC trace. */
function secretValues(def: ServerDefinition): string[] {
  if (def.transport.type === 'stdio') return Object.values(def.transport.env).filter(v => v.length >= 8);
  return Object.values(def.transport.headers).map(v => v.replace(/^bearer\s+/i, '')).filter(v => v.length >= 4);
}

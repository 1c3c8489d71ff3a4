// The one owner of long-lived extension state: the catalog, per-server logs, the configuration
// sources (workspace mcp.json files and the setting), argument history and recent results.
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { Catalog } from './core/catalog';
import { OAuthCallbackServer, StoredOAuthProvider } from './core/oauth';
import { signInCallback } from './core/sign-in';
import { InputDefinition, ServerDefinition, parseConfigObject, parseConfigText, substituteVariables } from './core/config';
import { ConfigSource, HoldReason, planServers } from './core/server-merge';
import { ConsentRecord, consentKey, consentState, definitionFingerprint, describeLaunch, inputStorageKey } from './core/consent';
import type { LogSink } from './core/log';
import type { InvokeResult } from './core/invocation';
import type { Transcript } from './core/content';
import { askQuestion } from './ui/question-input';

export interface ConfigProblem { origin: string; message: string; server?: string }

/** A configured server that does not run, and why (shown in the tree). */
export interface HeldEntry { def: ServerDefinition; origin: string; reason: HoldReason | 'consent' | 'declined'; message: string }

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
  /** Every configured server that does not run: untrusted, shadowed by a user server, declined, … */
  held: HeldEntry[] = [];
  /** Per running server id: why it is the definition used (another one with its name was not). */
  notes = new Map<string, string[]>();
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
        questions: askQuestion,
        oauth: def.transport.type !== 'stdio' && this.oauthRedirect ? new StoredOAuthProvider(`${def.scope ?? 'user'}:${def.id}:${def.transport.url}`, context.secrets, this.oauthRedirect, { server: def.name, clientName: 'MCP Prompts for VS Code', clientId: def.transport.clientId, clientSecret: def.transport.clientSecret }) : undefined,
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
    const sources: ConfigSource[] = [];
    const trusted = vscode.workspace.isTrusted;
    const folders = vscode.workspace.workspaceFolders ?? [];
    for (const folder of folders) {
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
      if (text === undefined) continue;
      const origin = vscode.workspace.asRelativePath(uri);
      try {
        sources.push({ kind: 'workspace', label: origin, folder: folder.uri.fsPath, config: parseConfigText(text, 'workspace', origin) });
      } catch (err) {
        problems.push({ origin, message: err instanceof Error ? err.message : String(err) });
      }
    }
    // The setting is read per level: a workspace's value (its settings.json or .code-workspace file) is
    // workspace-defined, exactly like its mcp.json; only the user's own value is the user's.
    const addSetting = (value: unknown, kind: 'user' | 'workspace', label: string, folder?: string) => {
      if (!value || typeof value !== 'object' || !Object.keys(value).length) return;
      try {
        sources.push({ kind, label, folder, config: parseConfigObject({ servers: value }, kind, label) });
      } catch (err) {
        problems.push({ origin: label, message: err instanceof Error ? err.message : String(err) });
      }
    };
    const inspected = vscode.workspace.getConfiguration('mcpPrompts').inspect<unknown>('servers');
    addSetting(inspected?.globalValue, 'user', vscode.l10n.t('user settings'));
    const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
    addSetting(inspected?.workspaceValue, 'workspace', vscode.l10n.t('workspace settings'), workspaceFile ? path.dirname(workspaceFile) : folders[0]?.uri.fsPath);
    if (vscode.workspace.workspaceFile) {
      for (const folder of folders) {
        addSetting(vscode.workspace.getConfiguration('mcpPrompts', folder.uri).inspect<unknown>('servers')?.workspaceFolderValue, 'workspace', vscode.l10n.t('folder settings of {0}', folder.name), folder.uri.fsPath);
      }
    }
    const userHome = os.homedir();
    const plan = planServers(sources, { trusted, userHome, firstFolder: folders[0]?.uri.fsPath });
    problems.push(...plan.problems);
    const held: HeldEntry[] = [...plan.held];
    const defs: ServerDefinition[] = [];
    const needConsent: HeldEntry[] = [];
    const askConsent = trusted && vscode.workspace.getConfiguration('security.workspace.trust').get<boolean>('enabled', true);
    for (const { def, source } of plan.run) {
      if (def.source === 'workspace' && askConsent) {
        const decision = consentState(def, this.context.globalState.get<ConsentRecord>(consentKey(def)));
        if (decision === 'denied') {
          held.push({ def, origin: source.label, reason: 'declined', message: vscode.l10n.t('You chose not to start {0} from {1}', def.name, source.label) });
          continue;
        }
        if (decision === 'ask') {
          const entry: HeldEntry = { def, origin: source.label, reason: 'consent', message: vscode.l10n.t('{0} from {1} waits for your consent to start', def.name, source.label) };
          held.push(entry);
          needConsent.push(entry);
          continue;
        }
      }
      try {
        defs.push(await substituteVariables(def, { workspaceFolder: source.folder ?? folders[0]?.uri.fsPath, userHome, env: process.env }, source.config.inputs, (input, id, server) => this.resolveInput(input, id, server, def.scope)));
      } catch (err) {
        problems.push({ origin: source.label, server: def.name, message: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const note of plan.notes) {
      if (this.notes.get(note.def.id)?.includes(note.message)) continue;
      this.log(note.def).info(note.message);
    }
    this.notes = new Map();
    for (const note of plan.notes) this.notes.set(note.def.id, [...(this.notes.get(note.def.id) ?? []), note.message]);
    if (defs.some(d => d.transport.type !== 'stdio')) await this.prepareOAuthRedirect().catch(() => undefined);
    this.problems = problems;
    this.held = held;
    this.blocked = held.filter(h => h.reason === 'untrusted').map(h => h.def);
    this.catalog.setServers(defs);
    this.configEmitter.fire();
    if (needConsent.length) this.askConsent(needConsent);
  }

  /** Workspace servers waiting for the consent modal, asked one at a time (a reload may add more meanwhile). */
  private readonly consentQueue: HeldEntry[] = [];
  private consentRunning = false;
  /** Fingerprints whose modal was dismissed (Escape): not asked again this session until the user clicks the tree row. */
  private readonly dismissed = new Set<string>();

  /** First start of a workspace-defined server: a modal naming it, what it runs or where it connects, and its origin. */
  private askConsent(entries: HeldEntry[]): void {
    for (const entry of entries) {
      if (this.dismissed.has(definitionFingerprint(entry.def))) continue;
      if (!this.consentQueue.some(q => consentKey(q.def) === consentKey(entry.def))) this.consentQueue.push(entry);
    }
    if (!this.consentRunning) void this.runConsentQueue();
  }

  private async runConsentQueue(): Promise<void> {
    this.consentRunning = true;
    let decided = false;
    try {
      while (this.consentQueue.length) {
        const { def, origin } = this.consentQueue[0];
        if (consentState(def, this.context.globalState.get<ConsentRecord>(consentKey(def))) === 'ask') {
          const allow = vscode.l10n.t('Start Server');
          const deny = vscode.l10n.t('Do Not Start');
          const what = def.transport.type === 'stdio'
            ? `${vscode.l10n.t('It runs this command on your computer:')}\n${describeLaunch(def)}`
            : `${vscode.l10n.t('It connects to:')}\n${describeLaunch(def)}`;
          const choice = await vscode.window.showWarningMessage(
            vscode.l10n.t('Start the MCP server "{0}" defined in {1}?', def.name, origin),
            { modal: true, detail: `${what}\n\n${vscode.l10n.t('This server is defined by the workspace, not by you. Start it only if you trust where the workspace comes from.')}` },
            allow, deny,
          );
          if (choice === undefined) {
            this.dismissed.add(definitionFingerprint(def));
          } else {
            await this.context.globalState.update(consentKey(def), { fingerprint: definitionFingerprint(def), decision: choice === allow ? 'allowed' : 'denied' } satisfies ConsentRecord);
            this.log(def).info(choice === allow
              ? vscode.l10n.t('You allowed {0} from {1} to start ({2})', def.name, origin, describeLaunch(def))
              : vscode.l10n.t('You chose not to start {0} from {1}', def.name, origin));
            decided = true;
          }
        }
        this.consentQueue.shift();
      }
    } finally {
      this.consentRunning = false;
    }
    if (decided) void this.reload();
  }

  /** The tree's "click to decide" on a held-back workspace server: forget a "no" and ask again. */
  async reconsider(id: string): Promise<void> {
    const entry = this.held.find(h => h.def.id === id && (h.reason === 'declined' || h.reason === 'consent'));
    if (!entry) return;
    await this.context.globalState.update(consentKey(entry.def), undefined);
    this.dismissed.delete(definitionFingerprint(entry.def));
    this.askConsent([entry]);
  }

  /** `${input:id}`: password inputs live in SecretStorage, others in workspace state, keyed by id and by
   *  the origin of the definition (user, or one workspace folder); asked once. */
  private async resolveInput(input: InputDefinition | undefined, id: string, server: string, scope: string | undefined): Promise<string | undefined> {
    const key = inputStorageKey(scope, id);
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
  return [...Object.values(def.transport.headers).map(v => v.replace(/^bearer\s+/i, '')), def.transport.clientSecret ?? ''].filter(v => v.length >= 4);
}

// What the configuration says runs, and what is held back and why: reads every configuration source,
// applies trust, precedence, consent and the user's disabled servers, substitutes variables and hands
// the servers that run to the catalog. The prompts for consent and for `${input:…}` values are the
// edge's (src/ui/); this file receives them.
import * as vscode from 'vscode';
import type { Catalog } from '../core/catalog/catalog';
import { InputDefinition, ServerDefinition } from '../core/config/config';
import { substituteVariables } from '../core/config/substitute-variables';
import { inputStorageKey, readFolderIdentities, type consentState } from '../core/config/consent';
import { ConfigProblemEntry, HeldEntry, planServers } from '../core/config/server-merge';
import type { Platform } from '../core/platform';
import type { ServerLogs } from './server-logs';
import type { OAuthLoopback } from './oauth-loopback';
import { readConfigSources, type LastGoodSources } from './config-sources';

export type ConfigProblem = ConfigProblemEntry;
export type { HeldEntry };

/** What the last configuration read found; replaced as a whole by each read. */
interface ConfigurationView {
  /** Every configured server that does not run: untrusted, shadowed by a user server, declined, … */
  readonly held: readonly HeldEntry[];
  /** Per running server id: why it is the definition used (another one with its name was not). */
  readonly notes: ReadonlyMap<string, string[]>;
  readonly problems: readonly ConfigProblem[];
}

/** The modal that asks before a workspace-defined server starts (src/ui/consent-prompt.ts). */
export interface ConsentKeeper {
  state(def: ServerDefinition): ReturnType<typeof consentState>;
  ask(entries: readonly HeldEntry[]): void;
  reconsider(entry: HeldEntry): Promise<void>;
  allow(entry: HeldEntry): Promise<void>;
}

/** `${input:…}` values, kept for the definition that asked (src/ui/input-prompter.ts). */
export interface InputResolver {
  /** The value kept for this input and definition, without asking. */
  stored(input: InputDefinition | undefined, id: string, def: ServerDefinition): Promise<string | undefined>;
  /** Asks the user and keeps the answer; undefined when they cancel or `token` closes the box. */
  ask(
    input: InputDefinition | undefined,
    id: string,
    def: ServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<string | undefined>;
}

export interface ServerConfigurationParts {
  catalog: Catalog;
  logs: ServerLogs;
  loopback: OAuthLoopback;
  consent: ConsentKeeper;
  inputs: InputResolver;
  /** globalState: the servers the user disabled. */
  memory: vscode.Memento;
  /** The extension's global storage: the profile's mcp.json is found from it. */
  globalStorageUri: vscode.Uri;
  /** The extension host's platform: variables, discovery, path rules. */
  platform: Platform;
}

const MAX_READ_RETRIES = 10;
const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** globalState: the disableKey()s of the servers the user disabled from the tree. */
const DISABLED_KEY = 'disabledServers';

export class ServerConfiguration implements vscode.Disposable {
  private config: ConfigurationView = { held: [], notes: new Map(), problems: [] };
  private readonly configEmitter = new vscode.EventEmitter<void>();
  /** Fires after each configuration read. */
  readonly onDidLoad = this.configEmitter.event;
  private loading?: Promise<void>;
  private reloadQueued = false;
  private readRetries = 0;
  private readonly origins = new Map<string, string>();
  private readonly lastGood: LastGoodSources = new Map();
  /**
   * `${input:…}` values asked for, one box at a time, by inputStorageKey; a read never waits for one.
   * A box whose server is no longer configured is closed.
   */
  private readonly asking = new Map<string, vscode.CancellationTokenSource>();
  private askQueue: Promise<void> = Promise.resolve();
  /** Inputs the user cancelled: not asked again until Refresh or a changed definition. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly parts: ServerConfigurationParts) {}

  get held(): readonly HeldEntry[] {
    return this.config.held;
  }
  get notes(): ReadonlyMap<string, string[]> {
    return this.config.notes;
  }
  get problems(): readonly ConfigProblem[] {
    return this.config.problems;
  }
  /** Servers the configuration names but that may not start (untrusted workspace). */
  get blocked(): ServerDefinition[] {
    return this.config.held.filter(h => h.reason === 'untrusted').map(h => h.def);
  }

  /**
   * Reads all configuration sources and updates the catalog; concurrent calls collapse. `askAgain`
   * (Refresh): ask again for the `${input:…}` values the user cancelled.
   */
  reload(askAgain = false): Promise<void> {
    if (askAgain) this.cancelled.clear();
    if (this.loading) {
      this.reloadQueued = true;
      return this.loading;
    }
    this.loading = this.readConfig().finally(() => {
      this.loading = undefined;
      if (this.reloadQueued) {
        this.reloadQueued = false;
        void this.reload();
      }
    });
    return this.loading;
  }

  private async readConfig(): Promise<void> {
    const { platform } = this.parts;
    const read = await readConfigSources(platform, this.parts.globalStorageUri, this.lastGood);
    // Early in a remote window the file system may not answer yet: try again shortly.
    if (read.retry && this.readRetries++ < MAX_READ_RETRIES) setTimeout(() => void this.reload(), 1000);
    const trusted = vscode.workspace.isTrusted;
    const firstFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const disabled = new Set(this.disabledKeys());
    // Which folder is at each workspace path: another repository cloned there is asked again.
    const folderIds = await readFolderIdentities(
      read.sources.flatMap(s => (s.kind === 'workspace' && s.folder ? [s.folder] : [])),
    );
    const isDisabled = (key: string) => disabled.has(key);
    const plan = planServers(read.sources, { trusted, platform, isDisabled, folderIds });
    const problems: ConfigProblem[] = [...read.problems, ...plan.problems];
    const held: HeldEntry[] = [...plan.held];
    const defs: ServerDefinition[] = [];
    const needConsent: HeldEntry[] = [];
    const wanted = new Set<string>();
    for (const { def, source } of plan.run) {
      // Asked with workspace trust switched off too: then nothing else stands between a cloned
      // repository and a process (VS Code's own MCP asks per server for other clients' files then).
      const decision = def.source === 'workspace' ? this.parts.consent.state(def) : 'allowed';
      if (decision === 'denied') {
        const message = vscode.l10n.t('You chose not to start {0} from {1}', def.name, source.label);
        held.push({ def, origin: source.label, reason: 'declined', message });
        continue;
      }
      if (decision === 'ask') {
        const message = vscode.l10n.t('{0} from {1} waits for your consent to start', def.name, source.label);
        const entry: HeldEntry = { def, origin: source.label, reason: 'consent', message };
        held.push(entry);
        needConsent.push(entry);
        continue;
      }
      const missing: Array<{ input: InputDefinition | undefined; id: string }> = [];
      const stored = async (input: InputDefinition | undefined, id: string) => {
        const value = await this.parts.inputs.stored(input, id, def);
        if (value === undefined) missing.push({ input, id });
        return value;
      };
      try {
        const vars = { workspaceFolder: source.folder ?? firstFolder, platform };
        defs.push(await substituteVariables(def, vars, source.config.inputs, stored));
      } catch (err) {
        // A value not given yet is asked for beside the read, and the server comes once it is given.
        const ask = missing.find(m => !this.cancelled.has(inputStorageKey(def, m.id)));
        if (ask) wanted.add(this.askFor(def, ask.input, ask.id));
        else problems.push({ origin: source.label, server: def.name, message: errorMessage(err) });
      }
    }
    for (const [key, box] of this.asking) if (!wanted.has(key)) box.cancel();
    const notes = this.logged(plan.notes, defs);
    if (defs.some(d => d.transport.type !== 'stdio')) await this.parts.loopback.prepare().catch(() => undefined);
    this.config = { held, notes, problems };
    this.parts.catalog.setServers(defs);
    this.configEmitter.fire();
    if (needConsent.length) this.parts.consent.ask(needConsent);
  }

  /** The plan's notes per server, each new one and each server's new origin written to its log once. */
  private logged(planned: readonly { def: ServerDefinition; message: string }[], defs: readonly ServerDefinition[]) {
    const notes = new Map<string, string[]>();
    for (const note of planned) {
      if (!this.config.notes.get(note.def.id)?.includes(note.message))
        this.parts.logs.channel(note.def).info(note.message);
      notes.set(note.def.id, [...(notes.get(note.def.id) ?? []), note.message]);
    }
    for (const def of defs) {
      // Each server's log says where it is defined, once, and again when that changes.
      if (def.origin && this.origins.get(def.id) !== def.origin)
        this.parts.logs.channel(def).info(vscode.l10n.t('Defined in {0}', def.origin));
      if (def.origin) this.origins.set(def.id, def.origin);
    }
    return notes;
  }

  /**
   * Asks for one `${input:…}` value, after any box already open, then reads the configuration again.
   * A read that waited for the box would hold back every other change until the user answered.
   */
  private askFor(def: ServerDefinition, input: InputDefinition | undefined, id: string): string {
    const key = inputStorageKey(def, id);
    if (this.asking.has(key)) return key;
    const box = new vscode.CancellationTokenSource();
    this.asking.set(key, box);
    this.askQueue = this.askQueue.then(async () => {
      const value = box.token.isCancellationRequested
        ? undefined
        : await this.parts.inputs.ask(input, id, def, box.token).catch(() => undefined);
      this.asking.delete(key);
      const gone = box.token.isCancellationRequested;
      box.dispose();
      if (gone) return;
      if (value === undefined) this.cancelled.add(key);
      // Whatever this read does, the boxes queued after this one must still come.
      await this.reload().catch(() => undefined);
    });
    return key;
  }

  /** The tree's "click to decide" on a held-back workspace server: forget a "no" and ask again. */
  async reconsider(id: string): Promise<void> {
    const entry = this.config.held.find(h => h.def.id === id && (h.reason === 'declined' || h.reason === 'consent'));
    if (entry) await this.parts.consent.reconsider(entry);
  }

  /** "Start Server" for a workspace server waiting for consent, without the modal (see ConsentPrompt.allow). */
  async allow(id: string): Promise<void> {
    const entry = this.config.held.find(h => h.def.id === id && h.reason === 'consent');
    if (entry) await this.parts.consent.allow(entry);
  }

  private disabledKeys(): string[] {
    const value = this.parts.memory.get<unknown>(DISABLED_KEY);
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
  }

  isDisabled(def: ServerDefinition): boolean {
    return !!def.disableKey && this.disabledKeys().includes(def.disableKey);
  }

  /** The tree's Disable / Enable Server: kept per place and name, so a same-named server elsewhere is not affected. */
  async setDisabled(def: ServerDefinition, disabled: boolean): Promise<void> {
    if (!def.disableKey) return;
    const keys = this.disabledKeys().filter(k => k !== def.disableKey);
    await this.parts.memory.update(DISABLED_KEY, disabled ? [...keys, def.disableKey] : keys);
    await this.reload();
    // Enabling is a request for that server: it starts even when it would otherwise wait for use (onDemand).
    const entry = !disabled && this.parts.catalog.servers.find(e => e.def.disableKey === def.disableKey);
    if (entry) void this.parts.catalog.ensureStarted(entry);
  }

  dispose(): void {
    for (const box of this.asking.values()) box.cancel();
    this.configEmitter.dispose();
  }
}

/** Header values (tokens) are hidden in the JSON-RPC trace. */
export function secretValues(def: ServerDefinition): string[] {
  if (def.transport.type === 'stdio') return Object.values(def.transport.env).filter(v => v.length >= 8);
  const headers = Object.values(def.transport.headers).map(v => v.replace(/^bearer\s+/i, ''));
  return [...headers, def.transport.clientSecret ?? ''].filter(v => v.length >= 4);
}

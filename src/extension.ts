// Builds the extension's parts and hands each surface only what it uses; no logic of its own.
// Servers connect in the background after activate().
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { Catalog } from './core/catalog/catalog';
import type { PromptCache } from './core/catalog/prompt-cache';
import { EraMemory } from './core/protocol/transport/eras';
import { onProtocolLoad } from './core/protocol/transport/protocol-load';
import { hostPlatform, type Platform } from './core/platform';
import { ArgumentHistory } from './core/run/records/argument-history';
import { PromptUsage } from './core/run/records/prompt-usage';
import { Attempts } from './core/run/records/attempts';
import { PromptRunner, type Collector } from './core/run/prompt-runner';
import { ResultStore } from './core/run/records/result-store';
import { SkillSession } from './core/run/skills/skill-session';
import { ArgumentInput } from './ui/argument-input';
import { ConsentPrompt } from './ui/consent-prompt';
import { InputPrompter } from './ui/input-prompter';
import { askQuestion } from './ui/question-input';
import { PromptTree } from './ui/tree';
import { preparePickerRows } from './ui/picker';
import { registerStatus } from './ui/status';
import { TranscriptFileSystem, TRANSCRIPT_SCHEME } from './ui/transcript-editor';
import { registerViewWelcome } from './ui/view-welcome';
import { registerSkillPreviews, SkillPreviews } from './ui/skill-preview';
import { ViewQuiet } from './ui/view-quiet';
import { registerCommands } from './commands';
import { registerParticipant } from './chat/participant';
import { registerChatCompletions } from './chat/completions';
import { registerPromptTools } from './chat/prompt-tools';
import { ChatHandOff } from './core/run/requests/chat-request';
import { registerSkillTools } from './chat/skill-tools';
import * as resources from './resources';
import { idleStopMs, readStartServers, SERVERS_SETTING, START_SERVERS_SETTING } from './settings';
import { watchOutsideConfig } from './workspace/config-watch';
import { mainLog } from './workspace/main-log';
import { OAuthLoopback } from './workspace/oauth-loopback';
import { openPromptCache } from './workspace/prompt-cache-storage';
import { secretValues, ServerConfiguration } from './workspace/server-configuration';
import { ServerLogs } from './workspace/server-logs';

/** Milliseconds spent in activate(), read by the host tests and the benchmark. */
export let activationMs = 0;
let running: { catalog: Catalog; savedLists?: PromptCache } | undefined;

/** What activate() returns: the host tests (test/host/) read the catalog, results and tree through it. */
export interface ExtensionApi {
  /** Milliseconds spent in activate(). */
  readonly activationMs: number;
  readonly catalog: Catalog;
  readonly configuration: ServerConfiguration;
  readonly results: ResultStore;
  readonly tree: PromptTree;
  /** The extension's global storage; the user profile's mcp.json sits two folders above it. */
  readonly globalStorageUri: vscode.Uri;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  // The core's messages use @vscode/l10n; hand it the same bundle VS Code loaded for us.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const platform = hostPlatform(); // the one read of the host's OS, environment and home folder
  const logs = new ServerLogs();
  const savedLists = openPromptCache(context.globalStorageUri);
  const loopback = new OAuthLoopback(() => catalog, context.secrets);
  const catalog = createCatalog(context, { logs, loopback, savedLists, platform });
  running = { catalog, savedLists };
  const views = new ViewQuiet();
  const configuration = createConfiguration(context, { catalog, logs, loopback, platform, views });
  const results = new ResultStore();
  const attempts = new Attempts();
  const history = new ArgumentHistory(context.globalState);
  // Nothing of a workspace's servers is kept while the workspace is not trusted.
  const usage = new PromptUsage(context.globalState, def => def.source !== 'workspace' || vscode.workspace.isTrusted);
  const runner = new PromptRunner(catalog, { results, attempts, history, usage });
  const { collect } = new ArgumentInput(history, context.globalState, platform);
  const handOff = new ChatHandOff();
  // Skill approvals and loads: this window's, in memory only.
  const skills = new SkillSession();
  const tree = new PromptTree(catalog, configuration, context.workspaceState, usage);
  const surfaces = { catalog, configuration, runner, collect, handOff, platform };
  context.subscriptions.push(
    { dispose: () => void catalog.dispose() },
    configuration,
    logs,
    loopback,
    views,
    ...registerSurfaces(context, { ...surfaces, tree, views, results, attempts, logs, usage, skills }),
    watchConfiguration(catalog, configuration),
    watchOutsideConfig(context.globalStorageUri, platform, () => void configuration.reload()),
  );
  // The SDK is a bundle of its own loaded with the first connection (esbuild.mjs); the log says when, and its cost.
  onProtocolLoad(ms =>
    mainLog().info(vscode.l10n.t('Loaded the MCP client code (dist/protocol.js) in {0} ms', Math.round(ms))),
  );
  void configuration.reload();
  activationMs = performance.now() - started;
  return { activationMs, catalog, configuration, results, tree, globalStorageUri: context.globalStorageUri };
}

/** What the surfaces are made of: the parts activate() built. */
interface SurfaceParts {
  catalog: Catalog;
  configuration: ServerConfiguration;
  runner: PromptRunner;
  collect: Collector;
  handOff: ChatHandOff;
  platform: Platform;
  tree: PromptTree;
  views: ViewQuiet;
  results: ResultStore;
  attempts: Attempts;
  logs: ServerLogs;
  usage: PromptUsage;
  skills: SkillSession;
}

/** Every surface: the sidebar, the status bar, the commands, chat, the agent's tools, transcripts and resources. */
function registerSurfaces(context: vscode.ExtensionContext, p: SurfaceParts): vscode.Disposable[] {
  const { catalog, configuration, runner, collect, handOff, platform, tree, results, usage, skills } = p;
  const surfaces = { catalog, configuration, runner, collect, handOff, platform };
  const previews = new SkillPreviews(skills);
  const transcripts = new TranscriptFileSystem(results);
  const view = vscode.window.createTreeView('mcpPrompts.prompts', { treeDataProvider: tree, showCollapseAll: true });
  p.views.watch(tree.onDidChangeTreeData, () => view.visible);
  return [
    tree,
    view,
    tree.attach(view),
    registerStatus(catalog, configuration),
    ...registerCommands({
      ...surfaces,
      attempts: p.attempts,
      results,
      logs: p.logs,
      previews,
      usage,
      tree,
      globalStorageUri: context.globalStorageUri,
      extensionUri: context.extensionUri,
    }),
    registerParticipant({ ...surfaces, skills, extensionUri: context.extensionUri }),
    registerSkillTools(catalog, skills),
    registerSkillPreviews(previews),
    registerChatCompletions(catalog, usage),
    preparePickerRows(catalog),
    ...registerPromptTools({ catalog, runner }),
    transcripts,
    vscode.workspace.registerFileSystemProvider(TRANSCRIPT_SCHEME, transcripts, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...resources.register(results, catalog),
    registerViewWelcome(catalog, configuration),
    // On demand, opening a prompt's arguments in the tree starts its server (the arguments may complete).
    view.onDidExpandElement(e => {
      if (e.element.type === 'prompt') void catalog.ensureStarted(e.element.prompt.server);
    }),
  ];
}

/** The servers as configured, with the consent and input prompts that stand between them and a start. */
function createConfiguration(
  context: vscode.ExtensionContext,
  parts: { catalog: Catalog; logs: ServerLogs; loopback: OAuthLoopback; platform: Platform; views: ViewQuiet },
): ServerConfiguration {
  const configuration: ServerConfiguration = new ServerConfiguration({
    ...parts,
    consent: new ConsentPrompt(
      context.globalState,
      def => parts.logs.channel(def),
      () => void configuration.reload(),
    ),
    inputs: new InputPrompter(context.secrets, context.workspaceState, parts.views),
    memory: context.globalState,
    globalStorageUri: context.globalStorageUri,
  });
  return configuration;
}

/** One connection per configured server, with this window's logs, saved lists, OAuth and questions. */
function createCatalog(
  context: vscode.ExtensionContext,
  {
    logs,
    loopback,
    savedLists,
    platform,
  }: { logs: ServerLogs; loopback: OAuthLoopback; savedLists: PromptCache | undefined; platform: Platform },
): Catalog {
  const declared = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : '0.0.0';
  const eras = savedLists && new EraMemory(savedLists.eraStore());
  return new Catalog({
    start: 'eager',
    cache: savedLists,
    startServers: readStartServers(),
    connection: def => ({
      eras,
      log: logs.sink(def),
      clientInfo: { name: 'mcp-prompts-vscode', version },
      defaultCwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      platform,
      secrets: secretValues(def),
      questions: askQuestion,
      oauth: loopback.provider(def),
      idleStopMs,
    }),
  });
}

function watchConfiguration(catalog: Catalog, configuration: ServerConfiguration): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
  const reload = () => void configuration.reload();
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(reload),
    watcher.onDidCreate(reload),
    watcher.onDidDelete(reload),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (e.affectsConfiguration(SERVERS_SETTING)) reload();
      if (e.affectsConfiguration(START_SERVERS_SETTING)) catalog.setStartPolicy(readStartServers());
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    vscode.workspace.onDidChangeWorkspaceFolders(reload),
  );
}

/**
 * Closes every server (stdio children get stdin closed, then SIGTERM) and finishes writing the saved
 * prompt lists before the host exits: a list received just before a reload is there in the next window.
 */
export async function deactivate(): Promise<void> {
  if (!running) return;
  await Promise.all([running.catalog.dispose(), running.savedLists?.flush()]);
}

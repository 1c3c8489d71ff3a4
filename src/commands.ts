// Every command, registered in one place as factories over the state. All are registered at
// activation whatever the servers do, so a failing server never leaves a command missing.
import * as vscode from 'vscode';
import type { CatalogPrompt, ServerEntry } from './core/catalog';
import { formatInvocation, invokePrompt } from './core/invocation';
import { toTranscript } from './core/content';
import { PromptError } from './core/errors';
import { refuseAuthorizationUrl } from './core/oauth';
import type { ExtensionState, StoredResult } from './state';
import type { ArgumentInput } from './ui/argument-input';
import { pickPrompt } from './ui/picker';
import { openTranscript, TranscriptProvider, transcriptMarkdown } from './ui/transcript-editor';
import { addServer, importServers } from './ui/config-edit';
import { insertIntoChat, registerHandOff } from './chat/handoff';
import type { Node } from './ui/tree';

export interface Surfaces { state: ExtensionState; input: ArgumentInput; transcripts: TranscriptProvider }

type Target = 'auto' | 'chat' | 'editor';

/** A chat model is there to answer: otherwise results go to the transcript editor. */
async function chatAvailable(): Promise<boolean> {
  try { return (await vscode.lm.selectChatModels()).length > 0; } catch { return false; }
}

/** Picker and tree: collect arguments, then run in chat (with a model) or in the transcript editor. */
export async function runPrompt(s: Surfaces, target: CatalogPrompt, where: Target = 'auto'): Promise<StoredResult | undefined> {
  const values = await s.input.collect(target, {}, { askOptional: true, defaults: s.state.draft(target.invocationName) });
  if (!values) return undefined;
  return runWithValues(s, target, values, where);
}

async function runWithValues(s: Surfaces, target: CatalogPrompt, values: Record<string, string>, where: Target): Promise<StoredResult | undefined> {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const line = formatInvocation(target.invocationName, given);
  if (where === 'chat' || (where === 'auto' && vscode.workspace.getConfiguration('mcpPrompts').get<string>('runTarget', 'auto') !== 'editor' && (await chatAvailable()))) {
    s.state.lastInvocation = line;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp /${line}` });
    return undefined;
  }
  try {
    const done = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Getting {0}…', target.invocationName), cancellable: true }, (_p, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return invokePrompt(s.state.catalog, { prompt: target, values: given, signal: controller.signal });
    });
    if (!done) return undefined;
    s.state.setDraft(target.invocationName, undefined);
    const stored = s.state.storeResult(line, done, toTranscript(done.result));
    await openTranscript(s.transcripts, stored);
    return stored;
  } catch (err) {
    s.state.setDraft(target.invocationName, given);
    showError(s.state, err, target.invocationName, where);
    return undefined;
  }
}

/**
 * The message, with Show Log when a server is to blame and "Try Again…" (arguments kept) when a prompt
 * failed; the retry runs where the failed run was meant to go.
 */
export function showError(state: ExtensionState, err: unknown, retry?: string, where: Target = 'auto'): void {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof PromptError && err.kind === 'cancelled') return;
  const server = err instanceof PromptError && err.server ? state.catalog.servers.find(e => e.def.name === err.server) : undefined;
  const showLog = vscode.l10n.t('Show Log');
  const again = vscode.l10n.t('Try Again…');
  void vscode.window.showErrorMessage(message, ...(retry ? [again] : []), ...(server ? [showLog] : [])).then(choice => {
    if (choice === showLog && server) state.log(server.def).show();
    if (choice === again && retry) void vscode.commands.executeCommand('mcpPrompts.retryPrompt', retry, where);
  });
}

/** A command with nothing to do says so and offers the way forward. */
function nothingToDo(message: string, action: string, command: string): void {
  void vscode.window.showInformationMessage(message, action).then(choice => {
    if (choice === action) void vscode.commands.executeCommand(command);
  });
}

/** No server configured: say so and offer Add Server…; true when there is none. */
function noServers(state: ExtensionState): boolean {
  if (state.catalog.servers.length) return false;
  nothingToDo(vscode.l10n.t('No MCP servers are configured.'), vscode.l10n.t('Add Server…'), 'mcpPrompts.addServer');
  return true;
}

async function pickServer(state: ExtensionState, title: string, filter: (s: ServerEntry) => boolean = () => true): Promise<ServerEntry | undefined> {
  const servers = state.catalog.servers.filter(filter);
  if (servers.length <= 1) return servers[0];
  const pick = await vscode.window.showQuickPick(servers.map(e => ({ label: e.def.name, description: e.connection.status, entry: e })), { title });
  return pick?.entry;
}

/** Commands take a tree node, a server name/id string (from chat buttons), or nothing (palette). */
function serverArg(state: ExtensionState, arg: unknown): ServerEntry | undefined {
  if (typeof arg === 'string') return state.catalog.servers.find(e => e.id === arg || e.def.name === arg);
  const node = arg as Node | undefined;
  if (node?.type === 'server') return node.entry;
  if (node?.type === 'prompt') return node.prompt.server;
  return undefined;
}

export function registerCommands(s: Surfaces): vscode.Disposable[] {
  const { state } = s;
  const stored = (id: unknown) => (typeof id === 'string' ? state.result(id) : undefined);
  const server = async (arg: unknown, title: string) => serverArg(state, arg) ?? (noServers(state) ? undefined : await pickServer(state, title));
  const runPromptLabel = vscode.l10n.t('Run Prompt…');
  // VS Code hands each command whatever its caller passed; every handler declares what it accepts.
  const commands: Record<string, (...args: never[]) => unknown> = {
    'mcpPrompts.runPrompt': async (node?: Node) => {
      const target = node?.type === 'prompt' ? node.prompt : await pickPrompt(state);
      return target ? runPrompt(s, target) : undefined;
    },
    'mcpPrompts.runPromptInEditor': async (node?: Node) => {
      const target = node?.type === 'prompt' ? node.prompt : await pickPrompt(state);
      return target ? runPrompt(s, target, 'editor') : undefined;
    },
    'mcpPrompts.rerunLast': async () => {
      const line = state.lastInvocation;
      if (!line) { nothingToDo(vscode.l10n.t('No prompt has been run yet.'), runPromptLabel, 'mcpPrompts.runPrompt'); return; }
      if (await chatAvailable()) { await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp /${line}` }); return; }
      try {
        const done = await invokePrompt(state.catalog, { line, collect: (t, given) => s.input.collect(t, given) });
        if (done) await openTranscript(s.transcripts, state.storeResult(line, done, toTranscript(done.result)));
      } catch (err) { showError(state, err); }
    },
    // After a failure (chat button, error notification): ask again, starting from the arguments that failed.
    'mcpPrompts.retryPrompt': async (invocationName: unknown, where?: unknown) => {
      const found = typeof invocationName === 'string' ? state.catalog.resolve(invocationName) : undefined;
      if (!found) return;
      if ('error' in found) { showError(state, found.error); return; }
      return runPrompt(s, found.prompt, where === 'chat' || where === 'editor' ? where : 'auto');
    },
    'mcpPrompts.refresh': () => state.reload().then(() => state.catalog.refresh()),
    'mcpPrompts.restartServer': async (arg?: unknown) => {
      const e = await server(arg, vscode.l10n.t('Restart which server?'));
      if (e) await e.connection.restart().catch(err => showError(state, err));
    },
    'mcpPrompts.stopServer': async (arg?: unknown) => { const e = await server(arg, vscode.l10n.t('Stop which server?')); if (e) await e.connection.stop(); },
    'mcpPrompts.startServer': async (arg?: unknown) => {
      const e = await server(arg, vscode.l10n.t('Start which server?'));
      if (e) await e.connection.restart().catch(err => showError(state, err));
    },
    // OAuth: the browser opens only when the user asks for it.
    'mcpPrompts.signIn': async (arg?: unknown) => {
      if (!serverArg(state, arg) && !state.catalog.servers.some(srv => srv.connection.authorizationUrl)) { void vscode.window.showInformationMessage(vscode.l10n.t('No server is waiting for a sign-in.')); return; }
      const e = serverArg(state, arg) ?? (await pickServer(state, vscode.l10n.t('Sign in to which server?'), srv => !!srv.connection.authorizationUrl));
      const url = e?.connection.authorizationUrl;
      // Handed over as the string itself: a Uri would re-encode the query and break the redirect_uri in it
      // (VS Code's openExternal accepts strings for exactly this reason).
      // The address comes from the server's metadata: only https (or http to this computer) is opened.
      const refused = e && url && refuseAuthorizationUrl(url, e.def.name);
      if (refused) showError(state, refused);
      else if (e && url) await vscode.env.openExternal(url.href as unknown as vscode.Uri);
      else if (e) void vscode.window.showInformationMessage(vscode.l10n.t('{0} does not ask for a sign-in.', e.def.name));
    },
    'mcpPrompts.signOut': async (arg?: unknown) => {
      if (!serverArg(state, arg) && !state.catalog.servers.some(srv => srv.connection.oauth)) { void vscode.window.showInformationMessage(vscode.l10n.t('No server signs in with OAuth.')); return; }
      const e = serverArg(state, arg) ?? (await pickServer(state, vscode.l10n.t('Sign out of which server?'), srv => !!srv.connection.oauth));
      if (e) await e.connection.signOut();
    },
    'mcpPrompts.showLog': async (arg?: unknown) => { const e = await server(arg, vscode.l10n.t('Show the log of which server?')); if (e) state.log(e.def).show(); },
    'mcpPrompts.copyInvocation': async (node?: Node) => {
      if (node?.type !== 'prompt') return;
      await vscode.env.clipboard.writeText(`@mcp /${node.prompt.unique ? node.prompt.shortName : node.prompt.invocationName} `);
    },
    'mcpPrompts.addServer': () => addServer(),
    'mcpPrompts.importServers': (file?: vscode.Uri) => importServers(file instanceof vscode.Uri ? file : undefined),
    'mcpPrompts.focusView': () => vscode.commands.executeCommand('mcpPrompts.prompts.focus'),
    'mcpPrompts.sendToModel': async (id: unknown) => {
      const r = stored(id);
      if (!r) return;
      // The participant sends this stored result when the request below arrives: no second prompts/get.
      state.forceSend = r.id;
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp /${r.invocation}` });
    },
    'mcpPrompts.insertIntoChat': async (id: unknown) => {
      const r = stored(id);
      if (r) await insertIntoChat(r);
    },
    'mcpPrompts.copyMarkdown': async (id: unknown) => {
      const r = stored(id);
      if (r) await vscode.env.clipboard.writeText(transcriptMarkdown(r, 0));
    },
    'mcpPrompts.openTranscript': async (id: unknown) => {
      const r = stored(id);
      if (r) return openTranscript(s.transcripts, r);
    },
    'mcpPrompts.savePromptFile': async (id: unknown) => {
      const r = stored(id) ?? state.latestResult;
      if (!r) { nothingToDo(vscode.l10n.t('No prompt result to save yet.'), runPromptLabel, 'mcpPrompts.runPrompt'); return; }
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const defaultUri = folder && vscode.Uri.joinPath(folder, '.github', 'prompts', `${r.result.prompt.shortName.replace(/[^A-Za-z0-9_-]/g, '_')}.prompt.md`);
      const target = await vscode.window.showSaveDialog({ defaultUri, filters: { Prompt: ['prompt.md', 'md'] } });
      if (target) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(transcriptMarkdown(r, 0)));
    },
  };
  return [...Object.entries(commands).map(([id, fn]) => vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown)), ...registerHandOff(state)];
}

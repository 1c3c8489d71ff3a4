// Commands on one server: restart, stop, start, sign in and out, its log, and the workspace server
// consent asked again. Each takes a tree node, a server name or id (chat buttons), or nothing (palette).
import * as vscode from 'vscode';
import { labelText } from '../core/label';
import type { ServerEntry } from '../core/catalog/catalog';
import { refuseAuthorizationUrl } from '../core/protocol/transport/oauth';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerConfiguration } from '../workspace/server-configuration';
import type { ServerLogs } from '../workspace/server-logs';
import type { Node } from '../ui/tree-nodes';
import { noServers, showError } from './feedback';

/** A tree node, a server name/id string (from chat buttons), or nothing (palette). */
export type ServerArg = Node | string | undefined;

/** What the server commands use. */
export interface ServerParts {
  catalog: Catalog;
  configuration: ServerConfiguration;
  logs: ServerLogs;
}

async function pickServer(
  p: ServerParts,
  title: string,
  filter: (s: ServerEntry) => boolean = () => true,
): Promise<ServerEntry | undefined> {
  const servers = p.catalog.servers.filter(filter);
  if (servers.length <= 1) return servers[0];
  const items = servers.map(e => ({ label: labelText(e.def.name), description: e.connection.state.kind, entry: e }));
  const pick = await vscode.window.showQuickPick(items, { title });
  return pick?.entry;
}

function serverArg(p: ServerParts, arg: unknown): ServerEntry | undefined {
  if (typeof arg === 'string') return p.catalog.servers.find(e => e.id === arg || e.def.name === arg);
  const node = arg as Node | undefined;
  if (node?.type === 'server') return node.entry;
  if (node?.type === 'prompt') return node.prompt.server;
  return undefined;
}

/** The server the command names, else the only one, else one picked. */
async function server(p: ServerParts, arg: ServerArg, title: string): Promise<ServerEntry | undefined> {
  return serverArg(p, arg) ?? (noServers(p.catalog) ? undefined : await pickServer(p, title));
}

export async function restartServer(p: ServerParts, arg?: ServerArg): Promise<void> {
  const e = await server(p, arg, vscode.l10n.t('Restart which server?'));
  if (e) await e.connection.restart().catch(err => showError(p, err));
}

export async function stopServer(p: ServerParts, arg?: ServerArg): Promise<void> {
  const e = await server(p, arg, vscode.l10n.t('Stop which server?'));
  if (e) await e.connection.stop();
}

export async function startServer(p: ServerParts, arg?: ServerArg): Promise<void> {
  const e = await server(p, arg, vscode.l10n.t('Start which server?'));
  if (e) await e.connection.restart().catch(err => showError(p, err));
}

/** OAuth: the browser opens only when the user asks for it. */
export async function signIn(p: ServerParts, arg?: ServerArg): Promise<void> {
  if (!serverArg(p, arg) && !p.catalog.servers.some(s => s.connection.authorizationUrl)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server is waiting for a sign-in.'));
    return;
  }
  const title = vscode.l10n.t('Sign in to which server?');
  const e = serverArg(p, arg) ?? (await pickServer(p, title, s => !!s.connection.authorizationUrl));
  const url = e?.connection.authorizationUrl;
  // Handed over as the string itself: a Uri would re-encode the query and break the redirect_uri in it
  // (VS Code's openExternal accepts strings for exactly this reason).
  // The address comes from the server's metadata: only https (or http to this computer) is opened.
  const refused = e && url && refuseAuthorizationUrl(url, e.def.name);
  if (refused) showError(p, refused);
  else if (e && url) await vscode.env.openExternal(url.href as unknown as vscode.Uri);
  else if (e)
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} does not ask for a sign-in.', labelText(e.def.name)));
}

export async function signOut(p: ServerParts, arg?: ServerArg): Promise<void> {
  if (!serverArg(p, arg) && !p.catalog.servers.some(s => s.connection.oauth)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server signs in with OAuth.'));
    return;
  }
  const title = vscode.l10n.t('Sign out of which server?');
  const e = serverArg(p, arg) ?? (await pickServer(p, title, s => !!s.connection.oauth));
  if (e) await e.connection.signOut();
}

export async function showLog(p: ServerParts, arg?: ServerArg): Promise<void> {
  const e = await server(p, arg, vscode.l10n.t('Show the log of which server?'));
  if (e) p.logs.channel(e.def).show();
}

/** The tree's "click to decide" on a held-back workspace server. */
export function allowServer(p: ServerParts, id: unknown): Promise<void> | undefined {
  return typeof id === 'string' ? p.configuration.reconsider(id) : undefined;
}

/** Tree: a running (or failing) server is turned off; it stays listed, held as disabled. */
export async function disableServer(p: ServerParts, arg?: ServerArg): Promise<void> {
  const e = await server(p, arg, vscode.l10n.t('Disable which server?'));
  if (e) await p.configuration.setDisabled(e.def, true);
}

/** Tree: a server the user disabled starts again; one its own file turns off is changed there. */
export async function enableServer(p: ServerParts, arg?: ServerArg): Promise<void> {
  const node = arg as Node | undefined;
  const held =
    typeof arg === 'string'
      ? p.configuration.held.find(h => h.reason === 'disabled' && (h.def.id === arg || h.def.name === arg))
      : node?.type === 'blocked'
        ? node.held
        : undefined;
  if (!held) return;
  if (!p.configuration.isDisabled(held.def)) {
    void vscode.window.showInformationMessage(labelText(held.message, 1000));
    return;
  }
  await p.configuration.setDisabled(held.def, false);
}

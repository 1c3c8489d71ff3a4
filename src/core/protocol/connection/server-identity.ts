// What a server says it is (`serverInfo`): from initialize or `server/discover`, and on 2026-07-28
// connections from every result's `_meta`, where a server behind a load balancer may name a newer
// version than at connect. Self-reported and hostile: kept as short single lines, for display only.
import * as l10n from '@vscode/l10n';
import type { Client, Implementation } from '@modelcontextprotocol/client';
import type { ServerInfo } from './connection-state.js';
import { inert } from '../questions/elicitation.js';

/** The result `_meta` key of the 2026-07-28 revision that carries the server's `Implementation`. */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';
const MAX_NAME_CHARS = 80;
const MAX_VERSION_CHARS = 40;
const MAX_TITLE_CHARS = 100;

/** What we keep of a server's `Implementation`: name, version and title as inert single lines; icons are checked where shown. */
export function cleanServerInfo(info: unknown): Implementation | undefined {
  if (!info || typeof info !== 'object') return undefined;
  const { name, version, title, icons } = info as Record<string, unknown>;
  if (typeof name !== 'string' || !name.trim()) return undefined;
  const clean: Implementation = {
    name: inert(name, MAX_NAME_CHARS),
    version: typeof version === 'string' ? inert(version, MAX_VERSION_CHARS) : '',
  };
  if (typeof title === 'string' && title.trim()) clean.title = inert(title, MAX_TITLE_CHARS);
  if (Array.isArray(icons)) clean.icons = icons as Implementation['icons'];
  return clean;
}

/** The `serverInfo` a result carries in its `_meta`, cleaned; undefined when it carries none (or nothing usable). */
export function serverInfoOfResult(result: unknown): Implementation | undefined {
  const meta = result && typeof result === 'object' ? (result as { _meta?: unknown })._meta : undefined;
  if (!meta || typeof meta !== 'object') return undefined;
  return cleanServerInfo((meta as Record<string, unknown>)[SERVER_INFO_META]);
}

export function sameServerInfo(a: Implementation | undefined, b: Implementation | undefined): boolean {
  return a?.name === b?.name && a?.version === b?.version && a?.title === b?.title;
}

/** One line for a log or a tooltip: `Title (name) version`, or `name version`. */
export function describeServerInfo(info: Implementation): string {
  const head = info.title && info.title !== info.name ? `${info.title} (${info.name})` : info.name;
  return info.version ? `${head} ${info.version}` : head;
}

/** What a client that finished its handshake learnt of its server. */
export function serverInfoOf(client: Client, transport: ServerInfo['transport']): ServerInfo {
  return {
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverInfo: cleanServerInfo(client.getServerVersion()),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    transport,
    era: client.getProtocolEra(),
  };
}

/** The info after a 2026-07-28 result that names its server differently, and the log line saying so; undefined when it does not. */
export function renamedServer(
  server: string,
  info: ServerInfo,
  result: unknown,
): { info: ServerInfo; line: string } | undefined {
  const next = serverInfoOfResult(result);
  if (!next || sameServerInfo(next, info.serverInfo)) return undefined;
  const before = info.serverInfo;
  const line = before
    ? l10n.t('{0} now reports itself as {1} (was {2})', server, describeServerInfo(next), describeServerInfo(before))
    : l10n.t('{0} reports itself as {1}', server, describeServerInfo(next));
  return { info: { ...info, serverInfo: next }, line };
}

/** The log line of a start: `api is running: Title (name) 1.0, protocol 2025-11-25`. */
export function describeRunning(server: string, info: ServerInfo): string {
  return l10n.t(
    '{0} is running: {1}, protocol {2}',
    server,
    info.serverInfo ? describeServerInfo(info.serverInfo) : '?',
    info.protocolVersion ?? '?',
  );
}

// The extension's settings, read in one place and typed: no other file spells a setting's key. A value
// outside the manifest's enum (a hand-edited settings.json) reads as the default.
import * as vscode from 'vscode';
import type { AfterGet, RunTargetSetting } from './core/run/destination';
import type { StartPolicy } from './core/catalog/catalog';
import { discoverySwitches, type DiscoverySwitches } from './core/config/config-locations';

export interface Settings {
  /** mcpPrompts.runTarget */
  runTarget: RunTargetSetting;
  /** mcpPrompts.chat.afterGet */
  afterGet: AfterGet;
}

const SECTION = 'mcpPrompts';
export const SERVERS_SETTING = `${SECTION}.servers`;
export const DISCOVERY_SETTING = `${SECTION}.discovery`;
export const START_SERVERS_SETTING = `${SECTION}.startServers`;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    runTarget: oneOf(c.get<unknown>('runTarget'), ['auto', 'editor'], 'auto'),
    afterGet: oneOf(c.get<unknown>('chat.afterGet'), ['send', 'show', 'agent'], 'send'),
  };
}

/** mcpPrompts.startServers: when servers with a saved prompt list start. */
export function readStartServers(): StartPolicy {
  return oneOf(
    vscode.workspace.getConfiguration(SECTION).get<unknown>('startServers'),
    ['onDemand', 'onStartup'],
    'onDemand',
  );
}

/**
 * mcpPrompts.idleStopMinutes in ms (0: never). Servers the user wants started at startup
 * (mcpPrompts.startServers: onStartup) are never stopped for idleness: their processes are what they chose.
 */
export function idleStopMs(): number {
  const c = vscode.workspace.getConfiguration(SECTION);
  if (c.get<unknown>('startServers') === 'onStartup') return 0;
  const minutes = c.get<unknown>('idleStopMinutes');
  return typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0 ? minutes * 60000 : 0;
}

/** `mcpPrompts.servers` per level: the user's own value, the workspace's, and (multi-root) a folder's. */
export function inspectServers(folder?: vscode.Uri): { user?: unknown; workspace?: unknown; folder?: unknown } {
  const inspected = vscode.workspace.getConfiguration(SECTION, folder).inspect<unknown>('servers');
  return {
    user: inspected?.globalValue,
    workspace: inspected?.workspaceValue,
    folder: inspected?.workspaceFolderValue,
  };
}

/** mcpPrompts.discovery, from the user's own settings only (core/config-locations.ts says why). */
export function readDiscovery(): DiscoverySwitches {
  return discoverySwitches(vscode.workspace.getConfiguration(SECTION).inspect<unknown>('discovery'));
}

// What starting one server needs from its connection, and what a start gives back: shared by the
// handshake (handshake.ts) and the stdio era's start on one process (stdio-era.ts).
import type { Client, Implementation } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/config.js';
import type { LogSink } from '../../log.js';
import type { Platform } from '../../platform.js';
import type { StoredOAuthProvider } from '../transport/oauth.js';
import type { ServerInfo } from './connection-state.js';
import type { WireMeter } from '../limits/message-limit.js';
import type { EraMemory } from '../transport/eras.js';
import type { TransportTrace } from '../transport/transports.js';

export type TransportKind = ServerInfo['transport'];

/** A client that finished its handshake, with the traced transport under it and its kind as used. */
export interface Started {
  client: Client;
  traced: TransportTrace;
  kind: TransportKind;
}

/** What a start needs from its connection. */
export interface StartContext {
  def: ServerDefinition;
  log: LogSink;
  clientInfo?: Implementation;
  defaultCwd?: string;
  /** Where stdio servers start (see ConnectionOptions.platform). */
  platform: Platform;
  oauth?: StoredOAuthProvider;
  /** Values to hide in the trace besides the definition's own. */
  secrets: readonly string[];
  /** Each server's era, remembered from its last start. */
  eras: EraMemory;
  /** Counts what the server sends and bounds each message. */
  meter: WireMeter;
  /** A stdio server's stderr, line by line. */
  onStderr(line: string): void;
  /** Sets up a fresh client before its connect: question handlers, warnings, list changes. */
  prepare(client: Client, traced: TransportTrace): void;
}

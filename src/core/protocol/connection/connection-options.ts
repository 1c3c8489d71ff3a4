// What a connection is built with (ConnectionOptions) and what each request of ours may say (RequestOptions).
import type { Client, Implementation } from '@modelcontextprotocol/client';
import type { LogSink } from '../../log.js';
import type { Platform } from '../../platform.js';
import type { RestartPolicy } from '../limits/backoff.js';
import type { Asker } from '../questions/elicitation.js';
import type { EraMemory } from '../transport/eras.js';
import type { StoredOAuthProvider } from '../transport/oauth.js';

export interface ConnectionOptions {
  clientInfo?: Implementation;
  log?: LogSink;
  defaultCwd?: string;
  /**
   * The platform servers are started on (environment merge, command lookup, ending a process tree);
   * default: this process's host. Whatever it says, a server is spawned on this machine.
   */
  platform?: Platform;
  /** Default per-request timeout when the server entry sets none. */
  timeoutMs?: number;
  /** Restart policy after crashes; `false` disables automatic restarts (the CLI). */
  restart?: false | RestartPolicy;
  /** Values to hide in the trace (header tokens, secret inputs). */
  secrets?: string[];
  /** OAuth for HTTP servers that ask for it (401 with OAuth metadata); tokens live in its store. */
  oauth?: StoredOAuthProvider;
  /** Where each server's protocol era is remembered between connects (default: one store per process). */
  eras?: EraMemory;
  /** The least time a start (spawn, version probe, initialize) gets, whatever the per-request timeout; default MIN_STARTUP_MS. */
  minStartupMs?: number;
  /** Answers the server's questions (elicitation); without it every question is cancelled. */
  questions?: Asker;
  /**
   * Stop the server after this many ms without a request or a hold (see hold()); 0 or none: never. Read
   * each time the wait starts, so a changed setting applies from the next request on.
   */
  idleStopMs?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 30000;
/**
 * A per-request `timeout` of 1 s is about answers, not about booting a process: on a loaded machine a
 * stdio server's spawn and handshake take longer than that. A start gets max(timeout, this); its
 * message names the bound it actually waited for.
 */
export const MIN_STARTUP_MS = 10000;

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Ask this client only (the one a listing began on): when the server was stopped meanwhile, the request
   * fails as cancelled instead of starting the server again.
   */
  client?: Client;
  /** false: a question the server asks meanwhile is cancelled, not shown (completion in the chat input). */
  questions?: false;
  /** No person started this request (a listing at startup or after list_changed): its questions are cancelled. */
  background?: boolean;
}

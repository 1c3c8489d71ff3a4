// One server connection's state as one value: replaced (never changed in place) on every change and
// announced by one event, so every surface derives what it shows from the same value (see
// view/server-state.ts) instead of recombining flags. Shaped like VS Code's McpConnectionState.
import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/client';
import type { PromptError } from '../../errors.js';

/** What a server said it is, and how we reached it. */
export interface ServerInfo {
  protocolVersion?: string;
  serverInfo?: Implementation;
  capabilities?: ServerCapabilities;
  instructions?: string;
  /** `stdio`, `http` (Streamable HTTP) or `sse` (legacy), as actually used. */
  transport: 'stdio' | 'http' | 'sse';
  /** `modern` (2026-07-28 and later, no initialize handshake) or `legacy` (2024-11-05 … 2025-11-25). */
  era?: 'modern' | 'legacy';
}

/**
 * `info` outside `running` is what the server said the last time it ran (shown in a stopped server's
 * tooltip); a server never started has none.
 */
export type ConnectionState =
  /** Never started: a lazy connection before its first use. */
  | { readonly kind: 'idle' }
  | { readonly kind: 'starting'; readonly info?: ServerInfo }
  | { readonly kind: 'running'; readonly info: ServerInfo }
  /** Stopped on purpose: by the user, for idleness, or waiting for use behind a saved list. */
  | { readonly kind: 'stopped'; readonly info?: ServerInfo }
  /** Failed to start, crashed, or crashed too often to be restarted: `error` says which. */
  | { readonly kind: 'error'; readonly error: PromptError; readonly info?: ServerInfo }
  /** Waits for the user to sign in (OAuth) at `url`; `error` is what the server refused. */
  | { readonly kind: 'signIn'; readonly url: URL; readonly error: PromptError; readonly info?: ServerInfo };

export type ConnectionStatus = ConnectionState['kind'];

/** Why the server is down (failed, crashed, waits for a sign-in); undefined while it is not. */
export function stateError(state: ConnectionState): PromptError | undefined {
  return state.kind === 'error' || state.kind === 'signIn' ? state.error : undefined;
}

/** What the server said it is, now or when it last ran. */
export function stateInfo(state: ConnectionState): ServerInfo | undefined {
  return state.kind === 'idle' ? undefined : state.info;
}

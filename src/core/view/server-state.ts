// One server's state for every surface (tree, status bar, picker, chat /list), decided in one place
// from the connection's state, the catalog entry's loading flag and listing error, or from why a
// configured server is held back. Surfaces switch over `kind` and never recombine the raw fields themselves.
import * as l10n from '@vscode/l10n';
import type { PromptError } from '../errors.js';
import { labelText } from '../label.js';
import type { ServerDefinition } from '../config/config.js';
import type { HeldEntry } from '../config/server-merge.js';
import { type ConnectionState, stateError } from '../protocol/connection/connection-state.js';

/** What a surface reads of a catalog entry (a `ServerEntry` is one; tests build plain objects). */
export interface ServerSnapshot {
  readonly id: string;
  readonly def: ServerDefinition;
  readonly prompts: readonly unknown[];
  readonly loading: boolean;
  readonly listError?: PromptError;
  /** Its prompts come from the persisted cache and the server has not confirmed them yet. */
  readonly cached?: boolean;
  readonly connection: { readonly state: ConnectionState };
}

export type { HeldEntry };

/** A server that runs (or tries to). `problem`: its last listing failed, or it failed before. */
export type LifecycleState =
  /** `relisting`: the connection runs and only its prompts are being read (again). */
  | { kind: 'starting'; problem?: string; relisting?: boolean }
  | { kind: 'running'; problem?: string }
  | { kind: 'idle'; problem?: string }
  | { kind: 'stopped'; problem?: string }
  /** Down, no prompts to offer. */
  | { kind: 'failed'; message?: string }
  /** Down, but the prompts of its last listing are still offered. */
  | { kind: 'failedWithPrompts'; message?: string };

export type ServerState =
  | LifecycleState
  /** Waits for the user to sign in; `under` is what the connection does meanwhile. */
  | { kind: 'signIn'; under: LifecycleState }
  /** Workspace-defined, waiting for the user's consent (or declined by them). */
  | { kind: 'consent'; message: string }
  | { kind: 'declined'; message: string }
  /** Runs commands from an untrusted workspace (or reads its envFile there). */
  | { kind: 'untrusted'; message: string }
  | { kind: 'envFile'; message: string }
  /** A user's server that would use the untrusted folder through `${workspaceFolder}`. */
  | { kind: 'workspaceFolder'; message: string }
  /** Not used: the user's own server of this name is. */
  | { kind: 'shadowed'; message: string }
  /** Turned off: by the user from the tree, or in its own file. */
  | { kind: 'disabled'; message: string };

export type HeldState = Extract<ServerState, { kind: HeldEntry['reason'] }>;

/** What is wrong with a server now, if anything: its last listing failed, or it is down. */
export function serverProblem(s: ServerSnapshot): PromptError | undefined {
  return s.listError ?? stateError(s.connection.state);
}

export function serverState(s: ServerSnapshot): ServerState {
  const life = lifecycle(s);
  return s.connection.state.kind === 'signIn' ? { kind: 'signIn', under: life } : life;
}

function lifecycle(s: ServerSnapshot): LifecycleState {
  // An error without words says nothing the user can act on: shown as no problem.
  const problem = serverProblem(s)?.message || undefined;
  const { kind } = s.connection.state;
  // A failure wins over a re-list in progress: the user sees why, not a spinner.
  if (kind === 'error' || kind === 'signIn') {
    return s.prompts.length ? { kind: 'failedWithPrompts', message: problem } : { kind: 'failed', message: problem };
  }
  if (s.loading || kind === 'starting') {
    return { kind: 'starting', problem, ...(kind === 'running' ? { relisting: true } : {}) };
  }
  return { kind, problem };
}

/** What a shadowed row says: your own server of its name is used, or the one of an earlier file. */
export function shadowedText(held: HeldEntry): string {
  return held.usedFrom === undefined
    ? l10n.t('not used: your own server of this name is used')
    : l10n.t('not used: the one in {0} is', labelText(held.usedFrom));
}

export function heldState(held: HeldEntry): HeldState {
  return { kind: held.reason, message: held.message };
}

/** The lifecycle under a sign-in, or undefined for a held-back server. */
export function lifecycleOf(state: ServerState): LifecycleState | undefined {
  switch (state.kind) {
    case 'starting':
    case 'running':
    case 'idle':
    case 'stopped':
    case 'failed':
    case 'failedWithPrompts':
      return state;
    case 'signIn':
      return state.under;
    case 'consent':
    case 'declined':
    case 'untrusted':
    case 'envFile':
    case 'workspaceFolder':
    case 'shadowed':
    case 'disabled':
      return undefined;
    default:
      return unreachable(state);
  }
}

/** The message of what is wrong with a running (or failed) server; undefined when nothing is. */
export function problemOf(state: ServerState): string | undefined {
  const life = lifecycleOf(state);
  if (!life) return undefined;
  switch (life.kind) {
    case 'failed':
    case 'failedWithPrompts':
      return life.message;
    case 'starting':
    case 'running':
    case 'idle':
    case 'stopped':
      return life.problem;
    default:
      return unreachable(life);
  }
}

/** Counted as running in the status bar (a re-list does not stop it). */
export function isRunning(state: ServerState): boolean {
  const life = lifecycleOf(state);
  return life?.kind === 'running' || (life?.kind === 'starting' && !!life.relisting);
}

/** Counted as failing in the status bar: something is wrong with it (a problem while running too). */
export function isFailing(state: ServerState): boolean {
  return problemOf(state) !== undefined;
}

/** Chat waits for these before it asks the server. */
export function isStarting(state: ServerState): boolean {
  return lifecycleOf(state)?.kind === 'starting';
}

/** For exhaustive switches: the compiler fails the build when a kind is not handled. */
export function unreachable(value: never): never {
  throw new Error(`unhandled state ${JSON.stringify(value)}`);
}

/** "1 prompt", "2 prompts": a count of prompts as a server row and the status bar say it. */
export function promptCount(n: number): string {
  return n === 1 ? l10n.t('1 prompt') : l10n.t('{0} prompts', n);
}

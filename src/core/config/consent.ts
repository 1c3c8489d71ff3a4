// Consent to start a workspace-defined server, and the storage keys that keep secrets and consent
// apart per origin. A definition is identified by a hash of what it runs or where it connects, before
// substitution: a changed command line or URL asks again, a stored secret never enters the hash.
import { createHash } from 'node:crypto';
import type { ServerDefinition } from './config.js';

export type ConsentDecision = 'allowed' | 'denied';
export interface ConsentRecord {
  fingerprint: string;
  decision: ConsentDecision;
}

export function definitionFingerprint(def: ServerDefinition): string {
  const t = def.transport;
  const what =
    t.type === 'stdio'
      ? { type: t.type, command: t.command, args: t.args, env: t.env, envFile: t.envFile, cwd: t.cwd }
      : { type: t.type, url: t.url, headers: t.headers, clientId: t.clientId };
  return createHash('sha256')
    .update(JSON.stringify([def.scope ?? '', def.name, what]))
    .digest('hex');
}

/** What the user is asked to allow: the command line or the URL, as written in the configuration. */
export function describeLaunch(def: ServerDefinition): string {
  const t = def.transport;
  return t.type === 'stdio' ? [t.command, ...t.args].map(quoteArg).join(' ') : t.url;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a);
}

export function consentKey(def: ServerDefinition): string {
  return `consent:${def.scope ?? def.source}:${def.id}`;
}

/** `allowed`, `denied`, or `ask` when there is no decision for this exact definition. */
export function consentState(def: ServerDefinition, record: ConsentRecord | undefined): ConsentDecision | 'ask' {
  if (!record || record.fingerprint !== definitionFingerprint(def)) return 'ask';
  return record.decision;
}

/** Where a stored `${input:id}` value lives: per input id and per origin (user, or one workspace folder). */
export function inputStorageKey(scope: string | undefined, id: string): string {
  return `input:${scope ?? 'user'}:${id}`;
}

// The MCP Prompts view's welcome content (src/core/view/welcome.ts): which of no servers / all failing /
// untrusted applies, from plain snapshots of the catalog and the configuration read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject } from '../../src/core/config/config';
import type { ConnectionState, ConnectionStatus } from '../../src/core/protocol/connection/connection-state';
import { PromptError } from '../../src/core/errors';
import type { HoldReason } from '../../src/core/config/server-merge';
import type { ServerSnapshot } from '../../src/core/view/server-state';
import { serversFound, viewWelcome, type ViewSnapshot } from '../../src/core/view/welcome';

function server(
  status: Exclude<ConnectionStatus, 'signIn'>,
  o: { prompts?: number; signIn?: boolean; loading?: boolean } = {},
): ServerSnapshot {
  const def = parseConfigObject({ servers: { alpha: { command: 'node', args: ['x.js'] } } }, 'user').servers[0];
  const error = new PromptError('alpha: spawn nope ENOENT', 'server', 'alpha');
  const state: ConnectionState =
    status === 'error'
      ? { kind: status, error }
      : status === 'running'
        ? { kind: status, info: { transport: 'stdio' } }
        : { kind: status };
  return {
    id: def.id,
    def,
    prompts: Array.from({ length: o.prompts ?? 0 }, (_, i) => `p${i}`),
    loading: o.loading ?? false,
    connection: { state: o.signIn ? { kind: 'signIn', url: new URL('https://auth.example/authorize'), error } : state },
  };
}

const held = (reason: HoldReason | 'consent' | 'declined') => ({ reason });

function view(o: Partial<ViewSnapshot>): ViewSnapshot {
  return { trusted: true, servers: [], held: [], problems: 0, ...o };
}

test('nothing configured: no servers, whatever the trust', () => {
  assert.equal(viewWelcome(view({})), 'noServers');
  assert.equal(viewWelcome(view({ trusted: false })), 'noServers');
  assert.equal(serversFound(view({})), false);
});

test('a configuration file that cannot be read keeps its row, not a welcome', () => {
  assert.equal(viewWelcome(view({ problems: 1 })), undefined);
  assert.equal(viewWelcome(view({ problems: 1, servers: [server('error')] })), undefined);
});

test('Restricted Mode holding back every configured server: untrusted', () => {
  assert.equal(viewWelcome(view({ trusted: false, held: [held('untrusted'), held('envFile')] })), 'untrusted');
  assert.equal(serversFound(view({ trusted: false, held: [held('untrusted')] })), true);
});

test('untrusted but something else is held, or something runs: the rows stay', () => {
  assert.equal(viewWelcome(view({ trusted: false, held: [held('untrusted'), held('disabled')] })), undefined);
  assert.equal(
    viewWelcome(view({ trusted: false, held: [held('untrusted')], servers: [server('running')] })),
    undefined,
  );
  // Trusted, waiting for consent: the row is where the user decides.
  assert.equal(viewWelcome(view({ held: [held('consent')] })), undefined);
});

test('every server down with nothing to offer: all failing', () => {
  assert.equal(viewWelcome(view({ servers: [server('error'), server('error')] })), 'allFailing');
  assert.equal(serversFound(view({ servers: [server('error')] })), true);
});

test('one server up, starting, cached, signing in or stopped by policy: not all failing', () => {
  for (const other of [
    server('running'),
    server('starting'),
    server('idle'),
    server('stopped'),
    server('error', { prompts: 2 }),
    server('error', { signIn: true }),
  ]) {
    assert.equal(viewWelcome(view({ servers: [server('error'), other] })), undefined, JSON.stringify(other.connection));
  }
  assert.equal(viewWelcome(view({ servers: [server('error')], held: [held('declined')] })), undefined);
});

test('servers that run: no welcome', () => {
  assert.equal(viewWelcome(view({ servers: [server('running', { prompts: 1 })] })), undefined);
});

// Process, listener and timer hygiene: 1,000 prompt runs across 10 real servers, with crashes and
// automatic restarts along the way, must leave exactly one process per server while running and
// nothing at all (children, handles, timers, process listeners) once the catalog is disposed.
import { test } from 'node:test';
import childProcess, { type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog/catalog';

import { childPidsMatching, defs, launch, rejection, waitFor, getLine } from './helpers';

/**
 * Handles and timers this process holds, by kind (e.g. `{ Timeout: 2, PipeWrap: 3 }`). Not counted:
 * one-shot requests (CloseReq, FSReqCallback), and ProcessWrap, which Node 20 sometimes keeps listing
 * for a child that has exited and closed (every child's exit and close are checked instead).
 */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo())
    if (!/Req|ProcessWrap/.test(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

const PROCESS_EVENTS = [
  'exit',
  'SIGINT',
  'SIGTERM',
  'uncaughtException',
  'unhandledRejection',
  'beforeExit',
  'warning',
] as const;
const processListeners = () => Object.fromEntries(PROCESS_EVENTS.map(e => [e, process.listenerCount(e)]));

/** Every child process spawned during the test (the SDK spawns through child_process.spawn), with its events. */
const spawned: Array<{ child: ChildProcess; events: string[] }> = [];
const originalSpawn = childProcess.spawn;
function recordSpawns(): () => void {
  (childProcess as { spawn: unknown }).spawn = function (this: unknown, ...args: Parameters<typeof originalSpawn>) {
    const child = originalSpawn.apply(this, args);
    const record = { child, events: [] as string[] };
    child.on('exit', code => record.events.push(`exit ${code}`));
    child.on('close', () => record.events.push('close'));
    spawned.push(record);
    return child;
  };
  return () => {
    (childProcess as { spawn: unknown }).spawn = originalSpawn;
  };
}

test('1,000 runs across 10 servers with crashes and restarts leave no process, handle, timer or listener behind', async () => {
  const L = await launch();
  const marker = 'faulty.mjs';
  const crashMarker = 'run.mjs crashing';
  const baseline = {
    resources: resources(),
    listeners: processListeners(),
    children: childPidsMatching(marker).length + childPidsMatching(crashMarker).length,
  };
  assert.equal(baseline.children, 0, 'no fixture children before the test');

  const servers: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) servers[`ok${i}`] = L.faultyCommand('ok');
  servers.crash0 = L.fixtureCommand('crashing');
  servers.crash1 = L.fixtureCommand('crashing');
  const restoreSpawn = recordSpawns();
  const catalog = new Catalog({
    start: 'eager',
    debounceMs: 20,
    // Restart fast and never give up, so every crash is followed by a restart.
    connection: () => ({
      restart: { initialDelayMs: 10, maxDelayMs: 50, maxCrashes: 1000, windowMs: 60000 },
      timeoutMs: 20000,
    }),
  });
  let changes = 0;
  const subscription = catalog.onDidChange(() => {
    changes++;
  });
  try {
    catalog.setServers(defs(servers));
    await catalog.ready();
    const ids = catalog.servers.map(s => s.id);
    let crashes = 0;
    for (let run = 0; run < 1000; run++) {
      const id = ids[run % ids.length];
      if (id.startsWith('crash') && run % 50 === 8) {
        // Every 50th run crashes one server: the request fails at once, the server comes back.
        await rejection(getLine(catalog, `${id}.crash`));
        crashes++;
        await waitFor(() => catalog.server(id)!.connection.state.kind === 'running', `${id} restarted`);
        continue;
      }
      const line = id.startsWith('crash') ? `${id}.hello` : `${id}.hello name=run${run}`;
      const result = await getLine(catalog, line);
      assert.ok(
        JSON.stringify(result.result).includes(id.startsWith('crash') ? 'Hello from crashing' : `Hello, run${run}!`),
      );
    }
    assert.equal(crashes, 20);
    // While running: one process per server, however many restarts happened.
    assert.equal(childPidsMatching(marker).length, 8);
    assert.equal(childPidsMatching(crashMarker).length, 2);
    assert.ok(changes > 0);
  } finally {
    subscription.dispose();
    await catalog.dispose();
    restoreSpawn();
  }
  await waitFor(
    () => childPidsMatching(marker).length + childPidsMatching(crashMarker).length === 0,
    'every server process gone',
  );
  // 10 first starts (one process each: no probe process) + 20 restarts with the remembered era; each
  // process exited and its pipes closed.
  assert.equal(spawned.length, 30);
  await waitFor(() => spawned.every(r => r.events.includes('close')), 'every child closed');
  // Handles close asynchronously after the processes exit: wait for the counts to settle back.
  await waitFor(
    () => JSON.stringify(resources()) === JSON.stringify(baseline.resources),
    `resources back to ${JSON.stringify(baseline.resources)} (now ${JSON.stringify(resources())})`,
  );
  assert.deepEqual(processListeners(), baseline.listeners);
});

// A stop (the user's, or an idle stop) while the catalog reads a server's prompts: the listing ends,
// nothing starts the server again, and the prompts it had stay. Real stdio servers: faulty.mjs
// `slow-pages` (pages after the first come late, and it answers the page it has begun even after its
// stdin closed, as a server that finishes its work does) and the `changing` fixture (list_changed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childPidsMatching, launch, processRunning, rejection, testCatalog, waitFor } from './helpers';

const starts = (text: string, id: string) => text.split('\n').filter(l => l.startsWith(`Starting ${id} `)).length;

test('a stop while a listing is between pages does not start the server again; the prompts listed before stay', async () => {
  const { faultyCommand } = await launch();
  const { catalog, entry, log } = testCatalog({ slow: faultyCommand('slow-pages') });
  try {
    await catalog.ready();
    const server = entry('slow');
    assert.deepEqual(
      server.prompts.map(p => p.prompt.name),
      ['slow_1', 'slow_2', 'slow_3'],
    );
    const [pid] = childPidsMatching('slow-pages');
    const relist = catalog.refresh('slow');
    // Page 2 of the second listing is asked for: the server answers it late, after the stop below.
    await waitFor(() => log('slow').sentMethods('prompts/list').length === 5, 'page 2 of the re-list');
    await server.connection.stop();
    await relist;
    await waitFor(() => !processRunning(pid), 'the stopped process to exit');
    assert.equal(starts(log('slow').text(), 'slow'), 1, 'the server was not started again');
    assert.equal(server.connection.state.kind, 'stopped');
    assert.deepEqual(childPidsMatching('slow-pages'), [], 'no process runs');
    assert.equal(log('slow').sentMethods('prompts/list').length, 5, 'no page was asked for after the stop');
    assert.deepEqual(
      server.prompts.map(p => p.prompt.name),
      ['slow_1', 'slow_2', 'slow_3'],
      'the prompts of the last whole listing stay',
    );
    assert.equal(server.listError, undefined, 'a stop is no listing error');
  } finally {
    await catalog.dispose();
  }
});

test('a list_changed that arrived just before a stop does not start the server again', async () => {
  const { fixtureCommand } = await launch();
  const { catalog, entry, log } = testCatalog({
    stopped: fixtureCommand('changing'),
    other: fixtureCommand('changing'),
  });
  try {
    await catalog.ready();
    const stopped = entry('stopped');
    const other = entry('other');
    // `grow` sends list_changed before its answer: the re-list is scheduled (50 ms) when the get returns.
    await stopped.connection.getPrompt('grow', {});
    await stopped.connection.stop();
    // The other server's re-list was scheduled later than the stopped one's and ran: so did that timer.
    await other.connection.getPrompt('grow', {});
    await waitFor(() => other.prompts.some(p => p.prompt.name === 'gamma_1'), "the other server's re-list");
    assert.equal(starts(log('stopped').text(), 'stopped'), 1, 'the stopped server was not started again');
    assert.equal(stopped.connection.state.kind, 'stopped');
  } finally {
    await catalog.dispose();
  }
});

test('a stop while the server starts ends that start: its request says so, no error, no process, and the next request starts it anew', async () => {
  const { faultyCommand } = await launch();
  // Its start would wait two minutes for the answer: only the stop's abort ends it within waitFor's minute.
  const { catalog, entry, log } = testCatalog({ hang: { ...faultyCommand('hang-on-initialize'), timeout: 120000 } });
  try {
    const server = entry('hang');
    const pending = rejection(server.connection.getPrompt('hello', {}));
    await waitFor(() => log('hang').sentMethods('initialize').length === 1, 'initialize at the server');
    const [pid] = childPidsMatching('hang-on-initialize');
    const stopped = server.connection.stop();
    await waitFor(() => !processRunning(pid), 'the process of the stopped start to exit');
    await stopped;
    const error = await pending;
    assert.equal(error.kind, 'cancelled');
    assert.match(error.message, /^hang was stopped/);
    assert.equal(server.connection.state.kind, 'stopped', 'the aborted start is no failure of the server');
    assert.deepEqual(childPidsMatching('hang-on-initialize'), [], 'no process runs');
    const next = rejection(server.connection.connect());
    await waitFor(() => starts(log('hang').text(), 'hang') === 2, 'a second start');
    await waitFor(() => childPidsMatching('hang-on-initialize').length === 1, 'its process');
    await server.connection.stop();
    assert.equal((await next).kind, 'cancelled');
  } finally {
    await catalog.dispose();
  }
});

// Error -32042 (URL elicitation required, 2025-11-25) against the real `questions` fixture over stdio:
// the server answers prompts/get or completion/complete with URL questions instead of a result; the
// user is asked through the same asker as any URL question, and after they finish the request is
// retried once. Declined, cancelled, unsafe and "still required" each end with a message naming the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Question, UrlQuestion } from '../../src/core/protocol/questions/elicitation';
import { PromptError } from '../../src/core/errors';
import { RecordingLog, connectQuestions as connect, firstText as text, recording, rejection } from './helpers';

const url = (q: Question | undefined): UrlQuestion =>
  q?.mode === 'url' ? q : assert.fail(`expected a URL question, got ${String(q?.mode)}`);
const gets = (log: RecordingLog, name: string) =>
  log.sentMethods('prompts/get').filter(m => (m.params as { name?: string } | undefined)?.name === name).length;

test('-32042 on prompts/get: the URL question is asked (server, host, the run), and after the user finishes the request is retried once and succeeds', async () => {
  const { asked, asker } = recording(async q => {
    // The server says the page is done (notifications/elicitation/complete): the UI's wait ends by itself.
    await url(q).finished;
    return { action: 'accept' };
  });
  const { connection, log } = await connect(asker);
  try {
    const result = await connection.getPrompt('connect_first', { notify: '1' });
    assert.equal(text(result), 'connect_first: connected after 1 required');
    assert.equal(asked.length, 1);
    const q = url(asked[0]);
    assert.equal(q.server, 'q');
    assert.equal(q.during, 'prompt "connect_first"');
    assert.equal(q.message, 'Connect your account first');
    assert.equal(q.url, 'https://example.com/connect?c=1');
    assert.equal(q.host, 'example.com');
    assert.equal(q.elicitationId, 'c-1');
    assert.equal(gets(log, 'connect_first'), 2, 'one retry');
    assert.ok(
      log.lines.some(
        l =>
          l.message ===
          'q asked: Connect your account first (open example.com) — you agreed to open it (during prompt "connect_first")',
      ),
    );
  } finally {
    await connection.dispose();
  }
});

test('-32042 declined: no retry, and the message names the server, the page and the run; cancelled: a cancelled run', async () => {
  const { connection, log } = await connect(recording(() => ({ action: 'decline' })).asker);
  try {
    const err = await rejection(connection.getPrompt('connect_first', {}));
    assert.ok(err instanceof PromptError);
    assert.equal(err.message, 'q needs you to open a page on example.com before prompt "connect_first"; you declined');
    assert.equal(err.kind, 'input');
    assert.equal(gets(log, 'connect_first'), 1, 'no retry after a decline');
  } finally {
    await connection.dispose();
  }
  const second = await connect(recording(() => ({ action: 'cancel' })).asker);
  try {
    const err = await rejection(second.connection.getPrompt('connect_first', {}));
    assert.ok(err instanceof PromptError);
    assert.equal(err.kind, 'cancelled');
    assert.equal(err.message, 'q: prompt "connect_first" was cancelled');
    assert.equal(gets(second.log, 'connect_first'), 1);
  } finally {
    await second.connection.dispose();
  }
});

test('-32042 again after the retry: retried only once, then a message saying the server still needs the page', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept' }));
  const { connection, log } = await connect(asker);
  try {
    const err = await rejection(connection.getPrompt('connect_first', { always: '1' }));
    assert.ok(err instanceof PromptError);
    assert.equal(
      err.message,
      'q still needs you to finish on example.com before prompt "connect_first" (asked again after you opened it)',
    );
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(gets(log, 'connect_first'), 2, 'one retry, no more');
  } finally {
    await connection.dispose();
  }
});

test('-32042 with an unsafe address is refused before the user sees it; without an asker it ends as cancelled', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept' }));
  const { connection, log } = await connect(asker);
  try {
    const err = await rejection(connection.getPrompt('connect_first', { url: 'http://evil.example/steal' }));
    assert.ok(err instanceof PromptError);
    assert.equal(
      err.message,
      'q asked to open "http://evil.example/steal": only https: addresses (or http: to this computer) are opened',
    );
    assert.equal(asked.length, 0);
    assert.equal(gets(log, 'connect_first'), 1);
  } finally {
    await connection.dispose();
  }
  const none = await connect(undefined);
  try {
    const err = await rejection(none.connection.getPrompt('connect_first', {}));
    assert.ok(err instanceof PromptError);
    assert.equal(err.kind, 'cancelled');
  } finally {
    await none.connection.dispose();
  }
});

test('-32042 on completion/complete: asked the same way, then the completion is retried once and completes', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept' }));
  const { connection, log } = await connect(asker);
  try {
    const result = await connection.complete('account', 'name', 'w', {});
    assert.deepEqual(result.values, ['work']);
    assert.equal(url(asked[0]).during, 'completion of "name"');
    assert.equal(log.sentMethods('completion/complete').length, 2);
  } finally {
    await connection.dispose();
  }
});

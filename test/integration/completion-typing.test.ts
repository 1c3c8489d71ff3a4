// Completion while a person types one argument, on a real server that counts what it is asked: the
// argument input's CompletionSession (src/core/view/completion-session.ts, what src/ui/argument-step.ts
// wraps) never has two requests under way at the server, even when keystrokes come faster than the
// server answers and slower than the quiet spell. The server (test/fixtures/servers/completions.mjs)
// takes 300 ms an answer and writes what it received and the most it had under way at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { completeArgument } from '../../src/core/run/invocation';
import { CompletionSession } from '../../src/core/view/completion-session';
import { suggestions, type Completions } from '../../src/core/view/suggestions';
import { launch, tempDir, testCatalog, waitFor } from './helpers';

interface ServerStats {
  received: string[];
  underWay: number;
  mostUnderWay: number;
}

/** Keystrokes of "typescript" with the pause before each: bursts, and pauses past the quiet spell but within the server's answer. */
const TYPING: Array<[string, number]> = [
  ['t', 0],
  ['ty', 10],
  ['typ', 120],
  ['type', 200],
  ['types', 15],
  ['typesc', 180],
  ['typescr', 220],
  ['typescri', 10],
  ['typescrip', 150],
  ['typescript', 250],
];

test('typing an argument: one completion request at the server at a time, the list narrowed on every keystroke, the last text answered', async () => {
  const dir = tempDir('mcp-completion-typing-');
  const statsFile = path.join(dir, 'stats.json');
  const { fixtureCommand } = await launch();
  const { catalog } = testCatalog({
    comp: { ...fixtureCommand('completions'), env: { COMPLETION_DELAY_MS: '300', COMPLETION_STATS: statsFile } },
  });
  try {
    await catalog.ready();
    const target = await catalog.findPrompt('comp.pick_framework');
    const shown: Completions[] = [];
    const session = new CompletionSession({
      fetch: async (prefix, signal) => (await completeArgument(target, 'language', prefix, {}, signal)).values,
      show: c => shown.push(c),
    });
    // What the step lists after each keystroke: the last answer, narrowed to the text.
    const listed: string[][] = [];
    session.request('');
    await waitFor(() => shown.length === 1, 'the answer for the empty text');
    for (const [text, pause] of TYPING) {
      await new Promise(r => setTimeout(r, pause));
      session.request(text);
      listed.push([...suggestions(text, [], session.current, 'comp').keys()]);
    }
    await waitFor(() => shown.at(-1)?.prefix === 'typescript', 'the answer for the last text');
    const read = () => (JSON.parse(fs.readFileSync(statsFile, 'utf8')) as Record<string, ServerStats>).language;
    await waitFor(() => read().underWay === 0, 'the server is idle');
    const stats = read();
    session.dispose();

    assert.equal(stats.mostUnderWay, 1, `the server had ${stats.mostUnderWay} requests under way at once`);
    assert.equal(session.stats.maxInFlight, 1);
    assert.equal(session.stats.cancelled, 0, 'no request was cancelled: each was waited for');
    assert.equal(stats.received[0], '');
    assert.equal(stats.received.at(-1), 'typescript', 'the last text was asked');
    assert.ok(
      stats.received.length < TYPING.length + 1,
      `fewer requests than keystrokes: ${stats.received.join(', ')}`,
    );
    assert.deepEqual(shown.at(-1), { prefix: 'typescript', values: ['typescript'] });
    // Before any answer for a typed text, the empty text's answer narrowed to what was typed.
    assert.deepEqual(listed[0], ['typescript'], 'the first keystroke already lists typescript, narrowed locally');
    for (const [i, list] of listed.entries())
      assert.ok(
        list.every(v => v.startsWith(TYPING[i][0])),
        `after "${TYPING[i][0]}" only values starting with it are listed: ${list.join(', ')}`,
      );
  } finally {
    await catalog.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

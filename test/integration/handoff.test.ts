// The hand-off to the user's agent built from the real rich fixture server's prompt, read through the
// CLI (`get --json`): earlier turns, the request, media. The edge shapes are in test/unit/handoff.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { toTranscript } from '../../src/core/render/content';
import { buildHandOff } from '../../src/core/render/agent-request';
import { launch, runCli, tempDir } from './helpers';

const options = { source: { server: 'rich', prompt: 'rich.rich_content' }, opener: '/s.p', continueText: 'Continue.' };

test('the rich fixture prompt: earlier turns as finished turns, the last user message as the request, media beside the text', async () => {
  const L = await launch();
  const dir = tempDir('mcp-prompts-handoff-');
  const config = path.join(dir, 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { rich: L.fixtureCommand('rich') } }));
  const r = await runCli(['get', 'rich.rich_content', '--config', config, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const h = buildHandOff(toTranscript(JSON.parse(r.stdout) as { messages?: unknown[] }), options);
  // user (markdown + image) → assistant "I can see the image." → user (audio, resources, link) → assistant note
  assert.equal(h.previousRequests.length, 2);
  assert.match(
    h.previousRequests[0].request,
    /^The following was returned by the MCP server "rich" \(prompt rich\.rich_content\); it is not the user's words\.\n\n# Rich content[\s\S]*\[image image\.png \(image\/png, [\d.]+ (B|KB)\)\]$/,
  );
  assert.match(h.previousRequests[0].response, /\n\nI can see the image\.$/);
  const second = h.previousRequests[1].request;
  assert.match(second, /\n\n\[audio audio\.wav \(audio\/wav, 15\.7 KB\)\]/);
  assert.match(second, /\[resource file:\/\/\/demo\/notes\.md attached as notes\.md\]/);
  assert.match(second, /\[resource file:\/\/\/demo\/data\.bin attached as data\.bin\]/);
  assert.match(second, /\[resource link Demo README: demo:\/\/docs\/readme\]$/);
  assert.match(h.previousRequests[1].response, /\n\nThis note is meant for the assistant only\.$/);
  assert.equal(h.query, 'Continue.');
  assert.deepEqual(
    h.images.map(i => [i.index, i.part.fileName]),
    [['0.1', 'image.png']],
  );
  assert.deepEqual(
    h.files.map(f => f.part.fileName),
    ['audio.wav', 'notes.md', 'data.bin'],
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

// The prompts a person ran and pinned (core/run/records/prompt-usage.ts) and how the surfaces find them in the
// servers as they are now (core/view/prompt-groups.ts): newest first, bounded, per definition, nothing
// typed into a password-like argument or taken from the editor, nothing of an untrusted workspace's
// servers, and whatever another version wrote into the store read as untrusted data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import type { ServerEntry } from '../../src/core/catalog/catalog';
import { listedServer } from './listed-server';
import type { HeldEntry } from '../../src/core/config/server-merge';
import { memoryStore, type KeyValueStore } from '../../src/core/run/records/argument-history';
import { MAX_RECENT, PromptUsage, placeOf } from '../../src/core/run/records/prompt-usage';
import { promptGroups } from '../../src/core/view/prompt-groups';

function def(name: string, source: 'user' | 'workspace' = 'user', command = 'node'): ServerDefinition {
  const d = parseConfigObject({ servers: { [name]: { command, args: ['x.js'] } } }, source).servers[0];
  return { ...d, scope: source === 'user' ? 'user' : '/repo' };
}

/** A listed server entry with prompts named `names` (arguments: topic, token). */
function entry(
  name: string,
  names: string[],
  o: Partial<ServerEntry> & { source?: 'user' | 'workspace' } = {},
): ServerEntry {
  const { def: given, source, ...rest } = o;
  const args = [{ name: 'topic', required: true }, { name: 'token' }];
  return listedServer(
    name,
    names.map(n => ({ name: n, title: `Title ${n}`, arguments: args })),
    { def: given ?? def(name, source), entry: rest },
  );
}

const prompt = (e: ServerEntry, name: string) => e.prompts.find(p => p.prompt.name === name)!;

test('runs are kept newest first, counted, with the values typed; a second run moves the prompt up', async () => {
  const usage = new PromptUsage(memoryStore());
  const s = entry('team', ['greet', 'review']);
  await usage.ran(prompt(s, 'greet'), { topic: 'beta' });
  await usage.ran(prompt(s, 'review'), { topic: 'x' });
  await usage.ran(prompt(s, 'greet'), { topic: 'gamma' });
  const recent = usage.recent();
  assert.deepEqual(
    recent.map(r => [r.place.prompt, r.count, r.args]),
    [
      ['greet', 2, { topic: 'gamma' }],
      ['review', 1, { topic: 'x' }],
    ],
  );
  assert.deepEqual(usage.lastArguments(prompt(s, 'greet')), { topic: 'gamma' });
});

test('never kept: values from the editor, password-like arguments, very long values; nothing of a server mayKeep refuses', async () => {
  const usage = new PromptUsage(memoryStore(), d => d.source !== 'workspace');
  const s = entry('team', ['greet']);
  await usage.ran(prompt(s, 'greet'), { topic: 'selected text', token: 's3cret' }, ['topic']);
  assert.equal(usage.recent()[0].args, undefined, 'the selection and the token are both left out');
  await usage.ran(prompt(s, 'greet'), { topic: 'x'.repeat(5000) });
  assert.equal(usage.recent()[0].args, undefined, 'a pasted file is not a value to offer again');
  const repo = entry('repo', ['deploy'], { source: 'workspace' });
  await usage.ran(prompt(repo, 'deploy'), { topic: 'prod' });
  assert.deepEqual(
    usage.recent().map(r => r.place.prompt),
    ['greet'],
    "an untrusted workspace's server leaves no trace",
  );
});

test('at most MAX_RECENT runs are kept, the oldest drop off', async () => {
  const usage = new PromptUsage(memoryStore());
  const s = entry(
    'big',
    Array.from({ length: MAX_RECENT + 20 }, (_, i) => `p${i}`),
  );
  for (const p of s.prompts) await usage.ran(p, {});
  assert.equal(usage.recent().length, MAX_RECENT);
  assert.equal(usage.recent()[0].place.prompt, `p${MAX_RECENT + 19}`);
});

test("values typed for one definition are not offered to another repository's server of the same name", async () => {
  const store = memoryStore();
  const usage = new PromptUsage(store);
  const mine = entry('api', ['deploy'], { def: def('api', 'user', 'node') });
  await usage.ran(prompt(mine, 'deploy'), { topic: 'prod' });
  const changed = entry('api', ['deploy'], { def: def('api', 'user', 'python') });
  assert.equal(usage.lastArguments(prompt(changed, 'deploy')), undefined);
  const groups = promptGroups([changed], [], usage);
  assert.equal(groups.recent[0].args, undefined, 'the prompt is recent, its values are not shown');
});

test('pins survive a new window (a new PromptUsage on the same store) and a server restart (new prompt objects)', async () => {
  const store = memoryStore();
  const s = entry('team', ['greet', 'review']);
  await new PromptUsage(store).setPinned(prompt(s, 'review'), true);
  const again = new PromptUsage(store);
  const restarted = entry('team', ['greet', 'review']);
  assert.equal(again.isPinned(prompt(restarted, 'review')), true);
  assert.deepEqual(
    promptGroups([restarted], [], again).pinned.map(p => ('prompt' in p ? p.prompt : undefined)),
    [prompt(restarted, 'review')],
  );
  await again.setPinned(placeOf(prompt(restarted, 'review')), false);
  assert.equal(again.isPinned(prompt(restarted, 'review')), false);
});

test('a recent prompt its server no longer lists is left out and forgotten; one not listed yet is kept', async () => {
  const usage = new PromptUsage(memoryStore());
  const before = entry('team', ['greet', 'gone']);
  await usage.ran(prompt(before, 'gone'), {});
  await usage.ran(prompt(before, 'greet'), {});
  const starting = entry('team', [], { loading: true });
  assert.deepEqual(promptGroups([starting], [], usage).gone, [], 'a server still listing has not said what is gone');
  const after = entry('team', ['greet']);
  const groups = promptGroups([after], [], usage);
  assert.deepEqual(
    groups.recent.map(r => r.prompt.prompt.name),
    ['greet'],
  );
  await usage.forget(groups.gone);
  assert.deepEqual(
    usage.recent().map(r => r.place.prompt),
    ['greet'],
  );
});

test('a pinned prompt of a held-back server shows as held, with the reason', async () => {
  const usage = new PromptUsage(memoryStore());
  const repo = entry('repo', ['deploy'], { source: 'workspace' });
  await usage.setPinned(prompt(repo, 'deploy'), true);
  const held: HeldEntry = {
    def: repo.def,
    origin: '.vscode/mcp.json',
    reason: 'untrusted',
    message: 'repo waits for trust',
  };
  const [pin] = promptGroups([], [held], usage).pinned;
  assert.ok('held' in pin);
  assert.equal(pin.held.message, 'repo waits for trust');
  assert.equal(pin.place.prompt, 'deploy');
});

test('what another version or window wrote is read as untrusted data: bad entries are skipped', () => {
  const raw: Record<string, unknown> = {
    'prompts.recent': [
      null,
      42,
      {
        place: { scope: 'user', server: 'team', prompt: 'greet' },
        at: 5,
        count: 'many',
        args: { topic: 'ok', n: 3 },
        definition: 'd',
      },
      { place: { scope: 'user', server: 'team' }, at: 1 },
      { place: { scope: 'user', server: 'x'.repeat(5000), prompt: 'p' }, at: 1 },
      { place: { scope: 'user', server: 'team', prompt: 'review' }, at: -1 },
      {
        place: { scope: 'user', server: 'team', prompt: 'review' },
        at: 3,
        args: { api_key: 'k', topic: 'fine' },
        definition: 'd',
      },
    ],
    'prompts.pinned': { not: 'a list' },
  };
  const store: KeyValueStore = {
    get: <T>(key: string, fallback: T) => (key in raw ? (raw[key] as T) : fallback),
    update: () => Promise.resolve(),
  };
  const usage = new PromptUsage(store);
  assert.deepEqual(usage.recent(), [
    {
      place: { scope: 'user', server: 'team', prompt: 'greet' },
      at: 5,
      count: 1,
      args: { topic: 'ok' },
      definition: 'd',
    },
    {
      place: { scope: 'user', server: 'team', prompt: 'review' },
      at: 3,
      count: 1,
      args: { topic: 'fine' },
      definition: 'd',
    },
  ]);
  assert.deepEqual(usage.pins(), []);
});

test("the list a run writes is read back as written (VS Code's store keeps a copy); another window's write is checked again; what a read would drop is not kept", async () => {
  // As VS Code's globalState: update keeps a JSON copy, get returns that copy until the next write.
  const held: Record<string, unknown> = {};
  const store: KeyValueStore = {
    get: <T>(key: string, fallback: T) => (key in held ? (held[key] as T) : fallback),
    update: (key, value) => {
      held[key] = JSON.parse(JSON.stringify(value));
      return Promise.resolve();
    },
  };
  const usage = new PromptUsage(store);
  const s = entry('team', ['greet', 'review', 'x'.repeat(1001)]);
  await usage.ran(prompt(s, 'greet'), { topic: 'beta' });
  const [first] = usage.recent();
  await usage.ran(prompt(s, 'review'), { topic: 'x' });
  assert.equal(usage.recent()[1], first, 'the earlier run is the object kept, not a copy parsed again');
  await usage.ran(prompt(s, 'x'.repeat(1001)), { topic: 'long name' });
  assert.deepEqual(
    usage.recent().map(r => r.place.prompt),
    ['review', 'greet'],
    'a name no read would accept is not kept',
  );
  await usage.setPinned(prompt(s, 'x'.repeat(1001)), true);
  assert.deepEqual(usage.pins(), []);
  // Another window writes: the new list is read as untrusted data.
  held['prompts.recent'] = [{ place: { scope: 'user', server: 'team', prompt: 'greet' }, at: -1 }, 7];
  assert.deepEqual(usage.recent(), []);
});

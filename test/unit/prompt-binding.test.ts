// A prompt bound to a key (core/run/requests/prompt-binding.ts): the `args` of a keybindings.json entry come from
// a file the user edits by hand, so every shape is checked into a binding or one sentence naming what
// is wrong; a binding is then looked up in the servers as they are now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerEntry } from '../../src/core/catalog/catalog';
import type { HeldEntry } from '../../src/core/config/server-merge';
import { listedServer, untrustedServer } from './listed-server';
import {
  bindingEntry,
  lookUpBinding,
  parsePromptBinding,
  type PromptBinding,
} from '../../src/core/run/requests/prompt-binding';

function server(name: string, prompts: string[]): ServerEntry {
  const args = [
    { name: 'team', required: true },
    { name: 'member', required: true },
  ];
  return listedServer(
    name,
    prompts.map(n => ({ name: n, arguments: args })),
  );
}

const catalog = (servers: ServerEntry[]) => ({ servers, ready: () => Promise.resolve() });

function problemOf(value: unknown): string {
  const r = parsePromptBinding(value);
  assert.ok('problem' in r, `expected a problem for ${JSON.stringify(value)}`);
  return r.problem;
}

test('a well-formed binding is read as it is', () => {
  assert.deepEqual(
    parsePromptBinding({ server: 'team', prompt: 'greet', arguments: { team: 'beta' }, target: 'editor' }),
    {
      binding: { server: 'team', prompt: 'greet', arguments: { team: 'beta' }, target: 'editor' },
    },
  );
  assert.deepEqual(parsePromptBinding({ server: 'team', prompt: 'greet' }), {
    binding: { server: 'team', prompt: 'greet', arguments: {} },
  });
});

test('each hostile or mistaken shape gets one sentence naming the field', () => {
  assert.match(problemOf(null), /"args" must be an object/);
  assert.match(problemOf(['team', 'greet']), /"args" must be an object/);
  assert.match(problemOf('team.greet'), /"args" must be an object/);
  assert.match(problemOf({ prompt: 'greet' }), /"args" needs "server"/);
  assert.match(problemOf({ server: 'team' }), /"args" needs "prompt"/);
  assert.match(problemOf({ server: 7, prompt: 'greet' }), /"args\.server" must be a name \(text\), not a number/);
  assert.match(
    problemOf({ server: '  ', prompt: 'greet' }),
    /"args\.server" must be a name \(text\), not an empty text/,
  );
  assert.match(problemOf({ server: 'x'.repeat(2000), prompt: 'greet' }), /not a text of 2000 characters/);
  assert.match(problemOf({ server: 'team', prompt: 'greet', promt: 'x' }), /fields MCP Prompts does not know: promt/);
  assert.match(
    problemOf({ server: 'team', prompt: 'greet', arguments: 'team=beta' }),
    /"args\.arguments" must be an object/,
  );
  assert.match(
    problemOf({ server: 'team', prompt: 'greet', arguments: [1] }),
    /"args\.arguments" must be an object of names and texts, not a list/,
  );
  assert.match(
    problemOf({ server: 'team', prompt: 'greet', arguments: { count: 3 } }),
    /"args\.arguments\.count" must be text, not a number/,
  );
  assert.match(
    problemOf({ server: 'team', prompt: 'greet', arguments: { deep: { a: { b: 1 } } } }),
    /must be text, not an object/,
  );
  assert.match(
    problemOf({ server: 'team', prompt: 'greet', target: 'panel' }),
    /"args\.target" must be "chat" or "editor"/,
  );
  const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`a${i}`, 'v']));
  assert.match(problemOf({ server: 'team', prompt: 'greet', arguments: many }), /has 500 entries; at most 100/);
  // A name meant to look like something else is shown by the label rule: one line, no icon syntax.
  assert.doesNotMatch(problemOf({ server: 'team', prompt: 'greet', 'x\n$(alert)': 1 }), /\n|\$\(alert\)/);
});

test('a "__proto__" argument is data, not a prototype', () => {
  const value = JSON.parse(
    '{"server":"team","prompt":"greet","arguments":{"__proto__":{"polluted":"yes"}}}',
  ) as unknown;
  assert.match(problemOf(value), /"args\.arguments\.__proto__" must be text/);
  const ok = parsePromptBinding(JSON.parse('{"server":"team","prompt":"greet","arguments":{"__proto__":"x"}}'));
  assert.ok('binding' in ok);
  assert.equal(Object.getPrototypeOf(ok.binding.arguments), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

async function look(
  binding: PromptBinding,
  servers: ServerEntry[],
  held: HeldEntry[] = [],
  where: 'auto' | 'editor' = 'auto',
) {
  return lookUpBinding(binding, catalog(servers), held, where);
}

test('a binding is looked up by server name (or id) and prompt name; its values and target are the run', async () => {
  const team = server('Team Server', ['greet']);
  const found = await look({ server: 'Team Server', prompt: 'greet', arguments: { team: 'beta' }, target: 'chat' }, [
    team,
  ]);
  assert.ok('prompt' in found);
  assert.equal(found.prompt, team.prompts[0]);
  assert.deepEqual(found.values, { team: 'beta' });
  assert.equal(found.where, 'chat');
  const byId = await look({ server: team.id, prompt: 'greet', arguments: {} }, [team]);
  assert.ok('prompt' in byId);
  assert.equal(byId.where, 'auto');
});

test('a stale binding says what is gone: the server, the prompt, an argument; a held server says why', async () => {
  const team = server('team', ['greet']);
  const none = await look({ server: 'old', prompt: 'greet', arguments: {} }, [team]);
  assert.ok('problem' in none);
  assert.match(none.problem, /no server "old" is configured/);
  const prompt = await look({ server: 'team', prompt: 'farewell', arguments: {} }, [team]);
  assert.ok('problem' in prompt);
  assert.match(prompt.problem, /team offers no prompt "farewell"/);
  const arg = await look({ server: 'team', prompt: 'greet', arguments: { colour: 'red' } }, [team]);
  assert.ok('problem' in arg);
  assert.match(arg.problem, /has no argument colour \(it takes: team\*, member\*\)/);
  const held = untrustedServer('repo');
  const h = await look({ server: 'repo', prompt: 'deploy', arguments: {} }, [team], [held]);
  assert.ok('problem' in h);
  assert.match(h.problem, /repo waits for trust/);
  assert.equal(h.held, held);
  const editor = await look({ server: 'team', prompt: 'greet', arguments: {}, target: 'chat' }, [team], [], 'editor');
  assert.ok('problem' in editor);
  assert.match(editor.problem, /Run in Editor always shows the result in the editor/);
});

test('Copy Keybinding writes an entry that parses back into the same binding', () => {
  const team = server('team', ['greet']);
  const entry = bindingEntry(team.prompts[0], { team: 'beta' }, 'mcpPrompts.runPrompt');
  assert.equal(entry.command, 'mcpPrompts.runPrompt');
  assert.deepEqual(parsePromptBinding(JSON.parse(JSON.stringify(entry.args))), {
    binding: { server: 'team', prompt: 'greet', arguments: { team: 'beta' } },
  });
});

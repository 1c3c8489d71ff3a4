// The demo server a newcomer meets in `npm start` (demo/server.mjs, on the SDK's server package), run as a
// user would through the CLI: its four prompts, their completions, the question write_tests asks in the
// middle of the prompt, and the text each prompt hands to the model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, runCli, tempDir } from './helpers';

let dir: string;
let config: string;
const cli = (...args: string[]) => runCli([...args, '--config', config]);

before(() => {
  dir = tempDir('mcp-prompts-demo-');
  config = path.join(dir, 'mcp.json');
  const server = { command: process.execPath, args: [path.join(ROOT, 'demo', 'server.mjs')] };
  fs.writeFileSync(config, JSON.stringify({ servers: { demo: server } }));
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the demo offers prompts a person runs on their code, and none of the test fixtures', async () => {
  const r = await cli('list', '--json');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as {
    name: string;
    title: string;
    arguments: { name: string; required: boolean }[];
  }[];
  assert.deepEqual(
    rows.map(p => [p.name, p.title, p.arguments.map(a => `${a.name}${a.required ? '*' : ''}`).join(' ')]),
    [
      ['code_review', 'Code review', 'code* language focus'],
      ['commit_message', 'Commit message', 'changes* style'],
      ['explain', 'Explain the selection', 'code* audience'],
      ['write_tests', 'Write tests', 'code*'],
    ],
  );
});

test('the optional arguments are completed by the server', async () => {
  const complete = async (prompt: string, argument: string, prefix: string) => {
    const r = await cli('complete', `demo.${prompt}`, argument, prefix);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim().split('\n');
  };
  assert.deepEqual(await complete('code_review', 'language', 'py'), ['python']);
  assert.deepEqual(await complete('code_review', 'focus', 'sec'), ['security']);
  assert.deepEqual(await complete('commit_message', 'style', 'c'), ['conventional']);
  assert.deepEqual(await complete('explain', 'audience', 'b'), ['beginner']);
});

test('a code review puts the code in a fence of its language, one no backtick run in the code can close', async () => {
  const code = 'def greet(name):\n    """Says ```hello```."""\n    return "Hello, " + name';
  const r = await cli('get', 'demo.code_review', `code=${code}`, 'language=python', 'focus=bugs', '--json');
  assert.equal(r.code, 0, r.stderr);
  const text = (JSON.parse(r.stdout) as { messages: { content: { text: string } }[] }).messages[0].content.text;
  assert.match(text, /^Please review this python code, looking at bugs first\./);
  assert.ok(text.endsWith(`\n\n\`\`\`\`python\n${code}\n\`\`\`\``), text);
});

test('a commit message from a diff shows it as a diff, from a description quotes it', async () => {
  const diff = 'diff --git a/greet.py b/greet.py\n--- a/greet.py\n+++ b/greet.py\n@@ -1 +1 @@\n-old\n+new';
  const fromDiff = await cli('get', 'demo.commit_message', `changes=${diff}`, 'style=conventional');
  assert.equal(fromDiff.code, 0, fromDiff.stderr);
  assert.match(fromDiff.stdout, /"type: summary" \(type one of feat, fix/);
  assert.ok(fromDiff.stdout.includes(`The change, as a diff:\n\n\`\`\`diff\n${diff}\n\`\`\``), fromDiff.stdout);
  const fromWords = await cli('get', 'demo.commit_message', 'changes=Greet strangers\nwhen no name is given');
  assert.equal(fromWords.code, 0, fromWords.stderr);
  assert.match(fromWords.stdout, /in the imperative \("Fix …", not "Fixed …"\)/);
  assert.match(fromWords.stdout, /as its author describes it:\n\n> Greet strangers\n> when no name is given/);
});

test('write_tests asks mid-prompt which framework, offering the ones of the code’s language', async () => {
  const python = 'def greet(name):\n    return "Hello, " + name';
  const unanswered = await cli('get', 'demo.write_tests', `code=${python}`);
  assert.equal(unanswered.code, 2);
  assert.equal(
    unanswered.stderr,
    'mcp-prompts: demo asks "Which test framework shall the tests use (the code looks like python)?" ' +
      '(fields: framework*); answer with --answer FIELD=VALUE or run in a terminal\n',
  );
  const pytest = await cli('get', 'demo.write_tests', `code=${python}`, '--answer', 'framework=pytest');
  assert.equal(pytest.code, 0, pytest.stderr);
  assert.match(pytest.stdout, /Write unit tests with pytest for the code below\./);
  // A framework of another language is not among the choices for Python code.
  const jest = await cli('get', 'demo.write_tests', `code=${python}`, '--answer', 'framework=Jest');
  assert.equal(jest.code, 2);
  assert.match(jest.stderr, /^mcp-prompts: demo asks "Which test framework .*": --answer framework: /);
  const js = await cli(
    'get',
    'demo.write_tests',
    'code=export const add = (a, b) => a + b;',
    '--answer',
    'framework=Vitest',
  );
  assert.equal(js.code, 0, js.stderr);
  assert.match(js.stdout, /with Vitest for the code below/);
});

test('an explanation names its reader when one is given', async () => {
  const expert = await cli('get', 'demo.explain', 'code=x = 1', 'audience=expert');
  assert.equal(expert.code, 0, expert.stderr);
  assert.match(expert.stdout, /^Explain what this code does to an expert: first in one sentence, then step by step\./m);
  const anyone = await cli('get', 'demo.explain', 'code=x = 1');
  assert.match(anyone.stdout, /^Explain what this code does: first in one sentence/m);
});

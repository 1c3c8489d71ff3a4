// `mcp-prompts serve` as an agent's MCP client sees it (docs/cli.md): started as a real stdio server and
// driven by the official SDK client in both protocol eras, over the fixture servers and a 2026-07-28-only
// server. The tools list and get (text marked as the server's, images and audio as data), every refusal
// is an error result naming what went wrong, the prompts list, get and complete, a list change is passed
// on, and a server that crashes in the middle of a get is named while the gateway keeps serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCli, waitFor } from './helpers';
import { callTool, configFile, listingOf, startGateway, textOf, type Era } from './gateway';

/** The image and audio parts of rich_content as the server sends them (the CLI's `get --json` prints the result as sent). */
async function sentMedia(config: string): Promise<{ type: string; data: string; mimeType: string }[]> {
  const r = await runCli(['get', 'rich.rich_content', '--json', '--config', config]);
  assert.equal(r.code, 0, r.stderr);
  const { messages } = JSON.parse(r.stdout) as {
    messages: { content: { type: string; data: string; mimeType: string } }[];
  };
  return messages.map(m => m.content).filter(c => c.type === 'image' || c.type === 'audio');
}

for (const era of ['modern', 'legacy'] as Era[]) {
  test(`tools over a ${era} connection: list and get on the fixtures and a 2026-07-28-only server, images, audio and refusals`, async () => {
    const L = await launch();
    const config = configFile({ rich: L.fixtureCommand('rich'), modern: L.modernCommand() });
    const gateway = await startGateway({ era, config: config.file });
    try {
      const { client } = gateway;
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map(t => t.name).sort(), ['get_prompt', 'list_prompts']);

      const listing = listingOf(await callTool(client, 'list_prompts', {}));
      assert.deepEqual(
        listing.prompts.map(p => `${p.server}.${p.name}`),
        ['rich.rich_content', 'rich.code_review', 'modern.greet', 'modern.echo'],
      );
      assert.deepEqual(listing.prompts[1].arguments, [
        { name: 'code', description: 'The code to review', required: true },
        { name: 'language', description: 'Language of the code', required: false },
      ]);

      const review = await callTool(client, 'get_prompt', {
        server: 'rich',
        prompt: 'code_review',
        arguments: { code: 'x = 1', language: 'python' },
      });
      assert.equal(review.isError, undefined, textOf(review));
      assert.equal(
        textOf(review),
        'The following was returned by the MCP server "rich" (prompt rich.code_review); it is not the user\'s words.\n\n### User\n\nPlease review this python:\n\n```python\nx = 1\n```',
      );
      const greet = await callTool(client, 'get_prompt', {
        server: 'modern',
        prompt: 'greet',
        arguments: { name: 'Ada' },
      });
      assert.match(textOf(greet), /^The following was returned by the MCP server "modern" \(prompt modern\.greet\)/);
      assert.match(textOf(greet), /Hello, Ada! \(modern-demo\)/);

      // Images and audio as content the agent can use: the bytes the server sent, where they stood.
      const rich = await callTool(client, 'get_prompt', { server: 'rich', prompt: 'rich_content' });
      assert.deepEqual(
        rich.content.map(c => c.type),
        ['text', 'image', 'text', 'audio', 'text'],
      );
      const [image, audio] = await sentMedia(config.file);
      assert.deepEqual(rich.content[1], { type: 'image', data: image.data, mimeType: 'image/png' });
      assert.deepEqual(rich.content[3], { type: 'audio', data: audio.data, mimeType: 'audio/wav' });
      assert.ok(image.data.length > 100 && audio.data.length > 100);

      // Refusals are error results that say what to do; the gateway answers the next call.
      const missing = await callTool(client, 'get_prompt', { server: 'rich', prompt: 'code_review' });
      assert.equal(missing.isError, true);
      assert.equal(
        textOf(missing),
        'The prompt was not run: rich: prompt "code_review" needs code (it takes: code*, language; * marks a required one)',
      );
      const unknownArgument = await callTool(client, 'get_prompt', {
        server: 'modern',
        prompt: 'echo',
        arguments: { text: 'hi', colour: 'red' },
      });
      assert.equal(unknownArgument.isError, true);
      assert.match(textOf(unknownArgument), /modern: prompt "echo" has no argument colour \(it takes: text\*\)/);
      const unknownPrompt = await callTool(client, 'get_prompt', { server: 'rich', prompt: 'nope' });
      assert.equal(unknownPrompt.isError, true);
      assert.equal(
        textOf(unknownPrompt),
        'The prompt was not run: rich has no prompt "nope" (its prompts: rich_content, code_review)',
      );
      const unknownServer = await callTool(client, 'get_prompt', { server: 'nope', prompt: 'x' });
      assert.equal(unknownServer.isError, true);
      assert.match(textOf(unknownServer), /No MCP server "nope" \(the servers: rich, modern\)/);
      const echo = await callTool(client, 'get_prompt', {
        server: 'modern',
        prompt: 'echo',
        arguments: { text: 'still here' },
      });
      assert.match(textOf(echo), /still here/);
    } finally {
      await gateway.close();
      config.cleanup();
    }
  });
}

test('prompts: one name each, got as the server sent them, completed by their server, and a list change passed on', async () => {
  const L = await launch();
  const config = configFile({
    rich: L.fixtureCommand('rich'),
    rich2: L.fixtureCommand('rich'),
    changing: L.fixtureCommand('changing'),
    completions: L.fixtureCommand('completions'),
  });
  let changes = 0;
  let lastList: string[] = [];
  const listErrors: unknown[] = [];
  const gateway = await startGateway({
    config: config.file,
    client: {
      listChanged: {
        prompts: {
          onChanged: (error, prompts) => {
            // Checked before close: a list change that comes as the client closes fails with "Not connected".
            if (error) return void listErrors.push(error);
            changes++;
            lastList = (prompts ?? []).map(p => p.name);
          },
        },
      },
    },
  });
  try {
    const { client } = gateway;
    const { prompts } = await client.listPrompts();
    // Two servers offer code_review and rich_content: each goes by server.prompt; the rest by their own name.
    assert.deepEqual(
      prompts.map(p => p.name),
      [
        'rich.rich_content',
        'rich.code_review',
        'rich2.rich_content',
        'rich2.code_review',
        'alpha',
        'beta',
        'grow',
        'shrink',
        'pick_framework',
      ],
    );
    assert.deepEqual(
      prompts.find(p => p.name === 'pick_framework')?.arguments?.map(a => [a.name, a.required]),
      [
        ['language', true],
        ['framework', true],
      ],
    );

    const got = await client.getPrompt({ name: 'rich2.code_review', arguments: { code: 'x = 1' } });
    assert.deepEqual(got.messages, [
      { role: 'user', content: { type: 'text', text: 'Please review this code:\n\n```\nx = 1\n```' } },
    ]);
    await assert.rejects(
      client.getPrompt({ name: 'rich.code_review', arguments: {} }),
      /needs code \(it takes: code\*, language/,
    );
    await assert.rejects(client.getPrompt({ name: 'nope', arguments: {} }), /No prompt named "nope"/);

    const language = await client.complete({
      ref: { type: 'ref/prompt', name: 'pick_framework' },
      argument: { name: 'language', value: 'py' },
    });
    assert.deepEqual(language.completion.values, ['python']);
    const framework = await client.complete({
      ref: { type: 'ref/prompt', name: 'pick_framework' },
      argument: { name: 'framework', value: '' },
      context: { arguments: { language: 'rust' } },
    });
    assert.deepEqual(framework.completion.values, ['actix', 'axum', 'rocket']);

    // `grow` adds gamma_1 and tells its client; the gateway tells its own.
    await client.getPrompt({ name: 'grow', arguments: {} });
    await waitFor(() => lastList.includes('gamma_1'), 'the list change reaches the client', 20000);
    assert.ok(changes >= 1);
    const after = await client.getPrompt({ name: 'gamma_1', arguments: {} });
    assert.ok(after.messages.length > 0);
    assert.deepEqual(listErrors, []);
  } finally {
    await gateway.close();
    config.cleanup();
  }
});

test('a server that crashes in the middle of a get is named, and the gateway goes on serving', async () => {
  const L = await launch();
  const config = configFile({ crashing: L.fixtureCommand('crashing'), rich: L.fixtureCommand('rich') });
  const gateway = await startGateway({ config: config.file });
  try {
    const { client } = gateway;
    const crashed = await callTool(client, 'get_prompt', { server: 'crashing', prompt: 'crash' });
    assert.equal(crashed.isError, true);
    assert.match(textOf(crashed), /^The prompt failed: crashing /);
    await assert.rejects(client.getPrompt({ name: 'crash', arguments: {} }), /The prompt failed: crashing /);
    // The other server, and the crashed one once it has restarted, answer as before.
    const review = await callTool(client, 'get_prompt', {
      server: 'rich',
      prompt: 'code_review',
      arguments: { code: '1' },
    });
    assert.equal(review.isError, undefined, textOf(review));
    await waitFor(
      async () => !(await callTool(client, 'get_prompt', { server: 'crashing', prompt: 'hello' })).isError,
      'crashing answers again after its restart',
      30000,
      500,
    );
    const listing = listingOf(await callTool(client, 'list_prompts', {}));
    assert.ok(listing.prompts.some(p => p.server === 'crashing' && p.name === 'hello'));
  } finally {
    await gateway.close();
    config.cleanup();
  }
});

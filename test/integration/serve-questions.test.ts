// A server that asks in the middle of a prompt, behind `mcp-prompts serve`: the question reaches the
// gateway's own client when it declares the capability (a 2025 server's elicitation/create and a 2026-07-28
// server's input_required, to a client of either era), named as that server's, and the answer reaches the
// server; a client that cannot answer gets an error naming the server and the question, never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { launch } from './helpers';
import { callTool, configFile, startGateway, textOf, type Era } from './gateway';

async function questionServers() {
  const L = await launch();
  return configFile({
    q: L.fixtureCommand('questions'),
    modern: { ...L.modernCommand(), env: { MODERN_QUESTIONS: '1' } },
  });
}

for (const era of ['modern', 'legacy'] as Era[]) {
  test(`a server's questions reach a ${era} client that can answer them, and its answers reach the server`, async () => {
    const config = await questionServers();
    const asked: ElicitRequest['params'][] = [];
    let answer: (params: ElicitRequest['params']) => ElicitResult = () => ({ action: 'cancel' });
    const gateway = await startGateway({
      era,
      config: config.file,
      client: { capabilities: { elicitation: { form: {}, url: {} } } },
      before: client =>
        client.setRequestHandler('elicitation/create', request => {
          asked.push(request.params);
          return answer(request.params);
        }),
    });
    try {
      const { client } = gateway;
      // A 2025 server's elicitation/create, through the get tool.
      answer = () => ({ action: 'accept', content: { name: 'Grace' } });
      const named = await callTool(client, 'get_prompt', { server: 'q', prompt: 'ask_name' });
      assert.equal(named.isError, undefined, textOf(named));
      assert.match(textOf(named), /ask_name: action=accept content=\{"name":"Grace"\}/);
      const first = asked[0] as { message: string; requestedSchema: unknown };
      assert.equal(first.message, 'q asks: Which name shall I use?');
      assert.deepEqual(first.requestedSchema, {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name', minLength: 2 } },
        required: ['name'],
      });

      // A 2026-07-28 server's input_required, through prompts/get; a password-like field arrives as text.
      answer = () => ({ action: 'accept', content: { name: 'Ada', token: 't0k' } });
      const signed = await client.getPrompt({ name: 'sign', arguments: {} });
      assert.deepEqual(signed.messages, [
        { role: 'user', content: { type: 'text', text: 'signed by {"name":"Ada","token":"t0k"}' } },
      ]);
      assert.equal((asked[1] as { message: string }).message, 'modern asks: Who signs?');

      // Declined: the server hears it.
      answer = () => ({ action: 'decline' });
      const declined = await callTool(client, 'get_prompt', { server: 'q', prompt: 'ask_name' });
      assert.match(textOf(declined), /ask_name: action=decline/);

      // An answer the question refuses (too short) is not sent: the server hears a cancel.
      answer = () => ({ action: 'accept', content: { name: 'X' } });
      const refused = await callTool(client, 'get_prompt', { server: 'q', prompt: 'ask_name' });
      assert.match(textOf(refused), /ask_name: action=cancel/);
      assert.equal(asked.length, 4);
    } finally {
      await gateway.close();
      config.cleanup();
    }
  });
}

test('a client that cannot answer questions gets an error naming the server and its question', async () => {
  const config = await questionServers();
  const gateway = await startGateway({ config: config.file });
  try {
    const { client } = gateway;
    const tool = await callTool(client, 'get_prompt', { server: 'q', prompt: 'ask_name' });
    assert.equal(tool.isError, true);
    assert.equal(
      textOf(tool),
      'q asks "Which name shall I use?" (fields: name*), and your MCP client cannot answer a server\'s questions (it declares no elicitation capability): the prompt was not run.',
    );
    await assert.rejects(
      client.getPrompt({ name: 'sign', arguments: {} }),
      /modern asks "Who signs\?" \(fields: name\*, token\), and your MCP client cannot answer/,
    );
    // The gateway goes on: a prompt that asks nothing.
    const greet = await callTool(client, 'get_prompt', {
      server: 'modern',
      prompt: 'greet',
      arguments: { name: 'Ada' },
    });
    assert.match(textOf(greet), /Hello, Ada!/);
  } finally {
    await gateway.close();
    config.cleanup();
  }
});

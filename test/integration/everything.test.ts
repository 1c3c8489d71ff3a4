// The core against the real @modelcontextprotocol/server-everything from npm, over stdio and
// Streamable HTTP: list, get every prompt, complete every completable argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/core/catalog/catalog';
import { PromptError } from '../../src/core/errors';
import { completeArgument } from '../../src/core/run/invocation';
import { toTranscript } from '../../src/core/render/content';
import { RecordingLog, childPidsMatching, defs, processRunning, launch, getLine } from './helpers';

const EXPECTED_PROMPTS = [
  { name: 'simple-prompt', title: 'Simple Prompt', description: 'A prompt with no arguments' },
  {
    name: 'args-prompt',
    title: 'Arguments Prompt',
    description: 'A prompt with two arguments, one required and one optional',
    arguments: [
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ],
  },
  {
    name: 'completable-prompt',
    title: 'Team Management',
    description: 'First argument choice narrows values for second argument.',
    arguments: [
      { name: 'department', description: 'Choose the department.', required: true },
      { name: 'name', description: 'Choose a team member to lead the selected department.', required: true },
    ],
  },
  {
    name: 'resource-prompt',
    title: 'Resource Prompt',
    description: 'A prompt that includes an embedded resource reference',
    arguments: [
      { name: 'resourceType', description: 'Type of resource to fetch', required: true },
      { name: 'resourceId', description: 'ID of the text resource to fetch', required: true },
    ],
  },
];

const text = (result: { messages?: unknown[] }, i = 0) =>
  (result.messages?.[i] as { content: { text: string } }).content.text;

async function exercise(
  server: Record<string, unknown>,
  transport: 'stdio' | 'http',
  whileRunning: () => void = () => undefined,
): Promise<void> {
  const log = new RecordingLog();
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ log, restart: false, timeoutMs: 20000 }) });
  catalog.setServers(defs({ everything: server }));
  try {
    await catalog.ready();
    const entry = catalog.server('everything')!;
    assert.equal(entry.listError, undefined, entry.listError?.message);
    whileRunning();
    const info = entry.connection.info!;
    assert.equal(info.transport, transport);
    assert.equal(info.protocolVersion, '2025-11-25');
    assert.equal(info.serverInfo?.name, 'mcp-servers/everything');
    assert.ok(info.capabilities?.prompts && info.capabilities.completions, JSON.stringify(info.capabilities));
    assert.deepEqual(
      entry.prompts.map(p => p.prompt),
      EXPECTED_PROMPTS,
    );
    assert.deepEqual(
      entry.prompts.map(p => p.invocationName),
      [
        'everything.simple-prompt',
        'everything.args-prompt',
        'everything.completable-prompt',
        'everything.resource-prompt',
      ],
    );

    // get every prompt
    const simple = await getLine(catalog, 'simple-prompt');
    assert.deepEqual(simple?.result, {
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } }],
    });
    const args = await getLine(catalog, 'everything.args-prompt city="New York" state=NY');
    assert.equal(text(args.result), "What's weather in New York, NY?");
    const positional = await getLine(catalog, 'args-prompt Paris');
    assert.equal(text(positional.result), "What's weather in Paris?");
    const team = await getLine(catalog, 'completable-prompt department=Engineering name=Alice');
    assert.equal(text(team.result), 'Please promote Alice to the head of the Engineering team.');
    const resource = await getLine(catalog, 'resource-prompt resourceType=Text resourceId=1');
    assert.equal(resource?.result.messages?.length, 2);
    assert.equal(
      text(resource.result),
      'This prompt includes the Text resource with id: 1. Please analyze the following resource:',
    );
    const parts = toTranscript(resource.result).messages.flatMap(m => m.parts);
    assert.equal(parts.length, 2);
    const res = parts[1];
    assert.ok(res.kind === 'resource', JSON.stringify(res));
    assert.equal(res.uri, 'demo://resource/dynamic/text/1');
    assert.equal(res.mimeType, 'text/plain');
    assert.match(res.text ?? '', /^Resource 1: This is a plaintext resource created at /);
    const blob = await getLine(catalog, 'resource-prompt Blob 2');
    const blobPart = toTranscript(blob.result).messages[0].parts[1];
    assert.ok(blobPart.kind === 'resource' && blobPart.blob !== undefined, JSON.stringify(blobPart));
    assert.equal(blobPart.uri, 'demo://resource/dynamic/blob/2');
    assert.match(
      Buffer.from(blobPart.blob, 'base64').toString('utf8'),
      /^Resource 2: This is a base64 blob created at /,
    );

    // Missing required arguments never reach the server; a bad value is the server's error, named.
    const getsBefore = log.sentMethods('prompts/get').length;
    await assert.rejects(
      getLine(catalog, 'completable-prompt department=Sales'),
      (e: unknown) => e instanceof PromptError && e.message === 'everything: prompt "completable-prompt" needs name',
    );
    assert.equal(log.sentMethods('prompts/get').length, getsBefore);
    await assert.rejects(
      getLine(catalog, 'resource-prompt resourceType=Video resourceId=1'),
      (e: unknown) =>
        e instanceof PromptError &&
        /^everything failed on prompt "resource-prompt": .*Invalid resourceType: Video/.test(e.message) &&
        !/MCP error/.test(e.message),
    );

    // complete every completable argument, with the other values as context
    const team2 = await catalog.findPrompt('everything.completable-prompt');
    assert.deepEqual((await completeArgument(team2, 'department', 'E', {})).values, ['Engineering']);
    assert.deepEqual((await completeArgument(team2, 'department', '', {})).values, [
      'Engineering',
      'Sales',
      'Marketing',
      'Support',
    ]);
    assert.deepEqual((await completeArgument(team2, 'name', '', { department: 'Engineering' })).values, [
      'Alice',
      'Bob',
      'Charlie',
    ]);
    assert.deepEqual((await completeArgument(team2, 'name', '', { department: 'Sales' })).values, [
      'David',
      'Eve',
      'Frank',
    ]);
    assert.deepEqual((await completeArgument(team2, 'name', 'K', { department: 'Support' })).values, ['Kim']);
    assert.deepEqual((await completeArgument(team2, 'name', '', {})).values, []);
    const resourcePrompt = await catalog.findPrompt('resource-prompt');
    assert.deepEqual((await completeArgument(resourcePrompt, 'resourceType', 'T', {})).values, ['Text']);
    assert.deepEqual((await completeArgument(resourcePrompt, 'resourceType', '', {})).values, ['Text', 'Blob']);
    assert.deepEqual((await completeArgument(resourcePrompt, 'resourceId', '7', { resourceType: 'Text' })).values, [
      '7',
    ]);
    assert.deepEqual((await completeArgument(resourcePrompt, 'resourceId', 'x', {})).values, []);
    // A plain (non-completable) argument answers with nothing.
    assert.deepEqual((await completeArgument(await catalog.findPrompt('args-prompt'), 'city', 'P', {})).values, []);
  } finally {
    await catalog.dispose();
  }
}

test('server-everything over stdio: list, get each prompt, complete, and no process left', async () => {
  const { everythingCommand, EVERYTHING_JS } = await launch();
  const before = new Set(childPidsMatching(EVERYTHING_JS));
  let pids: number[] = [];
  await exercise(everythingCommand(), 'stdio', () => {
    pids = childPidsMatching(EVERYTHING_JS).filter(p => !before.has(p));
  });
  assert.equal(pids.length, 1, 'one server process while running');
  // exercise() awaited catalog.dispose(): the process is gone.
  assert.equal(processRunning(pids[0]), false);
});

test('server-everything over Streamable HTTP: list, get each prompt, complete', async () => {
  const { startEverythingHttp } = await launch();
  const srv = await startEverythingHttp();
  try {
    await exercise({ type: 'http', url: srv.url }, 'http');
    assert.ok(processRunning(srv.pid), 'the HTTP server keeps running after our session closes');
  } finally {
    await srv.close();
  }
});

// The MCP Inspector CLI, a client nobody here wrote, against `mcp-prompts serve`: what it lists and gets
// from the gateway is what our CLI's `list --json` and `get --json` say the servers offer, over fixture
// servers, a 2026-07-28-only server and the real server-everything from npm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, launch, runCli, tempDir } from './helpers';
import { runInspector } from './npm-servers';

interface ListRow {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
  invocation: string;
}

/** The gateway's name for each row: the prompt's own where no other row has it, else `server.prompt`. */
function gatewayName(row: ListRow, rows: ListRow[]): string {
  return rows.filter(r => r.name === row.name).length === 1 ? row.name : row.invocation;
}

test('the Inspector lists and gets through the gateway what our CLI lists and gets from the servers', async () => {
  const L = await launch();
  const dir = tempDir('mcp-prompts-serve-inspector-');
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        servers: {
          rich: L.fixtureCommand('rich'),
          modern: L.modernCommand(),
          everything: L.everythingCommand(),
          paginated: L.fixtureCommand('paginated'),
        },
      }),
    );
    const env = { XDG_CACHE_HOME: path.join(dir, 'cache') };
    const gateway = [process.execPath, CLI, 'serve', '--config', config];
    const inspector = async (method: string[]) => {
      const r = await runInspector(gateway, method, env);
      assert.equal(r.code, 0, `inspector ${method.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };

    const cliList = await runCli(['list', '--json', '--config', config], { env });
    assert.equal(cliList.code, 0, cliList.stderr);
    const rows = JSON.parse(cliList.stdout) as ListRow[];
    const listed = (await inspector(['--method', 'prompts/list'])).prompts as Record<string, unknown>[];
    assert.deepEqual(
      listed,
      rows.map(r => ({
        name: gatewayName(r, rows),
        ...(r.title !== undefined && { title: r.title }),
        ...(r.description !== undefined && { description: r.description }),
        arguments: r.arguments,
      })),
    );
    assert.ok(rows.length > 30, `${rows.length} prompts from four servers`);
    assert.ok(rows.some(r => r.server === 'modern') && rows.some(r => r.server === 'everything'));

    const gets: [string, string[]][] = [
      ['rich.code_review', ['code=x = 1', 'language=python']],
      ['rich.rich_content', []],
      ['modern.greet', ['name=Ada']],
      ['everything.args-prompt', ['city=Paris', 'state=Texas']],
      ['paginated.p17', ['topic=science']],
    ];
    for (const [name, args] of gets) {
      const row = rows.find(r => r.invocation === name) ?? assert.fail(`no ${name}`);
      const cliGet = await runCli(['get', name, ...args, '--json', '--config', config], { env });
      assert.equal(cliGet.code, 0, cliGet.stderr);
      const sent = JSON.parse(cliGet.stdout) as { description?: string; messages: unknown[] };
      const got = await inspector([
        '--method',
        'prompts/get',
        '--prompt-name',
        gatewayName(row, rows),
        ...(args.length ? ['--prompt-args', ...args] : []),
      ]);
      assert.deepEqual(
        got,
        { ...(sent.description !== undefined && { description: sent.description }), messages: sent.messages },
        name,
      );
    }

    // The tools: the same prompts in the list tool, and a get marked as the server's.
    const tools = (await inspector(['--method', 'tools/list'])).tools as { name: string }[];
    assert.deepEqual(
      tools.map(t => t.name),
      ['list_prompts', 'get_prompt'],
    );
    const list = (await inspector(['--method', 'tools/call', '--tool-name', 'list_prompts'])) as {
      content: { text: string }[];
    };
    const text = list.content[0].text;
    const listing = JSON.parse(text.slice(text.indexOf('\n\n{') + 2)) as {
      prompts: { server: string; name: string }[];
    };
    assert.deepEqual(
      listing.prompts.map(p => `${p.server}.${p.name}`),
      rows.map(r => r.invocation),
    );
    const get = (await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'get_prompt',
      '--tool-arg',
      'server=modern',
      'prompt=greet',
      'arguments={"name":"Ada"}',
    ])) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.equal(get.isError, undefined);
    assert.equal(
      get.content[0].text,
      'The following was returned by the MCP server "modern" (prompt modern.greet); it is not the user\'s words.\n\n> A greeting from a 2026-07-28 server\n\n### User\n\nHello, Ada! (modern-demo)',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

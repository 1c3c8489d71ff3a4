// Which servers `mcp-prompts serve` starts: those of the user's own files when no file is named (VS Code's
// user mcp.json, the Copilot home's mcp-config.json), never the folder the agent runs in; a server whose
// `${input:…}` has no value is named with the variable that gives it one; the gateway's own entry is not
// started, and a gateway started by a gateway refuses to serve. When its client leaves, its servers stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, processRunning, launch, runNode, tempDir, waitFor } from './helpers';
import { callTool, listingOf, startGateway, textOf } from './gateway';

/** A home folder with its config places, and a project folder whose own files name a server that must not run. */
function folders() {
  const root = tempDir('mcp-prompts-serve-files-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const marker = path.join(root, 'workspace-server-ran');
  fs.mkdirSync(path.join(project, '.vscode'), { recursive: true });
  const evil = {
    command: process.execPath,
    args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
  };
  fs.writeFileSync(path.join(project, '.vscode', 'mcp.json'), JSON.stringify({ servers: { evil } }));
  fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { evil2: evil } }));
  const env = {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    COPILOT_HOME: path.join(home, '.copilot'),
  };
  const write = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
  };
  return {
    root,
    home,
    project,
    marker,
    env,
    vscodeFile: (value: unknown) => write(path.join(home, '.config', 'Code', 'User', 'mcp.json'), value),
    copilotFile: (value: unknown) => write(path.join(home, '.copilot', 'mcp-config.json'), value),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

test("serve with no file named reads none of the folder's files: without files of the user's it says so and stops", async () => {
  const f = folders();
  try {
    const r = await runNode([CLI, 'serve'], { cwd: f.project, env: f.env, what: 'serve without files' });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^mcp-prompts: no server file: none of .*\/home\/\.config\/Code\/User\/mcp\.json, .*\/home\/\.copilot\/mcp-config\.json exists; name one with --config FILE\n$/,
    );
    assert.ok(!fs.existsSync(f.marker), "the folder's server did not run");
  } finally {
    f.cleanup();
  }
});

test("serve reads the user's own files: inputs without a value, the gateway's own entry and a loop are named, not run", async () => {
  const L = await launch();
  const f = folders();
  const pids = path.join(f.root, 'pids');
  const loop = path.join(f.root, 'linked-cli.js');
  fs.symlinkSync(CLI, loop);
  f.vscodeFile({
    inputs: [
      { id: 'token', type: 'promptString', password: true, description: 'Token' },
      { id: 'region', type: 'promptString', description: 'Region' },
    ],
    servers: {
      rich: { ...L.fixtureCommand('rich'), env: { REGION: '${input:region}' } },
      team: { ...L.fixtureCommand('rich'), env: { TOKEN: '${input:token}' } },
      'mcp-prompts': { command: process.execPath, args: [CLI, 'serve'] },
      loop: { command: process.execPath, args: [loop, 'serve'] },
    },
  });
  f.copilotFile({
    mcpServers: {
      counted: {
        command: process.execPath,
        args: [path.resolve('test/fixtures/cacheable.mjs')],
        env: { CACHEABLE_PIDS: pids },
      },
    },
  });
  const gateway = await startGateway({ cwd: f.project, env: { ...f.env, MCP_PROMPTS_INPUT_REGION: 'eu' } });
  try {
    const { client } = gateway;
    const listing = listingOf(await callTool(client, 'list_prompts', {}));
    assert.deepEqual([...new Set(listing.prompts.map(p => p.server))], ['rich', 'counted']);
    const reasons = Object.fromEntries(listing.unavailable.map(u => [u.server, u.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['loop', 'mcp-prompts', 'team']);
    assert.equal(
      reasons.team,
      'Server "team": no value for ${input:token}; set MCP_PROMPTS_INPUT_TOKEN in the environment of mcp-prompts serve (the "env" of its entry)',
    );
    assert.equal(reasons['mcp-prompts'], 'mcp-prompts is mcp-prompts serve itself: not started');
    // Not recognised by its command line, the loop is stopped by the mark in its environment.
    assert.match(reasons.loop, /serve was started by mcp-prompts serve: a gateway does not serve another gateway/);

    const team = await callTool(client, 'get_prompt', {
      server: 'team',
      prompt: 'code_review',
      arguments: { code: '1' },
    });
    assert.equal(team.isError, true);
    assert.match(textOf(team), /^Server "team": no value for \$\{input:token\}; set MCP_PROMPTS_INPUT_TOKEN/);
    assert.ok(!fs.existsSync(f.marker), "the folder's servers did not run");
  } finally {
    await gateway.close();
  }
  try {
    // The client left: the gateway stopped its servers.
    const [pid] = fs.readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    await waitFor(() => !processRunning(pid), 'the server the gateway started has stopped', 15000);
  } finally {
    f.cleanup();
  }
});

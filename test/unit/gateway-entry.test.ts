// The gateway's entry for each client: the shape that client reads, and paths that stay strings whatever
// they hold (a Windows path's backslashes, a quote).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayEntry, GATEWAY_CLIENTS } from '../../src/core/config/gateway-entry';

const launch = { node: 'node', cli: '/opt/mcp-prompts/dist/cli.js', config: '/home/ada/.config/Code/User/mcp.json' };
const args = ['/opt/mcp-prompts/dist/cli.js', 'serve', '--config', '/home/ada/.config/Code/User/mcp.json'];

test('each client gets its own format, with node, the CLI and serve --config', () => {
  assert.deepEqual(JSON.parse(gatewayEntry('copilot', launch).text), {
    mcpServers: { 'mcp-prompts': { type: 'local', command: 'node', args, tools: ['*'] } },
  });
  assert.deepEqual(JSON.parse(gatewayEntry('claude', launch).text), {
    mcpServers: { 'mcp-prompts': { type: 'stdio', command: 'node', args } },
  });
  assert.deepEqual(JSON.parse(gatewayEntry('vscode', launch).text), {
    servers: { 'mcp-prompts': { type: 'stdio', command: 'node', args } },
  });
  assert.equal(
    gatewayEntry('codex', launch).text,
    `[mcp_servers.mcp-prompts]
command = "node"
args = ["/opt/mcp-prompts/dist/cli.js", "serve", "--config", "/home/ada/.config/Code/User/mcp.json"]
default_tools_approval_mode = "prompt"
`,
  );
  assert.deepEqual(
    GATEWAY_CLIENTS.map(c => gatewayEntry(c, launch).file),
    ['~/.copilot/mcp-config.json', '~/.codex/config.toml', '.mcp.json', 'mcp.json'],
  );
});

test('without a file the gateway reads the user own files; a path with backslashes and quotes stays one string', () => {
  const windows = { node: 'node', cli: 'C:\\Users\\Ada "A"\\mcp\\dist\\cli.js' };
  const parsed = JSON.parse(gatewayEntry('claude', windows).text) as {
    mcpServers: Record<string, { args: string[] }>;
  };
  assert.deepEqual(parsed.mcpServers['mcp-prompts'].args, [windows.cli, 'serve']);
  // TOML basic strings take JSON's escapes.
  assert.match(
    gatewayEntry('codex', windows).text,
    /^args = \["C:\\\\Users\\\\Ada \\"A\\"\\\\mcp\\\\dist\\\\cli\.js", "serve"\]$/m,
  );
});

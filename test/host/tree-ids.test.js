// @ts-check
// Runs INSIDE the real VS Code host: a server's argument names are server data, and two arguments with
// the same name must not give two tree items one id (VS Code refuses to render a tree with duplicate ids).
const assert = require('node:assert/strict');
const vscode = require('vscode');

const EXT_ID = 'mcp-prompts.mcp-prompts';

// A raw stdio MCP server whose one prompt lists the argument "x" twice.
const DUPLICATE_ARGS_SERVER = `
let buf = '';
const send = m => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    if (msg.method === 'initialize') send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { prompts: {} }, serverInfo: { name: 'dup-args', version: '1.0.0' } } });
    else if (msg.method === 'prompts/list') send({ id: msg.id, result: { prompts: [{ name: 'twice', arguments: [{ name: 'x', description: 'first' }, { name: 'x', description: 'second' }] }] } });
    else send({ id: msg.id, error: { code: -32601, message: 'Method not found' } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

async function waitFor(check, what, timeout = 60000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const v = await check();
    if (v) return v;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('tree item ids', function () {
  this.timeout(120000);

  it('two arguments with the same name get distinct ids', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext);
    const { tree } = ext.isActive ? ext.exports : await ext.activate();
    await vscode.workspace.getConfiguration('mcpPrompts').update('servers', { 'dup-args': { type: 'stdio', command: process.execPath, args: ['-e', DUPLICATE_ARGS_SERVER] } }, vscode.ConfigurationTarget.Global);
    try {
      const node = await waitFor(() => tree.getChildren().find(n => n.type === 'server' && n.entry.id === 'dup-args' && n.entry.prompts.length), 'the dup-args server listed');
      const [prompt] = tree.getChildren(node);
      const ids = tree.getChildren(prompt).map(n => tree.getTreeItem(n).id);
      assert.equal(ids.length, 2);
      assert.notEqual(ids[0], ids[1], `ids: ${ids.join(', ')}`);
    } finally {
      await vscode.workspace.getConfiguration('mcpPrompts').update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

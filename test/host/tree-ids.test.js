// @ts-check
// Runs INSIDE the real VS Code host: a server's argument names are server data, and two arguments with
// the same name must not give two tree items one id (VS Code refuses to render a tree with duplicate ids).
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');

const EXT_ID = 'mcp-prompts.mcp-prompts';

// The faulty fixture's raw stdio server whose one prompt lists the argument "x" twice.
const FAULTY = path.resolve(__dirname, '..', 'fixtures', 'faulty.mjs');

const { waitFor } = require('../wait-for');

describe('tree item ids', function () {
  this.timeout(120000);

  it('two arguments with the same name get distinct ids', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext);
    const { tree } = ext.isActive ? ext.exports : await ext.activate();
    await vscode.workspace
      .getConfiguration('mcpPrompts')
      .update(
        'servers',
        { 'dup-args': { type: 'stdio', command: process.execPath, args: [FAULTY, 'duplicate-args'] } },
        vscode.ConfigurationTarget.Global,
      );
    try {
      const node = await waitFor(
        () => tree.getChildren().find(n => n.type === 'server' && n.entry.id === 'dup-args' && n.entry.prompts.length),
        'the dup-args server listed',
      );
      const [prompt] = tree.getChildren(node);
      const ids = tree.getChildren(prompt).map(n => tree.getTreeItem(n).id);
      assert.equal(ids.length, 2);
      assert.notEqual(ids[0], ids[1], `ids: ${ids.join(', ')}`);
    } finally {
      await vscode.workspace
        .getConfiguration('mcpPrompts')
        .update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

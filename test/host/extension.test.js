// @ts-check
// Runs INSIDE the real VS Code extension host (1.139), against real MCP servers configured through
// the test workspace's .vscode/mcp.json (see test/workspace.mjs).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');

const EXT_ID = 'mcp-prompts.mcp-prompts';
const root = path.resolve(__dirname, '..', '..');

const { waitFor } = require('../wait-for');

/** @returns {Promise<any>} the extension's exports ({ activationMs, catalog, configuration, results, tree, globalStorageUri }) */
async function api() {
  const ext = vscode.extensions.getExtension(EXT_ID);
  assert.ok(ext, `${EXT_ID} is installed`);
  return ext.isActive ? ext.exports : ext.activate();
}

function server(ext, id) {
  return ext.catalog.servers.find(s => s.id === id);
}

/** The servers of the test workspace's .vscode/mcp.json. */
const WORKSPACE_SERVERS = ['rich-demo', 'completions', 'changing', 'paginated', 'everything'];

/** Waits until every workspace server runs and has listed: each test starts from there, whatever ran before it. */
async function allRunning(ext) {
  await waitFor(
    () =>
      WORKSPACE_SERVERS.every(id => server(ext, id)?.connection.state.kind === 'running' && !server(ext, id).loading),
    'all servers running',
  );
}

/** Runs rich-demo's rich_content into the transcript editor (as a key binding names it); resolves with the stored result. */
async function runRichContent(ext) {
  await allRunning(ext);
  return vscode.commands.executeCommand('mcpPrompts.runPromptInEditor', {
    server: 'rich-demo',
    prompt: 'rich_content',
  });
}

/** activate() does no server work of its own: 1 s is far above what it takes on a loaded machine. */
const ACTIVATION_BOUND_MS = 1000;

describe('MCP Prompts in the real VS Code host', function () {
  this.timeout(120000);

  it(`activates within ${ACTIVATION_BOUND_MS} ms and records the time spent in activate()`, async () => {
    const exports = await api();
    assert.equal(typeof exports.activationMs, 'number');
    assert.ok(exports.activationMs > 0, `expected a positive activation time, got ${exports.activationMs}`);
    assert.ok(
      exports.activationMs < ACTIVATION_BOUND_MS,
      `expected activate() to take under ${ACTIVATION_BOUND_MS} ms, it took ${exports.activationMs} ms`,
    );
    fs.mkdirSync(path.join(root, '.artifacts'), { recursive: true });
    fs.writeFileSync(
      path.join(root, '.artifacts', 'activation.json'),
      JSON.stringify({ activationMs: exports.activationMs, vscode: vscode.version, at: new Date().toISOString() }),
    );
  });

  it('registers every command it contributes', async () => {
    await api();
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = pkg.contributes.commands.map(c => c.command).filter(c => !all.has(c));
    assert.deepEqual(missing, []);
    assert.ok(all.has('mcpPrompts.prompts.focus'), 'the sidebar view is contributed');
  });

  it('connects to every server of .vscode/mcp.json and lists all their prompts', async () => {
    const ext = await api();
    await allRunning(ext);
    assert.equal(server(ext, 'paginated').prompts.length, 23, 'every page of the paginated server');
    assert.deepEqual(
      server(ext, 'rich-demo').prompts.map(p => p.invocationName),
      ['rich-demo.rich_content', 'rich-demo.code_review'],
    );
    assert.deepEqual(
      server(ext, 'everything')
        .prompts.map(p => p.prompt.name)
        .sort(),
      ['args-prompt', 'completable-prompt', 'resource-prompt', 'simple-prompt'],
    );
    assert.equal(server(ext, 'rich-demo').connection.info.serverInfo.name, 'rich-demo');
  });

  it("follows a server's list_changed live, in the catalog and the tree", async () => {
    const ext = await api();
    const { tree } = ext;
    await allRunning(ext);
    const changing = server(ext, 'changing');
    const before = changing.prompts.length;
    await vscode.commands.executeCommand('mcpPrompts.refresh');
    await changing.connection.getPrompt('grow', {});
    await waitFor(() => changing.prompts.length === before + 1, 'the new prompt in the catalog');
    const names = changing.prompts.map(p => p.prompt.name);
    assert.ok(
      names.some(n => /^gamma_\d+$/.test(n)),
      names.join(','),
    );
    const roots = tree.getChildren();
    const node = roots.find(n => n.type === 'server' && n.entry.id === 'changing');
    assert.ok(node, 'server node in the tree');
    const children = tree.getChildren(node).map(n => tree.getTreeItem(n).label);
    assert.ok(
      children.some(l => /^gamma_\d+$/.test(String(l))),
      `tree children: ${children.join(', ')}`,
    );
  });

  it("shows a server's tree item with live status, transport and protocol in the tooltip", async () => {
    const ext = await api();
    const { tree } = ext;
    await allRunning(ext);
    const node = tree.getChildren().find(n => n.type === 'server' && n.entry.id === 'rich-demo');
    const item = tree.getTreeItem(node);
    assert.equal(item.label, 'rich-demo');
    assert.match(String(item.description), /^running · stdio · 2 prompts$/);
    assert.match(item.tooltip.value.replace(/&nbsp;/g, ' '), /Protocol: 2025-11-25/);
    assert.equal(item.contextValue, 'server.running');
    const prompt = tree.getChildren(node)[1];
    const args = tree.getChildren(prompt).map(n => tree.getTreeItem(n));
    assert.deepEqual(
      args.map(a => a.label),
      ['code *', 'language'],
    );
    assert.ok(
      ext.catalog.servers.length >= WORKSPACE_SERVERS.length,
      `expected at least the ${WORKSPACE_SERVERS.length} workspace servers in the catalog, got ${ext.catalog.servers.length}`,
    );
  });

  it('refreshes a server row only when something on it changed', async () => {
    // A refresh gives a row a new command reference and drops the old one: a click on a row the window
    // has not redrawn yet then runs nothing ("Actual command not found", seen on a sign-in row).
    const ext = await api();
    const { tree } = ext;
    await allRunning(ext);
    const entry = server(ext, 'rich-demo');
    const node = tree.getChildren().find(n => n.type === 'server' && n.entry === entry);
    tree.getTreeItem(node);
    const fired = [];
    const sub = tree.onDidChangeTreeData(n => fired.push(n));
    try {
      ext.catalog.changeEmitter.fire(entry); // what a repeated status or server-info event does
      assert.equal(fired.length, 0, 'no refresh for an unchanged row');
      await vscode.commands.executeCommand('mcpPrompts.refresh');
      await waitFor(() => fired.length > 0, 'a refresh once the list is new');
    } finally {
      sub.dispose();
    }
  });

  it('runs a prompt into the transcript editor with text, image, audio, resources and a link', async () => {
    const ext = await api();
    const stored = await runRichContent(ext);
    assert.ok(stored, 'a result');
    const kinds = stored.transcript.messages.flatMap(m => m.parts.map(p => `${m.role}:${p.kind}`));
    assert.deepEqual(kinds, [
      'user:text',
      'user:image',
      'assistant:text',
      'user:audio',
      'user:resource',
      'user:resource',
      'user:link',
      'assistant:text',
    ]);
    const doc = await waitFor(
      () =>
        vscode.workspace.textDocuments.find(
          d => d.uri.scheme === 'mcp-prompts-transcript' && d.uri.path.startsWith(`/${stored.id}/`),
        ),
      'the transcript document',
    );
    const text = doc.getText();
    assert.match(text, /### 👤 User/);
    assert.match(text, /### 🤖 Assistant/);
    // The image is referenced next to the document, not inlined: the text VS Code keeps holds no image data.
    assert.match(text, /!\[image\.png\]\(0-1\/image\.png\)/);
    assert.doesNotMatch(text, /data:|base64/);
    const image = stored.transcript.messages[0].parts[1];
    const served = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(doc.uri, '..', '0-1', 'image.png'));
    assert.equal(Buffer.from(served).toString('base64'), image.data, 'the image served beside the transcript');
    await assert.rejects(
      vscode.workspace.fs.readFile(vscode.Uri.joinPath(doc.uri, '..', '0-1', 'other.png')),
      /FileNotFound|EntryNotFound/,
    );
    await assert.rejects(vscode.workspace.fs.writeFile(doc.uri, new Uint8Array([1])), /NoPermissions|read-?only/i);
    assert.match(
      text,
      /🔊 \[audio\.wav \(audio\/wav, 1\.0 s, 15\.7 KB\)\]\(mcp-prompts-media:\/r\d+\/2-0\/audio\.wav\)/,
    );
    assert.match(text, /🔗 \[Demo README\]\(mcp-prompts-resource:/);
    const audioUri = vscode.Uri.parse(/🔊 \[[^\]]+\]\(([^)]+)\)/.exec(text)[1]);
    const audio = await vscode.workspace.fs.readFile(audioUri);
    assert.equal(Buffer.from(audio).toString('latin1', 0, 4), 'RIFF');
    assert.equal(audioUri.scheme, 'mcp-prompts-media', 'served read-only from memory, nothing written to disk');
    await assert.rejects(vscode.workspace.fs.writeFile(audioUri, new Uint8Array([1])), /NoPermissions|read-?only/i);
  });

  it('lets VS Code drop its copy of a closed transcript once the result store evicts the result', async () => {
    const ext = await api();
    const stored = await runRichContent(ext);
    assert.ok(stored, 'a result');
    const isOurs = d => d.uri.scheme === 'mcp-prompts-transcript' && d.uri.path.startsWith(`/${stored.id}/`);
    const doc = await waitFor(() => vscode.workspace.textDocuments.find(isOurs), 'the transcript document');
    assert.match(doc.getText(), /!\[image\.png\]\(0-1\/image\.png\)/);
    const imageUri = vscode.Uri.joinPath(doc.uri, '..', '0-1', 'image.png');
    assert.ok((await vscode.workspace.fs.readFile(imageUri)).length > 0, 'the image while the result is kept');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // VS Code keeps a closed document's text for minutes (up to 80 Mi characters): 11 inlined 5 MB images.
    // Results larger than the store's whole size budget evict every older one, as runs with big images do.
    const big = 'x'.repeat(33 * 1024 * 1024);
    const bigResult = { ...stored.result, result: { messages: [] } };
    ext.results.store(bigResult, {
      messages: [{ role: 'user', parts: [{ kind: 'text', text: big }] }],
    });
    assert.equal(ext.results.get(stored.id), undefined, 'evicted from the store');
    ext.results.store(bigResult, { messages: [] }); // and the big one goes too
    await waitFor(() => {
      const kept = vscode.workspace.textDocuments.find(isOurs);
      return !kept || kept.getText() === 'This transcript is no longer available.';
    }, 'the closed transcript document to give up the evicted result’s text');
    await assert.rejects(vscode.workspace.fs.readFile(imageUri), /FileNotFound|EntryNotFound/, 'its image is gone too');
  });

  it('opens an embedded resource read-only and reads a resource link through resources/read', async () => {
    const ext = await api();
    // Its own run: the test does not rely on the one before it having run the prompt.
    const stored = await runRichContent(ext);
    assert.ok(stored, 'a result');
    const mi = stored.transcript.messages.findIndex(m =>
      m.parts.some(p => p.kind === 'resource' && p.text !== undefined),
    );
    const pi = stored.transcript.messages[mi].parts.findIndex(p => p.kind === 'resource' && p.text !== undefined);
    const part = stored.transcript.messages[mi].parts[pi];
    const md = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'mcp-prompts-resource', path: `/${stored.id}/${mi}.${pi}/notes.md` }),
    );
    assert.equal(md.getText(), part.text);
    await waitFor(() => md.languageId === 'markdown', 'markdown language for text/markdown');
    const link = stored.transcript.messages.flatMap(m => m.parts).find(p => p.kind === 'link');
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.from({
        scheme: 'mcp-prompts-resource',
        path: '/rich-demo/link/readme.md',
        query: encodeURIComponent(link.uri),
      }),
    );
    assert.match(doc.getText(), /README/i);
  });

  it('imports servers from a Claude Desktop file into .vscode/mcp.json and starts them', async () => {
    const ext = await api();
    await allRunning(ext);
    const { command, args } = JSON.parse(
      JSON.stringify(ext.catalog.servers.find(s => s.id === 'completions').def.transport),
    );
    const file = path.join(os.tmpdir(), `claude-${process.pid}.json`);
    const mcpJsonPath = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.vscode', 'mcp.json');
    const original = fs.readFileSync(mcpJsonPath, 'utf8');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { 'Imported Completions': { command, args } } }));
    try {
      const count = await vscode.commands.executeCommand(
        'mcpPrompts.importServers',
        vscode.Uri.file(file),
        'workspace',
      );
      assert.equal(count, 1);
      const mcpJson = JSON.parse(fs.readFileSync(mcpJsonPath, 'utf8'));
      assert.deepEqual(mcpJson.servers['Imported Completions'], { type: 'stdio', command, args });
      await waitFor(() => server(ext, 'imported-completions')?.prompts.length === 1, 'the imported server listed');
    } finally {
      // The workspace's mcp.json as it was: the tests after this one see the same servers as before it.
      fs.writeFileSync(mcpJsonPath, original);
      fs.rmSync(file, { force: true });
    }
    await waitFor(() => !server(ext, 'imported-completions'), 'the imported server gone with its entry');
  });

  it("imports a secret into .vscode/mcp.json only as an input placeholder; the user's own scope is the profile mcp.json", async () => {
    const ext = await api();
    await allRunning(ext);
    const { command, args } = JSON.parse(
      JSON.stringify(ext.catalog.servers.find(s => s.id === 'completions').def.transport),
    );
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';
    const file = path.join(os.tmpdir(), `claude-secret-${process.pid}.json`);
    const mcpJsonPath = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.vscode', 'mcp.json');
    const original = fs.readFileSync(mcpJsonPath, 'utf8');
    const profileJson = path.join(path.dirname(path.dirname(ext.globalStorageUri.fsPath)), 'mcp.json');
    const profileBefore = fs.existsSync(profileJson) ? fs.readFileSync(profileJson, 'utf8') : undefined;
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { 'Secret Srv': { command, args, env: { GITHUB_TOKEN: token } } } }),
    );
    try {
      const imported = await vscode.commands.executeCommand(
        'mcpPrompts.importServers',
        vscode.Uri.file(file),
        'workspace',
        'placeholders',
      );
      assert.equal(imported, 1);
      const written = fs.readFileSync(mcpJsonPath, 'utf8');
      assert.ok(!written.includes(token), 'the token is not in the repository file');
      const mcpJson = JSON.parse(written);
      assert.deepEqual(mcpJson.servers['Secret Srv'].env, { GITHUB_TOKEN: '${input:secret-srv-GITHUB_TOKEN}' });
      assert.deepEqual(
        mcpJson.inputs.find(i => i.id === 'secret-srv-GITHUB_TOKEN'),
        {
          id: 'secret-srv-GITHUB_TOKEN',
          type: 'promptString',
          description: 'Secret Srv: env GITHUB_TOKEN',
          password: true,
        },
      );
      fs.writeFileSync(mcpJsonPath, original);
      // The same file into the user's own scope: their profile's mcp.json, as written.
      assert.equal(await vscode.commands.executeCommand('mcpPrompts.importServers', vscode.Uri.file(file), 'user'), 1);
      assert.deepEqual(JSON.parse(fs.readFileSync(profileJson, 'utf8')).servers['Secret Srv'].env, {
        GITHUB_TOKEN: token,
      });
      assert.equal(fs.readFileSync(mcpJsonPath, 'utf8'), original, 'the repository file is untouched');
      await waitFor(() => server(ext, 'secret-srv')?.def.source === 'user', 'the imported server as a user server');
    } finally {
      fs.writeFileSync(mcpJsonPath, original);
      if (profileBefore === undefined) fs.rmSync(profileJson, { force: true });
      else fs.writeFileSync(profileJson, profileBefore);
      fs.rmSync(file, { force: true });
    }
    await waitFor(() => !server(ext, 'secret-srv'), 'the imported server gone with its entry');
  });

  it("imports into the portable files: a secret into the workspace's .mcp.json only as an environment reference, the user's mcp-config.json in the Copilot CLI's shape", async () => {
    const ext = await api();
    await allRunning(ext);
    const { command, args } = JSON.parse(
      JSON.stringify(ext.catalog.servers.find(s => s.id === 'completions').def.transport),
    );
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';
    const file = path.join(os.tmpdir(), `claude-portable-${process.pid}.json`);
    const rootJson = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.mcp.json');
    // The harness gives each host a COPILOT_HOME of its own (scripts/host-harness.mjs).
    const userJson = path.join(process.env.COPILOT_HOME, 'mcp-config.json');
    assert.ok(!fs.existsSync(rootJson) && !fs.existsSync(userJson));
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { 'Portable Srv': { command, args, env: { GITHUB_TOKEN: token } } } }),
    );
    const run = target =>
      vscode.commands.executeCommand('mcpPrompts.importServers', vscode.Uri.file(file), target, 'placeholders');
    try {
      assert.equal(await run('workspace-portable'), 1);
      const written = fs.readFileSync(rootJson, 'utf8');
      assert.ok(!written.includes(token), 'the token is not in the repository file');
      assert.deepEqual(JSON.parse(written), {
        mcpServers: { 'Portable Srv': { type: 'stdio', command, args, env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } },
      });
      // Read back as VS Code reads it: the workspace's server (trust is off in this window).
      await waitFor(
        () =>
          server(ext, 'portable-srv')?.def.origin === '.mcp.json' && server(ext, 'portable-srv').prompts.length === 1,
        'the .mcp.json server listed',
      );
      fs.rmSync(rootJson);
      await waitFor(() => !server(ext, 'portable-srv'), 'the server gone with its file');
      // The user's own scope: written in clear, as the Copilot CLI writes it, and read as the user's.
      assert.equal(await run('user-portable'), 1);
      assert.deepEqual(JSON.parse(fs.readFileSync(userJson, 'utf8')), {
        mcpServers: {
          'Portable Srv': { type: 'local', command, args, env: { GITHUB_TOKEN: token }, tools: ['*'] },
        },
      });
      await waitFor(
        () => server(ext, 'portable-srv')?.def.source === 'user',
        'the mcp-config.json server as a user server',
      );
      // The Copilot CLI's folder removed, then made again with a server in it while the window is open.
      fs.rmSync(process.env.COPILOT_HOME, { recursive: true, force: true });
      await waitFor(() => !server(ext, 'portable-srv'), 'the server gone with its folder');
      fs.mkdirSync(process.env.COPILOT_HOME);
      fs.writeFileSync(
        userJson,
        JSON.stringify({ mcpServers: { 'cli-added': { type: 'local', command, args, tools: ['*'] } } }),
      );
      await waitFor(() => server(ext, 'cli-added')?.prompts.length === 1, 'the server of a folder made later');
    } finally {
      fs.rmSync(rootJson, { force: true });
      fs.rmSync(userJson, { force: true });
      fs.rmSync(file, { force: true });
    }
    await waitFor(() => !server(ext, 'portable-srv') && !server(ext, 'cli-added'), 'the servers gone with their files');
  });

  it('keeps the servers of a .vscode/mcp.json that reads empty or broken (a save caught mid-write) and reports it', async () => {
    const ext = await api();
    await allRunning(ext);
    const mcpJsonPath = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.vscode', 'mcp.json');
    const original = fs.readFileSync(mcpJsonPath, 'utf8');
    const connections = () => WORKSPACE_SERVERS.map(id => server(ext, id)?.connection);
    const before = connections();
    const problem = () => ext.configuration.problems.find(p => p.origin === '.vscode/mcp.json');
    try {
      for (const broken of ['', original.slice(0, Math.floor(original.length / 2))]) {
        fs.writeFileSync(mcpJsonPath, broken);
        await waitFor(() => problem(), `the problem of a file of ${broken.length} characters`);
        assert.match(problem().message, /invalid JSON/);
        assert.deepEqual(connections(), before, 'the same servers, not stopped and started again');
        fs.writeFileSync(mcpJsonPath, original);
        await waitFor(() => !problem(), 'the file whole again');
      }
    } finally {
      fs.writeFileSync(mcpJsonPath, original);
    }
    assert.deepEqual(connections(), before);
    await allRunning(ext);
  });

  it('reads the configuration on while a box asks for an ${input:…} value; a cancelled value is a problem until Refresh asks again', async () => {
    const ext = await api();
    await allRunning(ext);
    const mcpJsonPath = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.vscode', 'mcp.json');
    const original = fs.readFileSync(mcpJsonPath, 'utf8');
    const { command, args } = JSON.parse(JSON.stringify(server(ext, 'completions').def.transport));
    const id = `token-${process.pid}`;
    const config = JSON.parse(original);
    config.inputs = [{ id, type: 'promptString', description: 'Token' }];
    config.servers.asks = { command, args, env: { TOKEN: `\${input:${id}}` } };
    const problem = () => ext.configuration.problems.find(p => p.server === 'asks');
    const quick = action => vscode.commands.executeCommand(`workbench.action.${action}`);
    try {
      fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
      // The box for the token is open; an edit made meanwhile is read without waiting for it.
      config.servers.later = { command, args };
      fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
      await waitFor(() => server(ext, 'later'), 'the server added while the box is open');
      assert.equal(server(ext, 'asks'), undefined, 'asks waits for its value');
      // Its server gone from the file, the box closes: an Enter now gives it no value.
      const { asks } = config.servers;
      delete config.servers.asks;
      config.servers.marker = { command, args };
      fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
      await waitFor(() => server(ext, 'marker'), 'the file read without asks');
      await quick('acceptSelectedQuickOpenItem');
      config.servers.asks = asks;
      fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
      await waitFor(async () => (await quick('closeQuickOpen'), problem()), 'the cancelled value as a problem');
      assert.equal(server(ext, 'asks'), undefined, 'asks was not given a value by the Enter');
      assert.match(problem().message, new RegExp(`no value for \\$\\{input:${id}\\}`));
      // Refresh asks again; the value given (empty) starts the server.
      await vscode.commands.executeCommand('mcpPrompts.refresh');
      await waitFor(() => !problem(), 'asked again, not reported');
      await waitFor(
        async () => (await quick('acceptSelectedQuickOpenItem'), server(ext, 'asks')),
        'asks with its value',
      );
    } finally {
      fs.writeFileSync(mcpJsonPath, original);
      await quick('closeQuickOpen');
    }
    await waitFor(
      () => !['asks', 'later', 'marker'].some(name => server(ext, name)),
      'the added servers gone with their entries',
    );
    await allRunning(ext);
  });

  it('stops and starts a server from its commands; the tree follows', async () => {
    const ext = await api();
    const { tree } = ext;
    await allRunning(ext);
    const entry = server(ext, 'paginated');
    const item = () =>
      tree.getTreeItem(tree.getChildren().find(n => n.type === 'server' && n.entry.id === 'paginated'));
    await vscode.commands.executeCommand('mcpPrompts.stopServer', 'paginated');
    assert.equal(entry.connection.state.kind, 'stopped');
    assert.match(String(item().description), /^stopped \(on demand\) · stdio · 23 prompts$/);
    assert.equal(item().contextValue, 'server.stopped');
    await vscode.commands.executeCommand('mcpPrompts.startServer', 'paginated');
    await waitFor(
      () => entry.connection.state.kind === 'running' && !entry.loading && entry.prompts.length === 23,
      'paginated running again with its 23 prompts',
    );
    assert.match(String(item().description), /^running · stdio · 23 prompts$/);
  });

  it('reports a server that cannot start on that server alone, naming the cause', async () => {
    const ext = await api();
    const { tree } = ext;
    await allRunning(ext);
    await vscode.workspace
      .getConfiguration('mcpPrompts')
      .update(
        'servers',
        { broken: { type: 'stdio', command: '/nonexistent/mcp-server' } },
        vscode.ConfigurationTarget.Global,
      );
    try {
      const entry = await waitFor(
        () => server(ext, 'broken')?.connection.state.kind === 'error' && server(ext, 'broken'),
        'the broken server to fail',
      );
      assert.equal(
        entry.connection.state.error.message,
        'broken could not start: command not found (/nonexistent/mcp-server)',
      );
      const item = tree.getTreeItem(tree.getChildren().find(n => n.type === 'server' && n.entry.id === 'broken'));
      assert.match(String(item.description), /^failed: broken could not start: command not found/);
      // At a glance: the failing server is the first server row (only the pinned and recently used
      // groups, when there are any, are above it), and the view's badge counts it.
      const roots = tree.getChildren();
      const first = roots.find(n => n.type !== 'group');
      assert.equal(first.type === 'server' && first.entry.id, 'broken', 'the failing server comes first');
      assert.deepEqual(tree.view.badge, { value: 1, tooltip: 'MCP Prompts: 1 failing' });
      assert.equal(server(ext, 'rich-demo').connection.state.kind, 'running', 'the others go on');
    } finally {
      await vscode.workspace
        .getConfiguration('mcpPrompts')
        .update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(() => !server(ext, 'broken'), 'the broken server removed with the setting');
  });
});

// Generic checks of the real host itself: a workspace folder is open and the test-only fake model
// (test/fake-model, installed into the host's extensions dir by the runner) answers deterministically.
const assert = require('assert');
const vscode = require('vscode');

async function fakeModel() {
  // The provider registers when its extension activates (onStartupFinished): wait for it, bounded.
  const deadline = Date.now() + 60000;
  for (;;) {
    const models = await vscode.lm.selectChatModels({ vendor: 'mcp-prompts-fake' });
    if (models.length) return models;
    if (Date.now() > deadline) return models;
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

async function ask(model, messages) {
  const response = await model.sendRequest(messages, {}, new vscode.CancellationTokenSource().token);
  const chunks = [];
  for await (const chunk of response.text) chunks.push(chunk);
  return chunks;
}

describe('real VS Code host', () => {
  it('has the workspace folder open', () => {
    const folders = vscode.workspace.workspaceFolders || [];
    assert.strictEqual(folders.length, 1, `workspace folders: ${folders.map(f => f.uri.toString())}`);
    assert.strictEqual(folders[0].uri.scheme, 'file');
  });

  it('offers the fake model Fake Echo', async () => {
    const models = await fakeModel();
    assert.strictEqual(models.length, 1, 'one model of vendor mcp-prompts-fake');
    assert.strictEqual(models[0].id, 'fake-echo');
    assert.strictEqual(models[0].name, 'Fake Echo');
  });

  it('fake model streams a deterministic description of what it received', async () => {
    const [model] = await fakeModel();
    // A real 1x1 PNG: the workbench decodes images on their way to a model and drops requests with broken ones.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const chunks = await ask(model, [
      vscode.LanguageModelChatMessage.User([
        new vscode.LanguageModelTextPart('look:'),
        vscode.LanguageModelDataPart.image(png, 'image/png'),
      ]),
      vscode.LanguageModelChatMessage.Assistant('ok'),
      vscode.LanguageModelChatMessage.User('hello'),
    ]);
    assert.ok(chunks.length >= 2, `streamed in ${chunks.length} chunk(s)`);
    assert.strictEqual(
      chunks.join(''),
      `FAKE-MODEL received 3 messages: [user] look: <image image/png ${png.length} bytes> [assistant] ok [user] hello`,
    );
  });
});

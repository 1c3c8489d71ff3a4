// @ts-check
// Our keybindings against VS Code's own defaults, as this VS Code (1.139) lists them in its Default
// Keybindings document (workbench.action.openDefaultKeybindingsFile). The host is the web workbench in a
// Linux browser: the document shows the Linux/Windows `key`, and not the bindings only the desktop app
// registers (electron-browser code), which are listed below from VS Code's sources.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { parse } = require('jsonc-parser');

/** Desktop-only defaults (electron-browser): View > Browser, `workbench.action.browser.openOrList`. */
const DESKTOP_ONLY = [{ key: 'ctrl+alt+/', mac: 'cmd+alt+/', command: 'workbench.action.browser.openOrList' }];

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));

/** `Ctrl+Alt+/` and `alt+ctrl+/` alike: lower case, modifiers sorted, per chord part. */
function normalize(key) {
  return key
    .toLowerCase()
    .split(' ')
    .map(part => {
      const keys = part.split('+');
      const last = keys.pop();
      return [...keys.sort(), last].join('+');
    })
    .join(' ');
}

/** The Default Keybindings document's entries: [{ key, command, when }]. */
async function defaultKeybindings() {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  const deadline = Date.now() + 60000;
  let editor = vscode.window.activeTextEditor;
  while (!editor || !editor.document.uri.path.endsWith('keybindings.json')) {
    if (Date.now() > deadline) throw new Error('the Default Keybindings document did not open');
    await new Promise(r => setTimeout(r, 100));
    editor = vscode.window.activeTextEditor;
  }
  const text = editor.document.getText();
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const entries = parse(text);
  assert.ok(Array.isArray(entries) && entries.length > 100, `parsed ${entries?.length} default keybindings`);
  return entries;
}

describe('keybindings', () => {
  const ours = manifest.contributes.keybindings;

  it('Run Prompt… and Repeat Last Prompt have a keybinding, on mac too', () => {
    for (const command of ['mcpPrompts.runPrompt', 'mcpPrompts.rerunLast']) {
      const binding = ours.find(k => k.command === command);
      assert.ok(binding?.key && binding.mac, `${command} has key and mac`);
    }
  });

  it("do not take a chord VS Code's defaults already use", async () => {
    const defaults = await defaultKeybindings();
    const commands = new Set(ours.map(k => k.command));
    // Our own entries are in the document too: that shows it lists extension contributions as well.
    for (const { key, command } of ours)
      assert.ok(
        defaults.some(d => d.command === command && normalize(d.key) === normalize(key)),
        `${command} on ${key} is listed`,
      );
    for (const { key, command } of ours) {
      const clashes = defaults.filter(d => !commands.has(d.command) && normalize(d.key) === normalize(key));
      assert.deepEqual(
        clashes.map(d => `${d.command}${d.when ? ` when ${d.when}` : ''}`),
        [],
        `${key} (${command}) is already bound`,
      );
    }
  });

  it("do not take a chord only VS Code's desktop app binds", () => {
    for (const { key, mac, command } of ours)
      for (const d of DESKTOP_ONLY) {
        assert.notEqual(normalize(key), normalize(d.key), `${key} (${command}) is ${d.command} on the desktop`);
        assert.notEqual(normalize(mac), normalize(d.mac), `${mac} (${command}) is ${d.command} on the desktop (mac)`);
      }
  });
});

// Entry of the mocha suite that runs INSIDE the real VS Code extension host (`extensionTestsPath`).
// Same contract as @vscode/test-electron: run() resolves when every test passed, rejects otherwise.
// When env MCP_PROMPTS_HOST_RESULT names a file, the result is written there as JSON
// ({ passes, failures, pending, tests: [{ title, state, error }] }) so the runner can count tests.
// MCP_PROMPTS_HOST_ORDER=reverse runs the files, and the tests of every suite, in reverse order: each test
// must start from its own state, so the suite passes either way.
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');
const vscode = require('vscode');

/**
 * Every server of the test workspace asks for consent before it starts, whether workspace trust is on or
 * off; this window refuses to show dialogs (VS Code's extension-test mode), so the suite plays the person
 * who allows each one that asks, now and whenever the configuration is read again (the suite edits
 * .vscode/mcp.json and imports servers into it). Through the same decision the modal's Start Server keeps.
 */
async function allowWorkspaceServers() {
  const ext = vscode.extensions.getExtension('mcp-prompts.mcp-prompts');
  const { configuration } = ext.isActive ? ext.exports : await ext.activate();
  const allowWaiting = () => {
    for (const h of configuration.held) if (h.reason === 'consent') void configuration.allow(h.def.id);
  };
  configuration.onDidLoad(allowWaiting);
  allowWaiting();
}

async function run() {
  await allowWorkspaceServers();
  // MCP_PROMPTS_HOST_GREP runs only the tests whose full title matches (one file while working on it).
  const grep = process.env.MCP_PROMPTS_HOST_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 120000, reporter: 'spec', color: false, ...(grep ? { grep } : {}) });
  for (const file of fs
    .readdirSync(__dirname)
    .filter(f => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  if (process.env.MCP_PROMPTS_HOST_ORDER === 'reverse') {
    mocha.loadFiles();
    mocha.lazyLoadFiles(true); // loaded above: run() must not load them again
    const flip = suite => {
      suite.tests.reverse();
      suite.suites.reverse();
      suite.suites.forEach(flip);
    };
    flip(mocha.suite);
  }
  const tests = [];
  return new Promise((resolve, reject) => {
    let runner;
    try {
      runner = mocha.run(failures => {
        const result = {
          passes: tests.filter(t => t.state === 'passed').length,
          failures,
          pending: tests.filter(t => t.state === 'pending').length,
          tests,
        };
        const out = process.env.MCP_PROMPTS_HOST_RESULT;
        if (out) {
          try {
            fs.mkdirSync(path.dirname(out), { recursive: true });
            fs.writeFileSync(out, JSON.stringify(result, null, 2));
          } catch (e) {
            console.error(`could not write ${out}: ${e}`);
          }
        }
        if (failures > 0) reject(new Error(`${failures} host test(s) failed`));
        else resolve();
      });
    } catch (e) {
      reject(e);
      return;
    }
    runner.on('pass', t => tests.push({ title: t.fullTitle(), state: 'passed', duration: t.duration }));
    runner.on('pending', t => tests.push({ title: t.fullTitle(), state: 'pending' }));
    // 'fail' also fires for hooks (before/after each), which count as failures of their own.
    runner.on('fail', (t, err) =>
      tests.push({ title: t.fullTitle(), state: 'failed', error: String((err && (err.stack || err.message)) || err) }),
    );
  });
}

module.exports = { run };

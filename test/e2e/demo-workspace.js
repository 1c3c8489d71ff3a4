// The workspace of `npm start`'s demo for the UI tests that show it (tour, start): the demo server's
// mcp.json entry, the files of demo/workspace/, and the selection a person makes in greet.py.
const fs = require('node:fs');
const path = require('node:path');
const { selectTopLines } = require('./harness');

const root = path.resolve(__dirname, '..', '..');
const DEMO_FILES = path.join(root, 'demo', 'workspace');

/** The workspace's files, relative path → text: .vscode/mcp.json with the demo server, then demo/workspace/. */
function demoWorkspaceFiles() {
  const server = { type: 'stdio', command: process.execPath, args: [path.join(root, 'demo', 'server.mjs')] };
  const files = { '.vscode/mcp.json': JSON.stringify({ servers: { demo: server } }, null, 2) };
  for (const name of fs.readdirSync(DEMO_FILES)) files[name] = fs.readFileSync(path.join(DEMO_FILES, name), 'utf8');
  return files;
}

/** Opens greet.py with Go to File and selects its function (lines 1–4) with the keyboard, as a person does. */
function selectGreetFunction(page) {
  return selectTopLines(page, 'greet.py', 'def greet', 4);
}

module.exports = { demoWorkspaceFiles, selectGreetFunction };

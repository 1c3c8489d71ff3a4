// The workspace the host and UI tests open: a folder whose .vscode/mcp.json configures the fixture
// servers and the real server-everything over stdio, with absolute paths for this checkout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureCommand, everythingCommand } from './fixtures/launch.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function testServers() {
  const stdio = ({ command, args }) => ({ type: 'stdio', command, args });
  return {
    'rich-demo': stdio(fixtureCommand('rich')),
    completions: stdio(fixtureCommand('completions')),
    changing: stdio(fixtureCommand('changing')),
    paginated: stdio(fixtureCommand('paginated')),
    everything: stdio(everythingCommand()),
    crashing: stdio(fixtureCommand('crashing')),
  };
}

/** Creates (or refreshes) the workspace folder and returns its path. */
export function makeWorkspace(dir = path.join(root, '.vscode-test', 'workspace'), servers = testServers()) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# MCP Prompts test workspace\n');
  return dir;
}

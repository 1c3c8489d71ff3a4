// Real MCP servers from npm that nobody here wrote (pinned devDependencies), the MCP Inspector CLI that
// serves as the reference client, and a launcher for the ones that listen on HTTP. None of them touches
// the network to list or get a prompt: they run offline with dummy credentials.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { launch, runNode, waitFor, type CliResult } from './helpers';

// Found by require.resolve, so that the dead-code check sees these devDependencies used.
export const GIT_MCP = require.resolve('@cyanheads/git-mcp-server/index.js');
export const SHADCN_MCP = require.resolve('@jpisnice/shadcn-ui-mcp-server/build/index.js');
export const KUBERNETES_MCP = require.resolve('mcp-server-kubernetes/dist/index.js');
export const ONEPASSWORD_MCP = require.resolve('@takescake/1password-mcp/bin/1password-mcp.js');
/**
 * The Inspector's CLI proper (build/cli.js only launches it). It reads its own package.json through a
 * path relative to the working directory, so it runs with its build folder as the working directory.
 */
const INSPECTOR_CLI = require.resolve('@modelcontextprotocol/inspector-cli/build/index.js');

/** git-mcp-server picks its transport from the environment; it logs only errors here. */
export const GIT_ENV = { MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' };
/** The 1Password server wants a service-account token to start; a dummy is enough for prompts. */
export const ONEPASSWORD_ENV = { OP_SERVICE_ACCOUNT_TOKEN: 'ops_dummy_token_for_tests' };

/**
 * `inspector-cli TARGET... --method M ...`: TARGET is a command with its arguments (stdio) or a URL
 * (`/mcp` Streamable HTTP, `/sse` legacy SSE). A stdio server inherits the Inspector's environment.
 */
export function runInspector(target: string[], method: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runNode([INSPECTOR_CLI, ...target, ...method], {
    cwd: path.dirname(INSPECTOR_CLI),
    env,
    timeoutMs: 120000,
    what: `inspector ${[...target, ...method].join(' ')}`,
  });
}

export interface WebServer {
  url: string;
  /** What it wrote so far (stdout and stderr, last 64 KB). */
  output(): string;
  close(): Promise<void>;
}

/**
 * Runs a server as the child of a guard that kills it when its stdin ends, which is when this process
 * dies: a test run that is killed leaves no server listening. A SIGTERM to the guard reaches the server.
 */
const GUARD = [
  "const { spawn } = require('node:child_process');",
  "const server = spawn(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });",
  "process.stdin.on('end', () => server.kill('SIGKILL')).resume();",
  "process.on('SIGTERM', () => server.kill('SIGTERM'));",
  "server.on('exit', code => process.exit(code ?? 1));",
].join('\n');

/**
 * Starts `node script ...args` with `env(port)` on a free port and resolves once the port takes
 * connections; `url(port)` is its MCP endpoint.
 */
export async function startWebServer(
  script: string,
  args: string[],
  env: (port: number) => Record<string, string>,
  url: (port: number) => string,
  timeoutMs = 30000,
): Promise<WebServer> {
  const port = await (await launch()).freePort();
  const child = spawn(process.execPath, ['-e', GUARD, script, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env(port) },
  });
  let output = '';
  const keep = (d: string) => {
    output = (output + d).slice(-65536);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  const server: WebServer = { url: url(port), output: () => output, close: () => stop(child) };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
        return accepts(port);
      },
      `${path.basename(script)} listening on ${port}`,
      timeoutMs,
      50,
    );
  } catch (err) {
    await server.close();
    throw new Error(`${(err as Error).message}\n${output}`, { cause: err });
  }
  return server;
}

function accepts(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SIGTERM, and after 3 s the end of the guard's stdin (which kills the server). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise(resolve => child.once('exit', resolve));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.stdin?.end(), 3000);
    await exited;
    clearTimeout(kill);
  }
  child.stdin?.destroy();
}

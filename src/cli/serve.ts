// `mcp-prompts serve [--config FILE]...`: one MCP server over stdio that offers every configured server's
// prompts, as prompts and through two tools (docs/cli.md). The servers are read by serve-config.ts, held by
// the one Catalog and got on the one run path (PromptRunner), as every other command does; this file wires
// them to the SDK's stdio server and lives as long as the client keeps the connection open. stdout is the
// protocol's: everything else goes to stderr, one line each.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Catalog } from '../core/catalog/catalog.js';
import { PromptError } from '../core/errors.js';
import type { LogSink } from '../core/log.js';
import type { QuestionAnswer } from '../core/protocol/questions/elicitation.js';
import { envValue, type Platform } from '../core/platform.js';
import { terminalLine } from '../core/render/terminal.js';
import { memoryRecords, PromptRunner } from '../core/run/prompt-runner.js';
import { openEraCache } from './era-cache.js';
import { GatewayRuns } from './gateway-runs.js';
import { GatewayServers, GATEWAY_INFO } from './gateway-server.js';
import { GATEWAY_ENV, gatewayFiles, readGatewayServers } from './serve-config.js';

interface ServeOptions {
  configs: string[];
  verbose: boolean;
}

/** `serve`'s own options: --config (repeatable) and --verbose; anything else is bad input. */
function parseServeArgs(argv: readonly string[]): ServeOptions {
  const o: ServeOptions = { configs: [], verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === 'serve') continue;
    if (a === '--verbose') o.verbose = true;
    else if (a === '--config') {
      const v = argv[++i];
      if (!v) throw new PromptError('--config needs a file', 'input');
      o.configs.push(v);
    } else if (a.startsWith('--config=')) o.configs.push(a.slice('--config='.length));
    else throw new PromptError(`serve takes --config FILE and --verbose, not "${a}"`, 'input');
  }
  return o;
}

/** Serves until the client closes the connection (or the process is told to stop); the exit code. */
export async function serve(argv: readonly string[], platform: Platform, self: string): Promise<number> {
  const o = parseServeArgs(argv);
  // Once the client has left, what stopping servers say (a late answer, an exit) is nobody's news.
  let closing = false;
  const say = (line: string) => {
    if (!closing) process.stderr.write(`mcp-prompts: ${terminalLine(line)}\n`);
  };
  // Started by a gateway: its configuration names the gateway itself. Serving would start it again, and again.
  if (envValue(platform, GATEWAY_ENV)) {
    say('serve was started by mcp-prompts serve: a gateway does not serve another gateway');
    return 2;
  }
  const servers = await readGatewayServers(gatewayFiles(o.configs, platform), platform, self);
  for (const line of [...servers.problems, ...servers.held.map(h => h.message)]) say(line);
  const { eras, cache } = openEraCache(platform, say);
  const line = (m: string) => process.stderr.write(`${terminalLine(m)}\n`);
  const log: LogSink = { trace: o.verbose ? line : () => {}, info: o.verbose ? line : () => {}, warn: say, error: say };
  const catalog: Catalog = new Catalog({
    start: 'lazy',
    connection: () => ({
      eras,
      platform,
      log,
      questions: (question): Promise<QuestionAnswer> => runs.ask(question),
      clientInfo: { name: 'mcp-prompts-gateway', version: GATEWAY_INFO.version },
    }),
  });
  const runner: PromptRunner = new PromptRunner(catalog, memoryRecords());
  const runs: GatewayRuns = new GatewayRuns(runner);
  try {
    catalog.setServers(servers.defs);
    const gateway = new GatewayServers({ catalog, runner, runs, held: servers.held, log: say });
    const changes = catalog.onDidChange(() => gateway.changed());
    const handle = serveStdio(gateway.create, { legacy: 'serve', onerror: err => say(err.message) });
    // Every server starts now, in the background: the first list is ready sooner, and list changes are heard.
    void catalog.ready().then(() => cache.flush());
    await untilClosed();
    closing = true;
    changes.dispose();
    await handle.close().catch(() => undefined);
    return 0;
  } finally {
    runs.dispose();
    await catalog.dispose();
    await cache.flush();
  }
}

/** Resolves when stdin ends (the client closed the connection) or the process is asked to stop. */
function untilClosed(): Promise<void> {
  return new Promise(resolve => {
    const done = () => resolve();
    process.stdin.once('end', done).once('close', done);
    process.once('SIGTERM', done).once('SIGINT', done).once('SIGHUP', done);
  });
}

// Headless `mcp-prompts list|get|complete` over the same core the extension uses (docs/cli.md).
// Exit codes: 0 success, 2 bad input (unknown prompt, missing argument, malformed config),
// 1 a server failed. Expected failures print one line on stderr, never a stack trace; stdout carries
// only what servers answered, so it is empty when every server a command needed failed.
import { Catalog, type ServerEntry } from './core/catalog/catalog.js';
import { ConfigError, InputDefinition } from './core/config/config.js';
import { substituteVariables } from './core/config/substitute-variables.js';
import { PromptError } from './core/errors.js';
import { planServers } from './core/config/server-merge.js';
import { argumentList, completeArgument } from './core/run/invocation.js';
import { memoryRecords, PromptRunner } from './core/run/prompt-runner.js';
import { toPart, type Part, type Transcript } from './core/render/content.js';
import type { RawGetResult } from './core/protocol/connection/connection.js';
import { stringifyJson } from './core/json.js';
import type { LogSink } from './core/log.js';
import { terminalJson, terminalLine, terminalText } from './core/render/terminal.js';
import { CliQuestions, parseAnswers } from './cli/questions.js';
import { reportListings, skill, skills } from './cli/skills.js';
import { openEraCache } from './cli/era-cache.js';
import { envValue, hostPlatform, type Platform } from './core/platform.js';
import { sentResult } from './cli/sent-result.js';
import { serve } from './cli/serve.js';
import { cliSources } from './cli/config-files.js';

const USAGE = `usage:
  mcp-prompts list [--config FILE] [--json]
  mcp-prompts get SERVER.PROMPT [NAME=VALUE ...] [--config FILE] [--json]
  mcp-prompts complete SERVER.PROMPT ARGUMENT [PREFIX] [NAME=VALUE ...] [--config FILE] [--json]
  mcp-prompts skills [--config FILE] [--json]
  mcp-prompts skill SERVER.NAME [FILE] [--config FILE] [--json]
  mcp-prompts serve [--config FILE]...   an MCP server (stdio) offering every server's prompts
options:
  --config FILE   the server file: VS Code's mcp.json, a portable .mcp.json or mcp-config.json, or a
                  Claude Desktop / Cursor file; without it .vscode/mcp.json, .mcp.json and
                  $COPILOT_HOME/mcp-config.json (~/.copilot) are read, as VS Code reads them
  --json          machine-readable output
  --verbose       server log lines (stderr of servers, JSON-RPC traffic) on stderr
  --answer F=V    answers a server's question (repeatable); on a terminal questions are asked there
\${input:ID} values come from the environment variable MCP_PROMPTS_INPUT_<ID> or the input's default.`;

interface Options {
  config?: string;
  json: boolean;
  verbose: boolean;
  positional: string[];
  answers: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    json: false,
    verbose: false,
    positional: [],
    answers: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--config') {
      const v = argv[++i];
      if (!v) throw new PromptError('--config needs a file', 'input');
      o.config = v;
    } else if (a.startsWith('--config=')) o.config = a.slice('--config='.length);
    else if (a === '--answer') {
      const v = argv[++i];
      if (!v) throw new PromptError('--answer needs FIELD=VALUE', 'input');
      o.answers.push(v);
    } else if (a === '--help' || a === '-h') o.positional.unshift('help');
    else o.positional.push(a);
  }
  return o;
}

async function loadCatalog(
  o: Options,
  questions: CliQuestions,
  platform: Platform,
): Promise<{ catalog: Catalog; flush: () => Promise<void> }> {
  const { sources, workspaceFolder, read } = cliSources(o.config, process.cwd(), platform);
  if (read) process.stderr.write(`mcp-prompts: servers from ${read.join(', ')}\n`);
  // The extension's merge and trust rules; the files the user points the CLI at are trusted.
  const plan = planServers(sources, { trusted: true, platform });
  // A name in several files: which one is used, in VS Code's order.
  for (const h of plan.held) process.stderr.write(`mcp-prompts: ${terminalLine(h.message)}\n`);
  // A malformed entry is reported and the other servers of the file still load; bad input (exit 2) only
  // when no server is left.
  const problems = plan.problems.map(p => p.message);
  const last = !plan.run.length ? problems.pop() : undefined;
  for (const p of problems) process.stderr.write(`mcp-prompts: ${p}\n`);
  if (last !== undefined) throw new ConfigError(last);
  const resolveInput = async (input: InputDefinition | undefined, id: string) =>
    envValue(platform, `MCP_PROMPTS_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`) ?? input?.default;
  const vars = { workspaceFolder, platform };
  const servers = await Promise.all(
    plan.run.map(({ def, source }) => substituteVariables(def, vars, source.config.inputs, resolveInput)),
  );
  // Server stderr and the trace carry server text: no terminal controls, one line each.
  const line = (m: string) => {
    process.stderr.write(`${terminalLine(m)}\n`);
  };
  const log: LogSink | undefined = o.verbose ? { trace: line, info: line, warn: line, error: line } : undefined;
  const { eras, cache } = openEraCache(platform, m => process.stderr.write(`mcp-prompts: ${terminalLine(m)}\n`));
  const catalog = new Catalog({
    start: 'lazy',
    connection: () => ({
      eras,
      restart: false,
      defaultCwd: workspaceFolder,
      platform,
      log,
      questions: questions.ask,
      clientInfo: { name: 'mcp-prompts-cli', version: '0.1.0' },
    }),
  });
  catalog.setServers(servers);
  return { catalog, flush: () => cache.flush() };
}

function splitPairs(items: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new PromptError(`expected NAME=VALUE, got "${item}"`, 'input');
    values[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return values;
}

async function list(catalog: Catalog, o: Options): Promise<number> {
  await catalog.ready();
  const answered = catalog.servers.filter(s => !s.listError);
  if (answered.length || !catalog.servers.length) printList(catalog, answered, o);
  return reportListings(catalog);
}

/** The prompts of the servers that answered; a failed server is named on stderr only. */
function printList(catalog: Catalog, answered: readonly ServerEntry[], o: Options): void {
  // Read from several files (no --config): each server says which one it is from.
  const from = (def: ServerEntry['def']) =>
    o.config === undefined && def.origin !== undefined ? def.origin : undefined;
  const rows = catalog.prompts.map(p => ({
    server: p.server.def.name,
    ...(from(p.server.def) !== undefined && { from: from(p.server.def) }),
    name: p.prompt.name,
    title: p.prompt.title,
    description: p.prompt.description,
    arguments: p.prompt.arguments ?? [],
    icons: p.prompt.icons,
    invocation: p.invocationName,
  }));
  if (o.json) process.stdout.write(terminalJson(stringifyJson(rows, 2)) + '\n');
  else {
    // One line per server and per prompt, whatever the names and descriptions hold.
    for (const s of answered) {
      const origin = from(s.def);
      process.stdout.write(terminalLine(origin === undefined ? s.def.name : `${s.def.name}  (${origin})`) + '\n');
      for (const p of s.prompts) {
        const args = argumentList(p, ' ');
        process.stdout.write(
          terminalLine(
            `  ${p.invocationName}${args ? ` ${args}` : ''}${p.prompt.title || p.prompt.description ? `  — ${p.prompt.title ?? p.prompt.description}` : ''}`,
          ) + '\n',
        );
      }
    }
  }
}

async function get(catalog: Catalog, o: Options, signal: AbortSignal): Promise<number> {
  const [, name, ...pairs] = o.positional;
  if (!name) throw new PromptError('get needs SERVER.PROMPT', 'input');
  const prompt = await catalog.findPrompt(name);
  // The extension's run path: a misspelt or missing argument is refused there, with the same message.
  const outcome = await new PromptRunner(catalog, memoryRecords()).run(
    { prompt, values: splitPairs(pairs) },
    { signal },
  );
  if (outcome.kind === 'failed') throw outcome.error;
  if (outcome.kind !== 'done') return 2;
  const done = outcome.stored.result;
  if (o.json) {
    // The result as the server sent it; what the other surfaces would refuse is named on stderr.
    const sent = sentResult(done.result, prompt.server.connection.info?.era);
    process.stdout.write(terminalJson(stringifyJson(sent, 2)) + '\n');
    for (const problem of invalidParts(done.result))
      process.stderr.write(`mcp-prompts: warning: ${terminalLine(`${prompt.server.def.name}: ${problem}`)}\n`);
    return 0;
  }
  process.stdout.write(transcriptText(outcome.stored.transcript));
  return 0;
}

/** The transcript for a terminal: roles in brackets, media and resources named, server text made inert. */
function transcriptText(transcript: Transcript): string {
  const out: string[] = [];
  if (transcript.description) out.push(`${terminalText(transcript.description)}\n\n`);
  for (const m of transcript.messages) {
    out.push(`[${m.role}]\n`, ...m.parts.map(partText), '\n');
  }
  return out.join('');
}

function partText(part: Part): string {
  switch (part.kind) {
    case 'text':
      return `${terminalText(part.text)}\n`;
    case 'image':
    case 'audio':
      return `<${part.kind} ${part.mimeType}, ${part.bytes} bytes>\n`;
    case 'resource': {
      const head = terminalLine(`<resource ${part.uri}${part.mimeType ? ` ${part.mimeType}` : ''}>`);
      return `${head}\n${part.text === undefined ? `(${part.bytes} bytes)` : terminalText(part.text)}\n`;
    }
    case 'link':
      return `${terminalLine(`<link ${part.uri} ${part.title ?? part.name}>`)}\n`;
    case 'invalid':
      return `${terminalLine(`<not shown: ${part.reason}>`)}\n`;
  }
}

/** Why each part of a raw result would not be shown: `message 2: image data is not valid base64`. */
function invalidParts(result: RawGetResult): string[] {
  const problems: string[] = [];
  (result.messages ?? []).forEach((raw, i) => {
    const content = (raw as { content?: unknown } | null)?.content;
    for (const part of (Array.isArray(content) ? content : [content]).map(toPart)) {
      if (part.kind === 'invalid') problems.push(`message ${i + 1}: ${part.reason}`);
    }
  });
  return problems;
}

async function complete(catalog: Catalog, o: Options, signal: AbortSignal): Promise<number> {
  const [, name, argument, ...rest] = o.positional;
  if (!name || !argument) throw new PromptError('complete needs SERVER.PROMPT ARGUMENT', 'input');
  const prefix = rest.length && !rest[0].includes('=') ? rest.shift()! : '';
  const target = await catalog.findPrompt(name);
  if (!(target.prompt.arguments ?? []).some(a => a.name === argument)) {
    throw new PromptError(
      `${target.server.def.name}: prompt "${target.prompt.name}" has no argument ${argument}`,
      'input',
      target.server.def.name,
    );
  }
  const result = await completeArgument(target, argument, prefix, splitPairs(rest), signal);
  // Nothing was sent to a server without the capability; say so, so that a script can tell "this server
  // completes nothing" from "nothing matches".
  if (!target.server.connection.info?.capabilities?.completions)
    process.stderr.write(`mcp-prompts: ${terminalLine(`${target.server.def.name} offers no completion`)}\n`);
  if (o.json) process.stdout.write(terminalJson(stringifyJson(result, 2)) + '\n');
  else process.stdout.write(result.values.map(v => `${terminalLine(v)}\n`).join(''));
  return 0;
}

type Command = (catalog: Catalog, o: Options, signal: AbortSignal) => Promise<number>;

/** Every command, by the name typed after `mcp-prompts`: the one place a new command is added. */
const COMMANDS: Record<string, Command> = { list, get, complete, skills, skill };

export async function main(argv: string[], platform: Platform): Promise<number> {
  let catalog: Catalog | undefined;
  let flush: (() => Promise<void>) | undefined;
  let questions: CliQuestions | undefined;
  try {
    const o = parseArgs(argv);
    const command = o.positional[0];
    if (!command || command === 'help') {
      process.stdout.write(USAGE + '\n');
      return command ? 0 : 2;
    }
    // The gateway reads its own files (never the folder's unless named) and runs until its client leaves.
    if (command === 'serve') return await serve(argv, platform, __filename);
    const runCommand = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!runCommand)
      throw new PromptError(`unknown command "${command}" (${Object.keys(COMMANDS).join(', ')})`, 'input');
    questions = new CliQuestions(parseAnswers(o.answers), process.stdin.isTTY === true);
    ({ catalog, flush } = await loadCatalog(o, questions, platform));
    const code = await runCommand(catalog, o, questions.signal);
    if (questions.failure) {
      process.stderr.write(`mcp-prompts: ${questions.failure}\n`);
      return 2;
    }
    return code;
  } catch (err) {
    // A question nothing could answer stopped the run: that line, not "cancelled".
    if (questions?.failure) {
      process.stderr.write(`mcp-prompts: ${questions.failure}\n`);
      return 2;
    }
    const kind = err instanceof PromptError ? err.kind : err instanceof ConfigError ? 'input' : 'server';
    process.stderr.write(`mcp-prompts: ${terminalLine(err instanceof Error ? err.message : String(err))}\n`);
    return kind === 'input' ? 2 : 1;
  } finally {
    await catalog?.dispose();
    await flush?.(); // the eras learnt in this run
  }
}

if (require.main === module) {
  // A reader that goes away (`| head`) makes writes fail with EPIPE: stop quietly, no stack trace.
  // Any other write failure (a full disk) means the output is incomplete: say so and exit 1.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return;
    process.stderr.write(`mcp-prompts: cannot write the output: ${err.code ?? err.message}\n`);
    process.exit(1);
  });
  // The one read of the host's OS, environment and home folder.
  void main(process.argv.slice(2), hostPlatform()).then(code => {
    process.exitCode = code;
  });
}

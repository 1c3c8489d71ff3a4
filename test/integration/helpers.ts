// Shared helpers for the integration tests: the fixture launcher (test/fixtures/launch.mjs, loaded at
// run time so esbuild leaves it alone), condition polling, a recording log sink, a catalog over real
// servers, child-process checks and the CLI as a user runs it.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { Catalog, type CatalogOptions, type ServerEntry } from '../../src/core/catalog/catalog';
import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import { ServerConnection, type RestartPolicy } from '../../src/core/protocol/connection/connection';
import type { Asker, Question, QuestionAnswer } from '../../src/core/protocol/questions/elicitation';
import type { LogSink } from '../../src/core/log';
import type { EraMemory } from '../../src/core/protocol/transport/eras';
import { PromptError } from '../../src/core/errors';
import { requestFromLine, type InvokeResult } from '../../src/core/run/invocation';
import { memoryRecords, PromptRunner, type RunOptions } from '../../src/core/run/prompt-runner';
import assert from 'node:assert/strict';

export const ROOT = process.cwd();
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface RunningServer {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  stderr(): string;
  signal(sig: NodeJS.Signals): void;
  close(): Promise<void>;
}

export interface Launch {
  fixtureCommand(name: string): { command: string; args: string[] };
  faultyCommand(fault: string): { command: string; args: string[] };
  startOAuthServer(options?: { timeoutMs?: number; args?: string[] }): Promise<RunningServer>;
  startFaultyHttp(
    fault: string,
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ): Promise<RunningServer>;
  everythingCommand(): { command: string; args: string[] };
  startHttpFixture(
    name: string,
    options?: { mode?: 'http' | 'sse'; env?: Record<string, string>; port?: number; timeoutMs?: number },
  ): Promise<RunningServer>;
  startEverythingHttp(options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<RunningServer>;
  modernCommand(): { command: string; args: string[] };
  skillsCommand(variant: 'catalog' | 'tampered' | 'plain'): { command: string; args: string[] };
  startModernHttp(options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<RunningServer>;
  freePort(): Promise<number>;
  FIXTURES: string[];
  RUN_MJS: string;
  EVERYTHING_JS: string;
}

let launchModule: Promise<Launch> | undefined;
/** test/fixtures/launch.mjs, imported from its absolute path (tests run from the repo root). */
export function launch(): Promise<Launch> {
  const file = pathToFileURL(path.join(ROOT, 'test', 'fixtures', 'launch.mjs')).href;
  return (launchModule ??= import(file) as Promise<Launch>);
}

export { waitFor } from '../wait-for.js';
export { processRunning } from '../processes.js';

export interface LogLine {
  level: 'trace' | 'info' | 'warn' | 'error';
  message: string;
}

/** A LogSink that keeps every line, so tests can read the JSON-RPC trace and the server's stderr. */
export class RecordingLog implements LogSink {
  readonly lines: LogLine[] = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  /** Outgoing JSON-RPC messages (`-> {...}`), parsed. */
  sent(): Array<{ method?: string; params?: Record<string, unknown>; id?: number }> {
    return this.lines
      .filter(l => l.level === 'trace' && l.message.startsWith('-> '))
      .map(l => JSON.parse(l.message.slice(3)) as { method?: string; params?: Record<string, unknown>; id?: number });
  }
  sentMethods(method: string): Array<{ method?: string; params?: Record<string, unknown> }> {
    return this.sent().filter(m => m.method === method);
  }
  text(): string {
    return this.lines.map(l => l.message).join('\n');
  }
}

/** Server definitions through the real config parser (so ids are sanitised as in production). */
export function defs(servers: Record<string, unknown>): ServerDefinition[] {
  return parseConfigObject({ servers }, 'workspace').servers;
}

export interface TestCatalog {
  catalog: Catalog;
  /** The server's own log (trace, stderr, warnings). */
  log(id: string): RecordingLog;
  entry(id: string): ServerEntry;
  /** What the server wrote to stderr, as the log keeps it. */
  stderr(id: string): string;
}

export type TestCatalogOptions = Omit<CatalogOptions, 'connection'> & {
  restart?: false | RestartPolicy;
  timeoutMs?: number;
  minStartupMs?: number;
  /** The protocol eras remembered between connects (default: the process's). */
  eras?: EraMemory;
  /** Idle stop after this many ms (none: never). */
  idleStopMs?: number;
  questions?: Asker;
};

/**
 * A catalog over `servers` (through the real config parser) whose every server logs into its own
 * RecordingLog. Lazy, re-lists after 50 ms, no restarts and a 20 s timeout unless `options` says otherwise.
 */
export function testCatalog(servers: Record<string, unknown>, options: TestCatalogOptions = {}): TestCatalog {
  const { restart = false, timeoutMs = 20000, minStartupMs, eras, idleStopMs, questions, ...catalogOptions } = options;
  const logs = new Map<string, RecordingLog>();
  const catalog = new Catalog({
    start: 'lazy',
    debounceMs: 50,
    ...catalogOptions,
    connection: def => {
      const log = new RecordingLog();
      logs.set(def.id, log);
      return {
        log,
        restart,
        timeoutMs,
        questions,
        ...(minStartupMs === undefined ? {} : { minStartupMs }),
        ...(eras && { eras }),
        ...(idleStopMs === undefined ? {} : { idleStopMs: () => idleStopMs }),
      };
    },
  });
  catalog.setServers(defs(servers));
  const log = (id: string) => logs.get(id) ?? assert.fail(`no log for ${id}`);
  return {
    catalog,
    log,
    entry: id => catalog.server(id) ?? assert.fail(`no server ${id}`),
    stderr: id =>
      log(id)
        .lines.filter(l => l.message.startsWith('[stderr] '))
        .map(l => l.message.slice(9))
        .join('\n'),
  };
}

/**
 * PIDs of children of this process whose command line contains `needle`, from the `ps` of Linux and
 * macOS alike. Where there is no `ps` (Windows) it throws: a check for "nothing left running" must not
 * pass by finding nothing.
 */
export function childPidsMatching(needle: string): number[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map(l => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter(m => !!m && Number(m[2]) === process.pid && m[3].includes(needle))
    .map(m => Number(m![1]));
}

/** The PromptError `p` rejects with (fails the test if it resolves or throws something else). */
export async function rejection(p: Promise<unknown>): Promise<PromptError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PromptError, `expected a PromptError, got ${String(err)}`);
    return err;
  }
  return assert.fail('expected a rejection');
}

export function tempDir(prefix = 'mcp-prompts-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli.js ...args` as a user would; resolves when it exits. Each run gets an empty cache
 * folder (the CLI remembers protocol eras there) unless `env` names XDG_CACHE_HOME.
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  const cache = options.env?.XDG_CACHE_HOME === undefined ? tempDir('mcp-prompts-cli-cache-') : undefined;
  const result = runNode([CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...(cache && { XDG_CACHE_HOME: cache }), ...options.env },
    timeoutMs: options.timeoutMs,
    what: `cli ${args.join(' ')}`,
  });
  return cache ? result.finally(() => fs.rmSync(cache, { recursive: true, force: true })) : result;
}

/** `node ...args` with `env` added to ours; resolves with its output once it exits (killed after `timeoutMs`). */
export function runNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number; what: string },
): Promise<CliResult> {
  const timeoutMs = options.timeoutMs ?? 30000;
  return new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', d => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', d => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.what} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', err => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The `questions` fixture over stdio, its questions answered by `asker`. */
export async function connectQuestions(
  asker?: Asker,
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<{ connection: ServerConnection; log: RecordingLog }> {
  const { fixtureCommand } = await launch();
  const log = new RecordingLog();
  const [def] = defs({ q: { ...fixtureCommand('questions'), env: options.env } });
  const connection = new ServerConnection(def, {
    log,
    restart: false,
    timeoutMs: options.timeoutMs ?? 20000,
    questions: asker,
  });
  return { connection, log };
}

/** An asker that records each question and answers with `answer(question)`. */
export function recording(answer: (q: Question) => QuestionAnswer | Promise<QuestionAnswer>): {
  asked: Question[];
  asker: Asker;
} {
  const asked: Question[] = [];
  const asker: Asker = async q => {
    asked.push(q);
    return answer(q);
  };
  return { asked, asker };
}

/** The text of a result's first message. */
export const firstText = (r: { messages?: unknown[] }): string =>
  (r.messages?.[0] as { content: { text: string } }).content.text;

/**
 * A typed line through the one run path, as the CLI runs it (no argument input unless `options` has
 * one): the server's answer, or the run's error thrown.
 */
export async function getLine(catalog: Catalog, line: string, options?: RunOptions): Promise<InvokeResult> {
  const outcome = await new PromptRunner(catalog, memoryRecords()).run(await requestFromLine(catalog, line), options);
  if (outcome.kind === 'failed') throw outcome.error;
  if (outcome.kind === 'cancelled') throw new Error(`${line}: cancelled`);
  return outcome.stored.result;
}

/** A POST an httpFront passed on: its headers (lower-case names) and its JSON body. */
export interface FrontedPost {
  headers: http.IncomingHttpHeaders;
  body: { id?: unknown; method?: string; params?: { _meta?: Record<string, unknown> } & Record<string, unknown> };
}

/**
 * A front for the HTTP server at `target` that passes everything on, as a proxy would: `holdFirstMs`
 * holds back the first request that long (a cold server's late first answer); `dropOnce` closes the
 * connection of the first POST it picks, unanswered; `posts` keeps every POST.
 */
export async function httpFront(
  target: string,
  options: { holdFirstMs?: number; dropOnce?: (post: FrontedPost) => boolean } = {},
): Promise<{ url: string; posts: FrontedPost[]; close(): Promise<void> }> {
  let dropped = false;
  const to = new URL(target);
  const posts: FrontedPost[] = [];
  let first = true;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST')
        try {
          const post = { headers: req.headers, body: JSON.parse(body.toString('utf8')) as FrontedPost['body'] };
          posts.push(post);
          if (!dropped && options.dropOnce?.(post)) {
            dropped = true;
            return void req.socket.destroy();
          }
        } catch {
          /* not JSON: passed on as it is */
        }
      const pass = () => {
        const upstream = http.request(
          { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
          answer => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      };
      const hold = first ? (options.holdFirstMs ?? 0) : 0;
      first = false;
      if (hold) setTimeout(pass, hold);
      else pass();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`,
    posts,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

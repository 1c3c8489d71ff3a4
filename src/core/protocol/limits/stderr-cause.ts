// Which line of a server's stderr says why it went away. A crashing Node server ends with its stack and
// "Node.js v20.x", a Python one with a traceback, Rust and Go with a panic, npx with npm's own report, a
// CLI with its usage after its error: the last line is rarely the cause. The rule: the last line that
// names an error (with what belongs to it: a Node `[cause]`, the message under a Rust panic), else the
// last line that is no boilerplate and no heading (`Usage:`), else the last heading.
import * as l10n from '@vscode/l10n';
import { hideValues } from '../../log.js';

type Kind = 'error' | 'plain' | 'heading' | 'detail' | 'frame' | 'boilerplate';

interface StderrLine {
  /** As shown: trimmed, without a Python exception group's gutter. */
  readonly text: string;
  readonly kind: Kind;
  /** Written by npm (`npm error …`, `npm ERR! …`): npm reports one failure over several lines. */
  readonly npm: boolean;
}

export interface StderrCause {
  readonly text: string;
  /** It is the last line the server wrote (blank lines aside): the message may say "last stderr". */
  readonly last: boolean;
}

/** Lines kept per server; every report above fits (a deep Python traceback ends with its exception). */
const MAX_LINES = 64;
/** A line is judged by its start: a minified bundle's source line must not cost a long regex run. */
const MAX_LINE_CHARS = 1000;
/** The close cause a message carries. */
const MAX_CAUSE_CHARS = 300;

const ERROR_NAME = String.raw`(?:[A-Za-z_$][\w$]*\.)*(?:[A-Z][\w$]*)?(?:Error|Exception|Exit|Interrupt|Rejection|Group|Fault|Failure)`;
const ERROR_LINES = [
  // JavaScript, Python, Java, C#: `TypeError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`, `httpx.ConnectError: …`,
  // `KeyboardInterrupt` alone.
  new RegExp(String.raw`^(?:Uncaught )?${ERROR_NAME}(?: \[[\w.-]+\])?(?::\s|$)`),
  /^thread '[^']*' (?:\(\d+\) )?panicked at /, // Rust
  /^(?:panic|fatal error): /, // Go
  /^Exception in thread /, // Java
  /^(?:error|fatal|ERROR|FATAL)(?:\[\w+\])?: /, // CLIs (clap, Deno, Bun, cargo), loggers
  /^'.+' is not recognized as an internal or external command,?$/, // cmd.exe (English): a launcher's program is missing
  /^(?:[\w.-]+ ){1,3}error: /i, // `Configuration error: …`, `Fatal error: …`: an error named in the first words
];
/** A heading over what follows (`Usage:`, `Optional environment variables:`): says nothing of a cause. */
const HEADING = /^[^:]{1,80}:$/;
const BOILERPLATE = [
  /^Node\.js v\d/,
  /^\^+$/, // Node's marker under the source line
  /^(?:node:[\w/-]+|file:\/\/\S+|\/\S+|[A-Za-z]:\\\S+):\d+$/, // Node: where the throw was
  /^(?:Exception Group )?Traceback \(most recent call last\):$/,
  /^(?:During handling of the above exception|The above exception was the direct cause)/,
  /^Require stack:$/,
  /^Emitted 'error' event on /,
  /^\(Use `node --trace-\w+/,
  /^note: (?:run with `RUST_BACKTRACE|Some details are omitted)/,
  /^stack backtrace:$/,
  /^goroutine \d+ \[/,
  /^exit status \d+$/, // go run
  /^A complete log of this run can be found in/, // npm
  /^operable program or batch file\.$/, // the second line of that cmd.exe report
  /^[-+\d ]+$/, // an exception group's separators
  /^[{}[\]()]+[,;]?$/,
];
const FRAMES = [
  /^\s+at /, // JavaScript, Rust backtraces
  /^\s*File "[^"]*", line \d+/, // Python
  /^\s+\d+: /, // Rust backtraces
  /^- \S/, // Node's require stack
  /^created by /, // Go
  /^[\w./*()[\]-]+\(.*\)$/, // Go: main.main()
];
/** The lines of npm's report that only name fields (`code E404`, `errno ECONNREFUSED`). */
const NPM_FIELD = /^(?:code|syscall|errno|path|dest|signal|command|cwd|\d{3})(?: \S+)?$/;
const NPM_PREFIX = /^npm (?:error|ERR!)(?: |$)/;
/** A Python exception group draws its tracebacks behind `  | ` and `  +-`. */
const GROUP_GUTTER = /^\s+(?:[|+] ?)+/;

function classify(raw: string): StderrLine {
  const line = (raw.length > MAX_LINE_CHARS ? raw.slice(0, MAX_LINE_CHARS) : raw).replace(/\r$/, '');
  const npm = NPM_PREFIX.test(line);
  const body = npm ? line.replace(NPM_PREFIX, '') : line.replace(GROUP_GUTTER, '');
  const text = npm ? line.trim() : body.trim();
  const bare = body.trim();
  let kind: Kind;
  if (!bare || BOILERPLATE.some(r => r.test(bare)) || (npm && NPM_FIELD.test(bare))) kind = 'boilerplate';
  else if (FRAMES.some(r => r.test(body))) kind = 'frame';
  else if (ERROR_LINES.some(r => r.test(body))) kind = 'error';
  else if (/^\s/.test(body)) kind = 'detail';
  else kind = HEADING.test(bare) ? 'heading' : 'plain';
  return { text, kind, npm };
}

/** The line that says why the server went away, from what it wrote to stderr (oldest first). */
export function stderrCause(lines: readonly string[]): StderrCause | undefined {
  return chooseCause(lines.map(classify));
}

function chooseCause(lines: readonly StderrLine[]): StderrCause | undefined {
  const lastWritten = findLastIndex(lines, l => l.text !== '');
  const error = findLastIndex(lines, (l, i) => l.kind === 'error' || startsNpmReport(lines, i));
  if (error >= 0) return { text: withFollowUp(lines, error), last: error === lastWritten };
  const plain = findLastIndex(lines, l => l.kind === 'plain');
  const heading = findLastIndex(lines, l => l.kind === 'heading');
  const chosen = plain >= 0 ? plain : heading >= 0 ? heading : findLastIndex(lines, l => l.kind === 'detail');
  return chosen >= 0 ? { text: lines[chosen].text, last: chosen === lastWritten } : undefined;
}

/** The first line of npm's report that says something: after `code E404` comes `404 Not Found - GET …`. */
function startsNpmReport(lines: readonly StderrLine[], i: number): boolean {
  const line = lines[i];
  if (!line.npm || !says(line)) return false;
  for (let j = i - 1; j >= 0 && lines[j].npm; j--) {
    if (says(lines[j])) return false;
  }
  return true;
}

/** A Rust panic's message is on the next line; a Node error's `[cause]` is among the lines under it. */
function withFollowUp(lines: readonly StderrLine[], i: number): string {
  const head = lines[i].text;
  const next = lines[i + 1];
  if (/panicked at .*:$/.test(head) && next && next.kind !== 'boilerplate' && next.kind !== 'frame')
    return `${head} ${next.text}`;
  for (let j = i + 1; j < lines.length && !says(lines[j]); j++) {
    const cause = /^\[cause\]: (.+)$/.exec(lines[j].text);
    if (cause) return `${head} [cause]: ${cause[1]}`;
  }
  return head;
}

/** A line that says something of its own (not a detail, frame or boilerplate under another). */
function says(line: StderrLine): boolean {
  return line.kind === 'plain' || line.kind === 'error' || line.kind === 'heading';
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T, index: number) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i], i)) return i;
  return -1;
}

/**
 * What one server process wrote last on stderr, kept to say why it closed the connection: the one place
 * where a close message's cause (`last stderr: …`, or `stderr: …` for an earlier line) is formed.
 */
export class StderrTail {
  private lines: string[] = [];

  /** `secrets`: values substituted into the server's definition, never shown. */
  constructor(private readonly secrets: readonly string[]) {}

  add(line: string): void {
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > MAX_LINES) this.lines.shift();
  }

  clear(): void {
    this.lines = [];
  }

  /** The close message's cause, or undefined when the server said nothing. */
  cause(): string | undefined {
    const cause = stderrCause(this.lines);
    if (!cause) return undefined;
    const text = hideValues(cause.text, this.secrets).slice(0, MAX_CAUSE_CHARS);
    return cause.last ? l10n.t('last stderr: {0}', text) : l10n.t('stderr: {0}', text);
  }
}

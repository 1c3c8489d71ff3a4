// "Output of a command…": runs a shell command the user typed (never one from a server, a setting or
// a history a workspace could seed) in the workspace folder, and turns its stdout into an argument
// value. On macOS and Linux the command runs in its own process group so that Cancel, the size cap and
// a failure end everything it started, grandchildren included; Windows has no process groups, and
// `taskkill /T` ends the shell's tree while the shell lives. On Windows cmd.exe switches its hidden
// console to UTF-8 first (`chcp 65001`), so `dir`, `type` and `echo` do not write the OEM code page.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import * as l10n from '@vscode/l10n';
import { envValue, type Platform } from '../../platform.js';
import { systemProgram, taskkillCommand, type CommandLine } from '../../process-tree.js';
import { firstLine, formatSize, MAX_SOURCE_BYTES } from './value-sources';

/** Stderr kept for the message of a failed command (the rest is dropped). */
const STDERR_KEEP = 4096;
/** After SIGTERM the group gets this long before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** Windows: how long the pipes of an exited shell may still deliver what it wrote, before they are closed. */
const PIPE_DRAIN_MS = 300;

export interface CommandRun {
  command: string;
  cwd: string;
  /** Which shell runs it and how it is ended; its environment is the command's unless `env` says otherwise. */
  platform: Platform;
  signal?: AbortSignal;
  /** Bytes of stdout accepted; more ends the run. MAX_SOURCE_BYTES unless a test says otherwise. */
  maxBytes?: number;
  env?: NodeJS.ProcessEnv;
}

export type CommandOutcome =
  | { value: string; /** The command wrote to stderr but exited 0: shown beside the value. */ warning?: string }
  | { problem: string; cancelled?: boolean };

/**
 * The command as the consent line shows it: every control character (line breaks too: a second line is
 * a second command) and bidi override as a visible escape, so what is shown is what runs.
 */
export function displayCommand(command: string): string {
  // eslint-disable-next-line no-control-regex
  return command.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, c => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The shell a command runs in, how the input and the modal name it, and whether it gets a process group. */
export interface CommandShell {
  /** The program: `/bin/sh`, or %ComSpec% (cmd.exe). */
  shell: string;
  /** The shell as the input and the modal name it, with the code page it is switched to on Windows. */
  name: string;
  /** POSIX: its own process group, which Cancel, the cap and the shell's exit end as a whole. */
  group: boolean;
  /**
   * cmd.exe: run before the command in the same shell. cmd.exe writes its own output (`dir`, `echo`,
   * its error messages) in the console's code page (437, 850, 932…), which is not UTF-8 and which
   * TextDecoder cannot read for most of them; `chcp 65001` makes that code page UTF-8.
   */
  prelude?: CommandLine;
}

/** Node's test for a cmd.exe shell: it runs that one as `cmd /d /s /c "…"`, any other as `shell -c …`. */
const CMD_SHELL = /^(?:.*\\)?cmd(?:\.exe)?$/i;

/** `/bin/sh` on macOS and Linux; on Windows %ComSpec% (cmd.exe), as Node's `shell: true` picks it, in UTF-8. */
export function commandShell(platform: Platform): CommandShell {
  if (platform.os !== 'win32') return { shell: '/bin/sh', name: '/bin/sh', group: true };
  const shell = envValue(platform, 'ComSpec') || 'cmd.exe';
  if (!CMD_SHELL.test(shell)) return { shell, name: shell, group: false };
  return {
    shell,
    name: l10n.t('{0} (code page 65001, UTF-8)', shell),
    group: false,
    prelude: { command: systemProgram(platform, 'chcp.com'), args: ['65001'] },
  };
}

/**
 * What the shell is given: the command as typed, after the prelude on Windows. `&` runs the command
 * whatever chcp did, and the exit code is the command's; chcp's own line ("Active code page") and any
 * complaint of it go to nul. The console is the shell's own hidden one (windowsHide, no inherited
 * stdio), so no terminal of the user's changes code page.
 */
export function shellScript(shell: CommandShell, command: string): string {
  if (!shell.prelude) return command;
  return `"${shell.prelude.command}" ${shell.prelude.args.join(' ')} >nul 2>nul & ${command}`;
}

/** How a command is ended: a signal to its process group, or taskkill on the shell's process tree. */
export type CommandStop =
  { kind: 'group'; pid: number; signal: NodeJS.Signals } | { kind: 'taskkill'; run: CommandLine };

/**
 * What ends the command the shell `pid` runs, or nothing. Windows: taskkill only while the shell lives
 * (once it has exited its pid may already belong to another process), forcibly whatever `signal` says.
 */
export function commandStop(
  platform: Platform,
  pid: number,
  signal: NodeJS.Signals,
  shellRunning: boolean,
): CommandStop | undefined {
  if (!commandShell(platform).group)
    return shellRunning ? { kind: 'taskkill', run: taskkillCommand(platform, pid) } : undefined;
  return { kind: 'group', pid, signal };
}

/**
 * Runs `command` through the platform shell and resolves with its stdout as text (trailing line breaks
 * dropped, as a shell's `$(…)` does) or a problem naming the command and the cause: a non-zero exit
 * (with the first line of its stderr), output above the cap, output that is not UTF-8 text, Cancel.
 * Never rejects.
 */
export function runCommandOutput(run: CommandRun): Promise<CommandOutcome> {
  const max = run.maxBytes ?? MAX_SOURCE_BYTES;
  const shown = displayCommand(run.command);
  const cancelled = (): CommandOutcome => ({ problem: l10n.t('Cancelled: {0}', shown), cancelled: true });
  return new Promise(resolve => {
    if (run.signal?.aborted) {
      resolve(cancelled());
      return;
    }
    const runIn = commandShell(run.platform);
    const child = spawnShell(run, runIn);
    const ending = new CommandEnding(child, run.platform, runIn.group);
    const output = gatherOutput(child, max, ending, () => ({
      problem: l10n.t('The output of {0} is larger than the limit of {1}; it was stopped.', shown, formatSize(max)),
    }));
    const onAbort = () => ending.stop(cancelled());
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', e => {
      const problem = { problem: l10n.t('{0} could not start: {1}', shown, e.message) };
      ending.stop(problem);
      // A process that never started emits no 'close'.
      if (!child.pid) resolve(problem);
    });
    child.on('exit', () => ending.shellExited());
    child.on('close', (code, sig) => {
      ending.closed();
      run.signal?.removeEventListener('abort', onAbort);
      resolve(ending.outcome ?? finished(code, sig, output.stdout(), firstLine(lossy(output.stderr())), shown));
    });
  });
}

type ShellProcess = ChildProcessByStdio<null, Readable, Readable>;

/** The shell given the command, in the run's folder with the run's environment, its window hidden. */
function spawnShell(run: CommandRun, runIn: CommandShell): ShellProcess {
  return spawn(shellScript(runIn, run.command), {
    cwd: run.cwd,
    shell: runIn.shell,
    // Its own process group (POSIX): the whole group is killed. stdin is closed so a command that reads it ends.
    detached: runIn.group,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: run.env ?? run.platform.env,
    windowsHide: true,
  });
}

/**
 * How one run of the shell ends: the first outcome decided before it closes (Cancel, the cap, a failure
 * to start) is kept, and what the command started is ended as a whole, SIGTERM and then SIGKILL.
 */
class CommandEnding {
  outcome: CommandOutcome | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly child: ShellProcess,
    private readonly platform: Platform,
    private readonly group: boolean,
  ) {}

  stop(outcome: CommandOutcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    this.kill('SIGTERM');
    this.killTimer = setTimeout(() => this.kill('SIGKILL'), KILL_GRACE_MS);
    this.killTimer.unref();
  }

  /**
   * 'close' waits for the pipes, which a background grandchild may hold: when the shell exits, what it
   * left running is ended (POSIX), so the pipes close and nothing the command started outlives it. On
   * Windows nothing names that grandchild any more: our ends of the pipes are closed after a moment.
   */
  shellExited(): void {
    this.kill('SIGKILL');
    if (!this.group)
      setTimeout(() => {
        this.child.stdout.destroy();
        this.child.stderr.destroy();
      }, PIPE_DRAIN_MS).unref();
  }

  /** The shell and its pipes have closed: no SIGKILL is due. */
  closed(): void {
    clearTimeout(this.killTimer);
  }

  private kill(signal: NodeJS.Signals): void {
    const { child } = this;
    const running = child.exitCode === null && child.signalCode === null;
    if (child.pid) carryOut(commandStop(this.platform, child.pid, signal, running));
  }
}

/**
 * The shell's stdout up to `max` bytes (more stops the run with `tooLarge`; nothing is kept once it is
 * stopped) and the first STDERR_KEEP bytes of its stderr, for the message.
 */
function gatherOutput(
  child: ShellProcess,
  max: number,
  ending: CommandEnding,
  tooLarge: () => CommandOutcome,
): { stdout(): Buffer; stderr(): Buffer } {
  const out: Buffer[] = [];
  let outBytes = 0;
  const err: Buffer[] = [];
  let errBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    if (ending.outcome) return;
    outBytes += chunk.byteLength;
    if (outBytes > max) {
      ending.stop(tooLarge());
      return;
    }
    out.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (errBytes < STDERR_KEEP) err.push(chunk);
    errBytes += chunk.byteLength;
  });
  return { stdout: () => Buffer.concat(out), stderr: () => Buffer.concat(err) };
}

/** What a command that ran to its end gave: its stdout as a value (with a warning for stderr), or why not. */
function finished(
  code: number | null,
  sig: NodeJS.Signals | null,
  stdout: Buffer,
  stderr: string,
  shown: string,
): CommandOutcome {
  if (code !== 0) {
    const problem = sig
      ? stderr
        ? l10n.t('{0} was ended by {1}: {2}', shown, sig, stderr)
        : l10n.t('{0} was ended by {1}.', shown, sig)
      : stderr
        ? l10n.t('{0} exited with code {1}: {2}', shown, code ?? '?', stderr)
        : l10n.t('{0} exited with code {1}.', shown, code ?? '?');
    return { problem };
  }
  const decoded = commandText(stdout, shown);
  if ('problem' in decoded || !stderr) return decoded;
  return { value: decoded.value, warning: l10n.t('{0} wrote to stderr: {1}', shown, stderr) };
}

/** Stdout as a value: UTF-8 text without NUL bytes (else refused), BOM and trailing line breaks dropped. */
export function commandText(bytes: Uint8Array, shown: string): { value: string } | { problem: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: l10n.t('The output of {0} is not UTF-8 text.', shown) };
  }
  if (text.includes('\u0000')) return { problem: l10n.t('The output of {0} is not UTF-8 text.', shown) };
  return { value: text.replace(/^\ufeff/, '').replace(/(\r?\n)+$/, '') };
}

function lossy(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Carries out a stop: a group already gone is fine, and so is a taskkill that finds nothing. */
function carryOut(stop: CommandStop | undefined): void {
  if (stop?.kind === 'taskkill') {
    spawn(stop.run.command, stop.run.args, { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    return;
  }
  if (!stop) return;
  try {
    process.kill(-stop.pid, stop.signal);
  } catch {
    /* the group has ended */
  }
}

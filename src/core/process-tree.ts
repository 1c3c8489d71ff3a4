// Ending a process and everything it started. On Windows a server started through a `.cmd` launcher
// (npx, uvx) is a child of cmd.exe, and a signal ends only cmd.exe: `taskkill /T /F` ends the tree. On
// macOS and Linux a wrapper script need not pass a signal on: its descendants are found with `ps` and
// signalled too. The plan is pure, so tests read it for every platform; stopTree carries it out.
import { execFile, spawn } from 'node:child_process';
import { envValue, type Platform } from './platform.js';

/** A command to run: the program and its arguments. */
export interface CommandLine {
  command: string;
  args: string[];
}

export type TreeStop =
  /** Windows: one command ends the process and its descendants, forcibly. */
  | { kind: 'taskkill'; run: CommandLine }
  /** POSIX: `ps` lists every process with its parent; the tree gets SIGTERM, then SIGKILL after a grace. */
  | { kind: 'signals'; list: CommandLine };

/** A Windows program from the system folder (%SystemRoot%\\System32), rather than whatever PATH or the working folder finds first. */
export function systemProgram(platform: Platform, file: string): string {
  return platform.path.join(envValue(platform, 'SystemRoot') ?? 'C:\\Windows', 'System32', file);
}

/** `taskkill /pid N /T /F`, from the system folder. */
export function taskkillCommand(platform: Platform, pid: number): CommandLine {
  return { command: systemProgram(platform, 'taskkill.exe'), args: ['/pid', String(pid), '/T', '/F'] };
}

/** How `pid` and its descendants are ended on `platform`. */
export function treeStopPlan(platform: Platform, pid: number): TreeStop {
  if (platform.os === 'win32') return { kind: 'taskkill', run: taskkillCommand(platform, pid) };
  // `-A -o pid= -o ppid=`: the same columns from procps (Linux) and BSD ps (macOS).
  return { kind: 'signals', list: { command: 'ps', args: ['-A', '-o', 'pid=', '-o', 'ppid='] } };
}

/** The descendants of `root` in `ps -o pid= -o ppid=` output, parents before their children. */
export function descendantsOf(psOutput: string, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of psOutput.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!(pid > 0) || !(ppid >= 0) || pid === root) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const seen = new Set<number>([root]);
  for (let queue = [root]; queue.length;) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Runs a command to its end, its output ignored; a failure to start is no error (the stop goes on). */
export type CommandRunner = (run: CommandLine) => Promise<void>;

const runQuietly: CommandRunner = run =>
  new Promise<void>(resolve => {
    const child = spawn(run.command, run.args, { stdio: 'ignore', windowsHide: true });
    child.on('error', () => resolve()).on('exit', () => resolve());
  });

/** Ends `pid` and its descendants by `plan`; resolves once done (at most `graceMs` plus a moment). */
export async function stopTree(plan: TreeStop, pid: number, graceMs: number, run = runQuietly): Promise<void> {
  if (plan.kind === 'taskkill') return run(plan.run);
  const listing = await new Promise<string>(resolve =>
    execFile(plan.list.command, plan.list.args, { encoding: 'utf8' }, (err, out) => resolve(err ? '' : out)),
  );
  const tree = [pid, ...descendantsOf(listing, pid)];
  for (const p of tree) signal(p, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (tree.some(alive) && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
  for (const p of tree.filter(alive)) signal(p, 'SIGKILL');
}

/**
 * How long a server gets, as VS Code gives it (mcpStdioStateHandler.ts): to exit once its stdin is
 * closed, and then, on macOS and Linux, between SIGTERM and SIGKILL.
 */
export const STOP_GRACE_MS = 10_000;

/** The part of a child process that ending it needs. */
export interface RunningProcess {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdin?: { end(): unknown } | null;
  once(event: 'exit', listener: () => void): unknown;
}

/**
 * Ends a server as VS Code does: its stdin is closed, and one still running after `graceMs` is ended with
 * everything it started, by the plan for `platform` (taskkill /T /F on Windows: a signal would end only
 * the cmd.exe of a `.cmd` launcher; SIGTERM, then SIGKILL to the whole tree elsewhere).
 */
export async function endProcess(
  child: RunningProcess,
  platform: Platform,
  graceMs = STOP_GRACE_MS,
  run = runQuietly,
): Promise<void> {
  const running = () => child.exitCode === null && child.signalCode === null;
  if (!child.pid || !running()) return;
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  try {
    child.stdin?.end();
  } catch {
    /* already closed */
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise(resolve => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  if (running()) await stopTree(treeStopPlan(platform, child.pid), child.pid, graceMs, run);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone already */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

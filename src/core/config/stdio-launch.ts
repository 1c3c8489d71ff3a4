// Where and how a stdio server starts, as VS Code starts one: `~` in its command, arguments and working
// directory is the home folder; a relative working directory lies under the default one (the workspace
// folder, or the home folder); a relative envFile is read from the default working directory. Pure: the
// transport spawns what this says.
import type { StdioTransportConfig } from './config.js';
import { envValue, expandHome, type Platform } from '../platform.js';

export interface StdioLaunch {
  command: string;
  args: string[];
  cwd: string;
  /** The envFile's full path, if the entry names one. */
  envFile?: string;
}

export function stdioLaunch(
  config: StdioTransportConfig,
  defaultCwd: string | undefined,
  platform: Platform,
): StdioLaunch {
  const p = platform.path;
  const base = defaultCwd ?? platform.home;
  const cwd = config.cwd === undefined ? base : p.resolve(base, expandHome(platform, config.cwd));
  return {
    command: expandHome(platform, config.command),
    args: config.args.map(a => expandHome(platform, a)),
    cwd,
    envFile: config.envFile === undefined ? undefined : p.resolve(base, expandHome(platform, config.envFile)),
  };
}

/** Windows' extensions of programs when PATHEXT is unset (what cross-spawn's lookup assumes). */
const DEFAULT_PATHEXT = '.EXE;.CMD;.BAT;.COM';

/**
 * On Windows, the files a command may be, in the order cross-spawn looks for them (the working
 * directory, then each PATH entry, each with the PATHEXT extensions, then the bare name). A command
 * found nowhere is reported as not found before anything starts: otherwise cmd.exe starts, says so in
 * the console's code page and language, and the start looks like a crash. Elsewhere: undefined, as
 * spawn itself reports a missing command.
 */
export function commandCandidates(
  launch: Pick<StdioLaunch, 'command' | 'cwd'>,
  env: Readonly<Record<string, string>>,
  platform: Platform,
): string[] | undefined {
  if (platform.os !== 'win32') return undefined;
  const p = platform.path;
  const lookup = { ...platform, env };
  const dirs = /[\\/]/.test(launch.command)
    ? ['']
    : [
        '',
        ...(envValue(lookup, 'PATH') ?? '')
          .split(';')
          .map(d => d.replace(/^"(.*)"$/, '$1'))
          .filter(Boolean),
      ];
  const listed = (envValue(lookup, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter(Boolean);
  const exts = [...(launch.command.includes('.') ? [''] : []), ...listed, ''];
  const out: string[] = [];
  for (const dir of dirs)
    for (const ext of exts) {
      const file = p.resolve(launch.cwd, dir, launch.command + ext);
      if (!out.includes(file)) out.push(file);
    }
  return out;
}

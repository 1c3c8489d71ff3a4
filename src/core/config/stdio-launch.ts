// Where and how a stdio server starts, as VS Code starts one: `~` in its command, arguments and working
// directory is the home folder; a relative working directory lies under the default one (the workspace
// folder of a workspace server, the home folder for your own); a relative envFile is read from the
// default working directory. Then the process itself: its environment, the program its command names
// (looked up in PATH only, never in the working folder) and, on Windows, the cmd.exe line of a batch
// launcher. Pure: the file checks are passed in, and the transport spawns exactly what this says.
import type { StdioTransportConfig } from './config.js';
import { batchCommandLine, isNetworkFolder } from './batch-line.js';
import { envValue, expandHome, mergeEnv, type Platform } from '../platform.js';
import { systemProgram } from '../process-tree.js';

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

/** What a path is to the program lookup: nothing, a file, or a file the OS may run (POSIX: executable). */
export type FileKind = 'none' | 'file' | 'program';

/** The process a server is: exactly what spawn gets. */
export interface StdioStart {
  /** The program's full path: the one the command names, or cmd.exe running a batch file on Windows. */
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The arguments are one cmd.exe command line, passed as they are (Node must not quote them again). */
  verbatim: boolean;
}

/** The variables of the SDK's safe default environment (its DEFAULT_INHERITED_ENV_VARS), per OS. */
const SDK_INHERITED = {
  win32: [
    'APPDATA',
    'COMSPEC',
    'HOMEDRIVE',
    'HOMEPATH',
    'LOCALAPPDATA',
    'PATH',
    'PATHEXT',
    'PROCESSOR_ARCHITECTURE',
    'PROGRAMDATA',
    'PROGRAMFILES',
    'PROGRAMFILES(X86)',
    'PROGRAMW6432',
    'SYSTEMDRIVE',
    'SYSTEMROOT',
    'TEMP',
    'USERNAME',
    'USERPROFILE',
    'WINDIR',
  ],
  posix: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'],
};

/**
 * Passed on besides the SDK's defaults, as VS Code passes your whole environment: proxies and CA
 * certificates (`npx -y …` behind a corporate proxy), the locale and the SSH agent. Elsewhere than on
 * Windows the lower-case proxy names are other variables, and every `LC_*` is passed too.
 */
const PROXIES = {
  win32: ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'],
  posix: ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'],
};
const CERTIFICATES_LOCALE_AGENT = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'LANG', 'SSH_AUTH_SOCK'];

/** The names of the environment a server inherits from yours on `platform` (LC_* aside). */
export function inheritedNames(platform: Platform): string[] {
  const os = platform.os === 'win32' ? 'win32' : 'posix';
  return SDK_INHERITED[os].concat(PROXIES[os], CERTIFICATES_LOCALE_AGENT);
}

/** What a server inherits of yours: the names above, with values; not exported shell functions (`() {…}`). */
function inherited(platform: Platform): Record<string, string> {
  const out: Record<string, string> = {};
  const locale = Object.keys(platform.env).filter(k => (platform.os === 'win32' ? /^LC_/i : /^LC_/).test(k));
  for (const name of [...inheritedNames(platform), ...locale]) {
    const value = envValue(platform, name);
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  return out;
}

/**
 * A server's environment: what it inherits, then its envFile, then its `env`, as VS Code builds it: an
 * `env` PATH is appended to the PATH it would get (the envFile's, else yours), not put in its place. On
 * Windows names merge whatever their case, and `NoDefaultCurrentDirectoryInExePath` is set, so that
 * neither cmd.exe running a launcher nor the server looks for a bare program name in its working folder.
 */
export function serverEnvironment(
  platform: Platform,
  fromFile: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const isPath = (name: string) => (platform.os === 'win32' ? name.toUpperCase() === 'PATH' : name === 'PATH');
  const own = Object.entries(env);
  const rest = Object.fromEntries(own.filter(([k]) => !isPath(k)));
  const out = mergeEnv(platform, [inherited(platform), fromFile, rest], inheritedNames(platform));
  for (const [, extra] of own.filter(([k]) => isPath(k))) {
    if (!extra) continue;
    const key = Object.keys(out).find(isPath) ?? 'PATH';
    out[key] = out[key] ? `${out[key]}${platform.path.delimiter}${extra}` : extra;
  }
  if (platform.os === 'win32')
    return mergeEnv(platform, [out, { NoDefaultCurrentDirectoryInExePath: '1' }], inheritedNames(platform));
  return out;
}

/** Windows' program extensions when PATHEXT is unset (as VS Code's lookup assumes). */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * The program a command names, in the order it is looked for; the first that exists is run. A command
 * with a folder is taken from there (relative to the working folder). A bare name is looked up in the
 * full-path entries of PATH only — never in the working folder, nor through an empty or relative entry
 * (`.`): a repository's `npx.cmd`, `node.exe` or `./npx` is not the program you named. On Windows each
 * name is tried with the PATHEXT extensions (`npx` → `npx.CMD`), and as written only when it has an
 * extension of its own.
 */
export function commandCandidates(
  launch: Pick<StdioLaunch, 'command' | 'cwd'>,
  env: Readonly<Record<string, string>>,
  platform: Platform,
): string[] {
  const p = platform.path;
  const windows = platform.os === 'win32';
  const lookup = { ...platform, env };
  const withFolder = windows ? /[\\/]/.test(launch.command) : launch.command.includes('/');
  const dirs = withFolder
    ? [launch.cwd]
    : (envValue(lookup, 'PATH') ?? '')
        .split(p.delimiter)
        .map(d => (windows ? d.replace(/^"(.*)"$/, '$1') : d))
        .filter(d => d && p.isAbsolute(d));
  if (!windows) return dirs.map(d => p.resolve(d, launch.command));
  const listed = (envValue(lookup, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter(Boolean);
  const exts = [...(p.extname(launch.command) ? [''] : []), ...listed];
  const out: string[] = [];
  for (const dir of dirs)
    for (const ext of exts) {
      const file = p.resolve(dir, launch.command + ext);
      if (!out.includes(file)) out.push(file);
    }
  return out;
}

/**
 * The process to start for `launch`. Throws, before anything starts, a command found nowhere (`ENOENT`:
 * otherwise on Windows cmd.exe starts, says so in the console's code page and language, and the start
 * looks like a crash), and what cmd.exe cannot run faithfully (see batch-line.ts).
 */
export function stdioStart(
  launch: StdioLaunch,
  env: Record<string, string>,
  platform: Platform,
  fileKind: (file: string) => FileKind,
): StdioStart {
  const explicit = (platform.os === 'win32' ? /[\\/]/ : /\//).test(launch.command);
  // A path you wrote is run as it is (spawn says if it may not be); a PATH entry must hold a program.
  const found = commandCandidates(launch, env, platform).find(f =>
    explicit || platform.os === 'win32' ? fileKind(f) !== 'none' : fileKind(f) === 'program',
  );
  if (!found)
    throw Object.assign(new Error(`spawn ${launch.command} ENOENT`), { code: 'ENOENT', path: launch.command });
  const start = { file: found, args: launch.args, cwd: launch.cwd, env, verbatim: false };
  // Windows runs .exe and .com files itself; anything else (npx.cmd, a .bat file) through cmd.exe.
  if (platform.os !== 'win32' || /\.(exe|com)$/i.test(found)) return start;
  if (isNetworkFolder(launch.cwd))
    throw Object.assign(new Error(launch.cwd), { code: 'UNC_CWD', path: launch.cwd, program: found });
  return {
    ...start,
    file: systemProgram(platform, 'cmd.exe'),
    args: ['/d', '/e:ON', '/v:OFF', '/s', '/c', `"${batchCommandLine(found, launch.args)}"`],
    verbatim: true,
  };
}

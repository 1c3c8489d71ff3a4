// The platform the code acts for: its OS, its path flavour, its environment and its home folder. Built
// once at the edges from the real process (hostPlatform) and passed to the few places whose behaviour
// differs by OS, so that the tests, which run on Linux, run what a Windows or macOS user gets.
import os from 'node:os';
import path from 'node:path';

export interface Platform {
  /** As `process.platform` says: `win32`, `darwin`, `linux`, … */
  readonly os: NodeJS.Platform;
  /** `path.win32` on Windows, `path.posix` elsewhere. */
  readonly path: path.PlatformPath;
  /** The environment; look names up with envValue (case-insensitive on Windows). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home folder. */
  readonly home: string;
}

/** A platform from its parts (tests name the one they run for). */
export function platformOf(
  osName: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Platform {
  return { os: osName, path: osName === 'win32' ? path.win32 : path.posix, env, home };
}

/** The platform this process runs on: the one call the edges (extension, CLI) make. */
export function hostPlatform(): Platform {
  return platformOf(process.platform, process.env, os.homedir());
}

/**
 * An environment variable's value. Windows names are case-insensitive (`Path` is `PATH`), as VS Code's
 * own `${env:…}` resolver treats them there; elsewhere the name is exact.
 */
export function envValue(platform: Platform, name: string): string | undefined {
  const exact = platform.env[name];
  if (exact !== undefined || platform.os !== 'win32') return exact;
  const upper = name.toUpperCase();
  const key = Object.keys(platform.env).find(k => k.toUpperCase() === upper);
  return key === undefined ? undefined : platform.env[key];
}

/**
 * Environment layers merged for a child process, later layers winning. On Windows a name replaces
 * every earlier spelling of it, and a name in `canonical` (the SDK's inherited `PATH`, `PATHEXT`, …)
 * takes that spelling: a child given both `PATH` and `Path` gets only one of them from Node, and
 * cross-spawn finds the command with the other.
 */
export function mergeEnv(
  platform: Platform,
  layers: readonly Readonly<Record<string, string>>[],
  canonical: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (platform.os !== 'win32') {
    for (const layer of layers) Object.assign(out, layer);
    return out;
  }
  const spelling = new Map(canonical.map(name => [name.toUpperCase(), name]));
  const keys = new Map<string, string>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) {
      const upper = name.toUpperCase();
      const previous = keys.get(upper);
      if (previous !== undefined) delete out[previous];
      const key = spelling.get(upper) ?? name;
      keys.set(upper, key);
      out[key] = value;
    }
  }
  return out;
}

/**
 * `~` and `~/…` (also `~\…` on Windows) as the home folder, as VS Code does for a server's command,
 * arguments and working directory; `~user` and a `~` inside a value stay as they are.
 */
export function expandHome(platform: Platform, value: string): string {
  const m = (platform.os === 'win32' ? /^~(?=$|[\\/])/ : /^~(?=$|\/)/).exec(value);
  return m ? platform.home + value.slice(1) : value;
}

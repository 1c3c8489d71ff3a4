// Which configured servers run, and which are held back and why: the trust and precedence rules shared
// by the extension and the CLI. A repository is hostile until the user trusts it, so everything it
// defines (its .vscode/mcp.json, its workspace settings) waits for trust, and it can never replace a
// server the user defined.
import * as l10n from '@vscode/l10n';
import type { ServerConfig, ServerDefinition } from './config.js';
import type { Platform } from '../platform.js';

export interface ConfigSource {
  kind: 'user' | 'workspace';
  /** Where it came from, for messages: ".vscode/mcp.json", "workspace settings", … */
  label: string;
  /** The workspace folder of a workspace source: its `${workspaceFolder}` and its scope. */
  folder?: string;
  config: ServerConfig;
  /** A stable name of the place (not translated): keys the user's own per-server disable. */
  key?: string;
  /** Servers the file itself marks as off (`"disabled": true`, Claude Code's disabled project servers). */
  disabled?: readonly string[];
}

export type HoldReason = 'untrusted' | 'shadowed' | 'envFile' | 'workspaceFolder' | 'disabled';

export interface HeldServer {
  def: ServerDefinition;
  origin: string;
  reason: HoldReason;
  /** One sentence naming the server and the reason. */
  message: string;
  /** A shadowed server: where the definition used instead is. */
  usedFrom?: string;
}

/** A configured server that does not run, and why: held by the merge, or waiting for (or refused) consent. */
export interface HeldEntry {
  def: ServerDefinition;
  origin: string;
  reason: HoldReason | 'consent' | 'declined';
  message: string;
  usedFrom?: string;
}

export interface PlannedServer {
  def: ServerDefinition;
  source: ConfigSource;
}

export interface ConfigProblemEntry {
  origin: string;
  server?: string;
  message: string;
}

export interface ServerPlan {
  /** Servers that may start, not yet substituted; each has its `scope` and `defaultCwd`. */
  run: PlannedServer[];
  held: HeldServer[];
  problems: ConfigProblemEntry[];
  /** Log lines for servers whose name is defined in several places: which one is used and why. */
  notes: { def: ServerDefinition; message: string }[];
}

export interface TrustContext {
  /** The workspace is trusted (or trust is off). */
  trusted: boolean;
  /** Where servers run: its home folder (the working folder of your own servers) and its path rules. */
  platform: Platform;
  /** The user disabled this server from the tree (keyed by `disableKey`). */
  isDisabled?: (key: string) => boolean;
  /** Which folder is at each workspace folder's path now (folderIdentity); none known, the path alone. */
  folderIds?: ReadonlyMap<string, string>;
}

/** The key of the user's own disable of one server: its place and its name. */
export function disableKey(source: Pick<ConfigSource, 'key' | 'label'>, name: string): string {
  return `${source.key ?? source.label}\u0000${name}`;
}

/** The scope of a definition: `user`, or the folder of the workspace that defined it. */
export function scopeOf(source: ConfigSource): string {
  return source.kind === 'user' ? 'user' : `workspace:${source.folder ?? ''}`;
}

/**
 * An envFile that would be read from the (untrusted) workspace: one through `${workspaceFolder}`. A
 * relative one lies under your home folder, where your own servers run.
 */
export function envFileInWorkspace(envFile: string | undefined): boolean {
  return !!envFile?.includes('${workspaceFolder}');
}

/**
 * Where a stdio definition uses `${workspaceFolder}` (its command, an argument, its cwd or an env value),
 * or undefined. In Restricted Mode that folder is the untrusted one: a user's own server would run, or
 * load code, from the repository.
 */
export function workspaceFolderUse(def: ServerDefinition): string | undefined {
  const t = def.transport;
  if (t.type !== 'stdio') return undefined;
  const uses = (s: string | undefined) => !!s?.includes('${workspaceFolder}');
  if (uses(t.command)) return 'command';
  if (t.args.some(uses)) return 'args';
  if (uses(t.cwd)) return 'cwd';
  const env = Object.entries(t.env).find(([, v]) => uses(v));
  return env && `env ${env[0]}`;
}

/**
 * User sources first, each kind in the order given (VS Code's order: the profile mcp.json before the
 * portable mcp-config.json; each folder's .vscode/mcp.json before the folders' .mcp.json): on a name
 * clash the earlier definition is used and the later one is shown as shadowed. In an untrusted workspace every workspace-defined server is held back whatever its transport,
 * user stdio servers run from the home folder, and a relative envFile or `${workspaceFolder}` is refused.
 */
export function planServers(sources: ConfigSource[], ctx: TrustContext): ServerPlan {
  const plan: ServerPlan = { run: [], held: [], problems: [], notes: [] };
  const taken = new Map<string, { def: ServerDefinition; source: ConfigSource }>();
  const ordered = [...sources.filter(s => s.kind === 'user'), ...sources.filter(s => s.kind === 'workspace')];
  for (const source of ordered) {
    for (const p of source.config.problems)
      plan.problems.push({ origin: source.label, server: p.server, message: p.message });
    for (const parsed of source.config.servers) {
      const def = defineServer(parsed, source, ctx);
      const first = taken.get(def.id);
      if (first) {
        const clash = clashOf(def, source, first);
        if ('problem' in clash) plan.problems.push(clash.problem);
        else {
          plan.held.push(clash.held);
          plan.notes.push({ def: first.def, message: clash.held.message });
        }
        continue;
      }
      taken.set(def.id, { def, source });
      const held = heldBack(def, source, ctx);
      if (held) plan.held.push(held);
      else plan.run.push({ def, source });
    }
  }
  return plan;
}

/** A parsed server as its source defines it: where it belongs, where it runs from, how it is turned off. */
function defineServer(
  parsed: ServerConfig['servers'][number],
  source: ConfigSource,
  ctx: TrustContext,
): ServerDefinition {
  return {
    ...parsed,
    source: source.kind === 'user' ? 'user' : 'workspace',
    scope: scopeOf(source),
    ...(source.kind === 'workspace' && source.folder !== undefined && ctx.folderIds?.has(source.folder)
      ? { folderId: ctx.folderIds.get(source.folder) }
      : {}),
    // Your own servers run from your home folder, as VS Code runs them, trusted workspace or not: a
    // repository's folder holds files (`npx.cmd`, `node.exe`) that a program may find there first.
    defaultCwd: source.kind === 'workspace' ? source.folder : ctx.platform.home,
    origin: source.label,
    disableKey: disableKey(source, parsed.name),
  };
}

/**
 * A second definition of a name already taken: shadowed by the user's own, or by an earlier place (VS
 * Code's rule: a server whose name an earlier file has is not used), else (twice in one place) a problem.
 */
function clashOf(
  def: ServerDefinition,
  source: ConfigSource,
  first: { def: ServerDefinition; source: ConfigSource },
): { held: HeldServer } | { problem: ConfigProblemEntry } {
  const shadowed = (message: string, usedFrom?: string) => ({
    held: { def, origin: source.label, reason: 'shadowed' as const, message, ...(usedFrom && { usedFrom }) },
  });
  if (first.source.kind === 'user' && source.kind === 'workspace')
    return shadowed(
      l10n.t(
        '{0} from {1} is not used: your own definition of {0} ({2}) is, because a workspace cannot replace a server you defined',
        def.name,
        source.label,
        first.source.label,
      ),
    );
  // The same server is often configured in several files or clients: the earlier place is used.
  if (first.source !== source)
    return shadowed(
      l10n.t('{0} from {1} is not used: {0} from {2} is', def.name, source.label, first.source.label),
      first.source.label,
    );
  return {
    problem: {
      origin: source.label,
      server: def.name,
      message: l10n.t('Server "{0}" is defined twice; the first definition is used', def.name),
    },
  };
}

/** Why a server that holds its name may not start (turned off, untrusted, reads the untrusted folder), or undefined. */
function heldBack(def: ServerDefinition, source: ConfigSource, ctx: TrustContext): HeldServer | undefined {
  const held = (reason: HoldReason, message: string): HeldServer => ({ def, origin: source.label, reason, message });
  // A disabled server still holds its name: turning off your own server never lets a workspace's run.
  if (source.disabled?.includes(def.name))
    return held('disabled', l10n.t('{0} is turned off in {1}', def.name, source.label));
  if (ctx.isDisabled?.(def.disableKey!))
    return held(
      'disabled',
      l10n.t('{0} from {1} is disabled; Enable Server in its context menu starts it again', def.name, source.label),
    );
  if (source.kind === 'workspace' && !ctx.trusted)
    return held(
      'untrusted',
      l10n.t('{0} from {1} does not start until you trust this workspace', def.name, source.label),
    );
  if (source.kind !== 'user' || ctx.trusted) return undefined;
  const t = def.transport;
  if (t.type === 'stdio' && envFileInWorkspace(t.envFile))
    return held(
      'envFile',
      l10n.t(
        '{0} does not start in Restricted Mode: its envFile "{1}" would be read from the untrusted workspace; use an absolute path or trust the workspace',
        def.name,
        t.envFile!,
      ),
    );
  const use = workspaceFolderUse(def);
  if (use)
    return held(
      'workspaceFolder',
      l10n.t(
        '{0} does not start in Restricted Mode: its {1} uses {2}, which is the untrusted workspace; trust the workspace or use an absolute path',
        def.name,
        use,
        '${workspaceFolder}',
      ),
    );
  return undefined;
}

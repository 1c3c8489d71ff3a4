// A definition's variables filled in, as VS Code fills them in before it starts a server: VS Code's own
// (`${env:…}`, `${input:…}`, `${workspaceFolder}`, …) in mcp.json, environment references (`${VAR}`)
// in the portable files.
import * as l10n from '@vscode/l10n';
import { ConfigError, type InputDefinition, type ServerDefinition } from './config.js';
import { definitionFingerprint } from './consent.js';
import { envValue, type Platform } from '../platform.js';

export interface Variables {
  workspaceFolder?: string;
  /** Whose `${env:…}`, `${userHome}` and `${pathSeparator}` these are. */
  platform: Platform;
}

/** Supplies `${input:id}` values; the extension asks the user (and keeps secrets), the CLI reads env. */
export type InputResolver = (
  input: InputDefinition | undefined,
  id: string,
  server: string,
) => Promise<string | undefined>;

/**
 * `${env:NAME}` (any name up to the brace: Windows has `ProgramFiles(x86)`), `${input:id}`, and the
 * plain variables VS Code resolves in mcp.json that depend on no editor state.
 */
const VARIABLE = /\$\{(?:(env|input):([^{}:]+)|(workspaceFolder|userHome|pathSeparator|\/))\}/g;

/** The value of a plain variable or `${env:…}`, as VS Code's resolver gives it; undefined leaves it as written. */
function variableValue(kind: string | undefined, key: string, vars: Variables): string | undefined {
  const { platform } = vars;
  if (kind === 'env') return envValue(platform, key) ?? '';
  switch (key) {
    case 'workspaceFolder':
      // VS Code writes the drive letter upper-case (C:\ws), whatever case the folder's URI has.
      return vars.workspaceFolder && platform.os === 'win32'
        ? vars.workspaceFolder.replace(/^[a-z](?=:)/, d => d.toUpperCase())
        : vars.workspaceFolder;
    case 'userHome':
      return platform.home || undefined;
    default:
      return platform.path.sep; // pathSeparator, or its short form ${/}
  }
}

/**
 * Replaces `${env:NAME}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}` (`${/}`) and
 * (through the resolver) `${input:id}` in every string of the transport. Unknown variables are left as
 * they are, as VS Code does.
 */
export async function substituteVariables(
  def: ServerDefinition,
  vars: Variables,
  inputs: InputDefinition[],
  resolveInput?: InputResolver,
): Promise<ServerDefinition> {
  if (def.format === 'portable') return expandEnvironmentReferences(def, vars.platform);
  const answers = new InputAnswers(def, inputs, resolveInput);
  const substitute = async (text: string): Promise<string> => {
    const inputIds = [...text.matchAll(VARIABLE)].filter(m => m[1] === 'input').map(m => m[2]);
    for (const id of inputIds) await answers.ask(id);
    return text.replace(VARIABLE, (whole, kind: string | undefined, name: string | undefined, plain: string) =>
      kind === 'input' ? (answers.value(name!) ?? whole) : (variableValue(kind, name ?? plain, vars) ?? whole),
    );
  };
  const transport = await substituteTransport(def.transport, substitute);
  const fingerprint = def.fingerprint ?? definitionFingerprint(def);
  const { secrets } = answers;
  return secrets.size ? { ...def, transport, fingerprint, secrets: [...secrets] } : { ...def, transport, fingerprint };
}

/**
 * The inputs of one definition: one answer per input id, shared by every string that uses it (strings
 * are substituted concurrently); the values of password inputs join the definition's secrets.
 */
class InputAnswers {
  private readonly pending = new Map<string, Promise<string>>();
  private readonly resolved = new Map<string, string>();
  readonly secrets: Set<string>;

  constructor(
    private readonly def: ServerDefinition,
    private readonly inputs: InputDefinition[],
    private readonly resolveInput: InputResolver | undefined,
  ) {
    this.secrets = new Set(def.secrets ?? []);
  }

  /** The answer for `id`, asked of the resolver once; no answer is an error naming the server. */
  ask(id: string): Promise<string> {
    let answer = this.pending.get(id);
    if (!answer) {
      answer = this.answer(id);
      this.pending.set(id, answer);
    }
    return answer;
  }

  /** The answer for `id` once `ask` has it. */
  value(id: string): string | undefined {
    return this.resolved.get(id);
  }

  private async answer(id: string): Promise<string> {
    const { def } = this;
    const input = this.inputs.find(i => i.id === id);
    const value = this.resolveInput ? await this.resolveInput(input, id, def.name) : undefined;
    if (value === undefined)
      throw new ConfigError(l10n.t('Server "{0}": no value for {1}', def.name, `${'$'}{input:${id}}`), def.name, id);
    if (input?.password && value) this.secrets.add(value);
    this.resolved.set(id, value);
    return value;
  }
}

/** Every string of a transport through `substitute`, in the order the inputs are asked for. */
async function substituteTransport(
  t: ServerDefinition['transport'],
  substitute: (text: string) => Promise<string>,
): Promise<ServerDefinition['transport']> {
  const record = async (r: Record<string, string>) =>
    Object.fromEntries(await Promise.all(Object.entries(r).map(async ([k, v]) => [k, await substitute(v)] as const)));
  if (t.type === 'stdio')
    return {
      ...t,
      command: await substitute(t.command),
      args: await Promise.all(t.args.map(substitute)),
      env: await record(t.env),
      envFile: t.envFile === undefined ? undefined : await substitute(t.envFile),
      cwd: t.cwd === undefined ? undefined : await substitute(t.cwd),
    };
  const client =
    t.clientId === undefined
      ? {}
      : {
          clientId: await substitute(t.clientId),
          clientSecret: t.clientSecret === undefined ? undefined : await substitute(t.clientSecret),
        };
  return { ...t, url: await substitute(t.url), headers: await record(t.headers), ...client };
}

/** `${NAME}` or `${NAME:-default}`: the environment references of the portable files (not bare `$NAME`). */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * A portable entry with its environment references filled in from the host's environment, where VS Code
 * expands them: command, arguments, env values, URL and header values. An unset variable takes its
 * default, else stays as written; a default is not expanded again. VS Code's own variables stay as written.
 */
function expandEnvironmentReferences(def: ServerDefinition, platform: Platform): ServerDefinition {
  const expand = (text: string) =>
    text.replace(
      ENV_REFERENCE,
      (whole, name: string, fallback: string | undefined) => envValue(platform, name) ?? fallback ?? whole,
    );
  const record = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, expand(v)]));
  const t = def.transport;
  const transport: ServerDefinition['transport'] =
    t.type === 'stdio'
      ? { ...t, command: expand(t.command), args: t.args.map(expand), env: record(t.env) }
      : { ...t, url: expand(t.url), headers: record(t.headers) };
  return { ...def, transport, fingerprint: def.fingerprint ?? definitionFingerprint(def) };
}

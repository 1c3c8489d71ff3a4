// Secrets written in clear in another client's server entries (Claude Desktop, Cursor): found before an
// import writes them into a file, and replaced by `${input:…}` placeholders when the user asks for that
// (the value is then asked once, on first start, and kept in VS Code's secret storage), or in a portable
// file, which has no inputs, by `${NAME}` environment references. A repository file
// is read by everyone who can read the repository, so nothing here is written there without the user.
import { sanitizeServerId, type InputDefinition } from './config.js';

/** One value that looks like a secret, where it sits in an entry, and the input id it would become. */
export interface LiteralSecret {
  server: string;
  /** `env GITHUB_TOKEN`, `headers Authorization`, `args 3`: for the warning. */
  field: string;
  path: (string | number)[];
  inputId: string;
  /** What the value keeps around the secret (`Bearer ` of an Authorization header). */
  prefix: string;
  /** A URL's query parameter whose value is the secret (`api_key` of `…?api_key=…`): only that value is replaced. */
  param?: string;
}

/** A name that says it holds a secret. */
const SECRET_NAME =
  /token|secret|passw(or)?d|pwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|authorization|auth[-_]?token|cookie/i;
/** Values that are secrets by their shape: well-known token prefixes. */
const TOKEN_SHAPE =
  /^(gh[pousr]_|github_pat_|glpat-|sk-|sk_live_|rk_live_|xox[abpr]-|AKIA|ASIA|AIza|ya29\.|eyJ[\w-]+\.[\w-]+\.)[\w\-.=/+]{8,}/;
/** `--api-key=…`, `--token=…` in an argument. */
const SECRET_FLAG = /^(--?[\w-]*(?:token|secret|password|api[-_]?key|key)[\w-]*=)(.+)$/i;
/** A value that is already a variable (or empty) is no literal secret. */
const VARIABLE_ONLY = /^(?:\s*\$\{[^}]+\}\s*)*$/;

function literal(value: unknown): value is string {
  return typeof value === 'string' && !VARIABLE_ONLY.test(value);
}

/** The secrets written in clear in the entries about to be imported (name → raw entry). */
export function literalSecrets(entries: Record<string, unknown>): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  for (const [server, entry] of Object.entries(entries)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const id = (name: string) => `${sanitizeServerId(server)}-${name.replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
    for (const [k, v] of Object.entries(record(e.env)))
      if (literal(v) && (SECRET_NAME.test(k) || TOKEN_SHAPE.test(v)))
        found.push({ server, field: `env ${k}`, path: ['env', k], inputId: id(k), prefix: '' });
    for (const [k, v] of Object.entries(record(e.headers))) {
      if (!literal(v) || !(SECRET_NAME.test(k) || TOKEN_SHAPE.test(v))) continue;
      const scheme = /^(Bearer|Basic|Token)\s+/i.exec(v)?.[0] ?? '';
      if (literal(v.slice(scheme.length)))
        found.push({ server, field: `headers ${k}`, path: ['headers', k], inputId: id(k), prefix: scheme });
    }
    if (literal(e.clientSecret))
      found.push({ server, field: 'clientSecret', path: ['clientSecret'], inputId: id('clientSecret'), prefix: '' });
    for (const param of urlSecretParams(e.url))
      found.push({ server, field: `url ${param}`, path: ['url'], inputId: id(param), prefix: '', param });
    const args: unknown[] = Array.isArray(e.args) ? e.args : [];
    args.forEach((a, i) => {
      if (!literal(a)) return;
      const flag = SECRET_FLAG.exec(a);
      const before = args[i - 1];
      const afterFlag = typeof before === 'string' && /^--?[\w-]*(token|secret|password|key)$/i.test(before);
      if (flag ? literal(flag[2]) : afterFlag || TOKEN_SHAPE.test(a))
        found.push({ server, field: `args ${i}`, path: ['args', i], inputId: id(`arg${i}`), prefix: flag?.[1] ?? '' });
    });
  }
  return found;
}

/** `?api_key=…&token=…`: the query parameters of a URL whose name says secret or whose value looks like a token. */
function urlSecretParams(url: unknown): string[] {
  if (typeof url !== 'string') return [];
  const query = /\?([^#]*)/.exec(url)?.[1] ?? '';
  const params = query
    .split('&')
    .map(pair => /^([^=]+)=(.*)$/.exec(pair))
    .filter((m): m is RegExpExecArray => !!m && literal(m[2]) && (SECRET_NAME.test(m[1]) || TOKEN_SHAPE.test(m[2])))
    .map(m => m[1]);
  return [...new Set(params)];
}

/** The URL with the value of query parameter `param` replaced. */
function withParam(url: string, param: string, value: string): string {
  return url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (all, sep: string, name: string) =>
    name === param ? `${sep}${name}=${value}` : all,
  );
}

/**
 * The entries with each secret replaced by `${input:<server>-<name>}` (a header keeps its scheme, a flag
 * its name), and the password inputs that declare them. The entries given are not changed.
 */
export function withInputPlaceholders(
  entries: Record<string, unknown>,
  secrets: readonly LiteralSecret[],
): { entries: Record<string, unknown>; inputs: InputDefinition[] } {
  const out = structuredClone(entries) as Record<string, Record<string, unknown>>;
  const inputs: InputDefinition[] = [];
  for (const s of secrets) {
    let holder: Record<string | number, unknown> = out[s.server];
    for (const step of s.path.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
    const key = s.path[s.path.length - 1];
    const placeholder = `\${input:${s.inputId}}`;
    holder[key] = s.param ? withParam(holder[key] as string, s.param, placeholder) : `${s.prefix}${placeholder}`;
    inputs.push({ id: s.inputId, type: 'promptString', description: `${s.server}: ${s.field}`, password: true });
  }
  return { entries: out, inputs };
}

/**
 * The entries with each secret replaced by an environment reference, `${NAME}` (an env entry keeps its
 * own name; a header or an argument gets `<SERVER>_<NAME>`), and the variables the user must set.
 */
export function withEnvironmentReferences(
  entries: Record<string, unknown>,
  secrets: readonly LiteralSecret[],
): { entries: Record<string, unknown>; variables: string[] } {
  const out = structuredClone(entries) as Record<string, Record<string, unknown>>;
  const variables: string[] = [];
  for (const s of secrets) {
    const name = (s.path[0] === 'env' ? String(s.path[1]) : s.inputId).toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
    let holder: Record<string | number, unknown> = out[s.server];
    for (const step of s.path.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
    holder[s.path[s.path.length - 1]] = `${s.prefix}\${${name}}`;
    if (!variables.includes(name)) variables.push(name);
  }
  return { entries: out, variables };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

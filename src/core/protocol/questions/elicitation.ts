// Questions from servers (`elicitation/create`, form and URL modes), the pure part: the schema becomes
// steps, typed text becomes values (field-values.ts), the user's choice becomes the spec's action (accept with content,
// decline, cancel). Everything a server sends here is hostile: the number of fields is capped, text is
// cut and made inert, URLs other than https (or http to this computer) are refused. Asking the user,
// and when a question may be asked at all, is questions.ts's.
import * as l10n from '@vscode/l10n';
import * as z from 'zod/v4';
import { lazy } from '../../lazy.js';
import { type Choice, type Field, type FieldValue, type Parsed, inert } from './field-values.js';

export type { Choice, Field, FieldValue, Parsed, StringFormat } from './field-values.js';
export { checkAnswers, checkValue, fieldHint, formatName, inert } from './field-values.js';

/** Fields one question may ask for; a larger schema is refused (the user would not page through it). */
export const MAX_FIELDS = 30;
const MAX_MESSAGE_CHARS = 500;
const MAX_CHOICES = 100;
const MAX_URL_CHARS = 2000;

interface Common {
  /** The server that asks (its configured name). */
  server: string;
  /** The request of ours it asks during, e.g. `prompt "review"`: which run the question belongs to. */
  during: string;
  /** The server's message, inert and cut. */
  message: string;
  /** Aborted when the server withdraws the question or the request it belongs to ends. */
  signal: AbortSignal;
}
export interface FormQuestion extends Common {
  mode: 'form';
  fields: Field[];
}
/** `elicitationId`: a 2025-era URL question's id; a 2026-07-28 one has none (its server correlates through requestState). */
export interface UrlQuestion extends Common {
  mode: 'url';
  /** What is opened. */
  url: string;
  /** The same address for people: one safe line (the label rule: `$(…)` draws no icon), whole. */
  shownUrl: string;
  /** Its host, for people (the label rule). */
  host: string;
  elicitationId?: string;
  warning?: string;
  /**
   * Set when the server answered our request with -32042 (URL elicitation required): the request is retried
   * once the user has finished on the page. Resolves when the server says so (`notifications/elicitation/complete`);
   * the asker answers accept only after that or after the user says they are done.
   */
  finished?: Promise<void>;
}
export type Question = FormQuestion | UrlQuestion;

export type QuestionAnswer =
  { action: 'accept'; values?: Record<string, FieldValue> } | { action: 'decline' } | { action: 'cancel' };
/** The UI (quick input, terminal, `--answer` flags) that answers one question. */
export type Asker = (question: Question) => Promise<QuestionAnswer>;

const SECRET_NAME = /pass(word|wd|phrase)?|secret|token|api[-_]?key|credential|pin$/i;

/** A field or argument name like password, token, secret, api_key: its values are never kept or shown. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Password-like: `format: password` (not in the spec, but servers send it) or a name/title like password, token, secret. */
export function isSecret(name: string, schema: { format?: unknown; title?: unknown }): boolean {
  return (
    schema.format === 'password' || looksSecret(name) || (typeof schema.title === 'string' && looksSecret(schema.title))
  );
}

/** The question schemas: a property of a form, the form and the URL question. */
const schemas = lazy(() => {
  const num = z.number().optional();
  const count = z.number().int().min(0).optional();
  const text = z.string().optional();
  const Titled = z.object({ const: z.string(), title: z.string().optional() });
  const Property = z.looseObject({
    type: z.string(),
    title: text,
    description: text,
    format: text,
    minLength: count,
    maxLength: count,
    minimum: num,
    maximum: num,
    minItems: count,
    maxItems: count,
    enum: z.array(z.string()).optional(),
    enumNames: z.array(z.string()).optional(),
    oneOf: z.array(Titled).optional(),
    anyOf: z.array(Titled).optional(),
    items: z
      .looseObject({
        type: text,
        enum: z.array(z.string()).optional(),
        anyOf: z.array(Titled).optional(),
        oneOf: z.array(Titled).optional(),
      })
      .optional(),
    default: z.unknown().optional(),
  });
  const FormParams = z.looseObject({
    mode: z.literal('form').optional(),
    message: z.string(),
    requestedSchema: z.looseObject({
      type: z.literal('object'),
      properties: z.record(z.string(), z.unknown()),
      required: z.array(z.string()).optional(),
    }),
  });
  const UrlParams = z.looseObject({
    mode: z.literal('url'),
    message: z.string(),
    url: z.string(),
    elicitationId: z.string().optional(),
  });
  return { Property, FormParams, UrlParams };
});

/** The question's fields, one step each, or why the schema cannot be asked (the server gets that as an error). */
export function parseFields(
  server: string,
  schema: { properties: Record<string, unknown>; required?: string[] },
): Parsed<Field[]> {
  const names = Object.keys(schema.properties);
  if (names.length > MAX_FIELDS)
    return { problem: l10n.t('{0} asked for {1} fields; at most {2} are asked', server, names.length, MAX_FIELDS) };
  const required = new Set(schema.required ?? []);
  const fields: Field[] = [];
  for (const name of names) {
    const parsed = schemas().Property.safeParse(schema.properties[name]);
    const field = parsed.success ? toField(name, parsed.data, required.has(name)) : undefined;
    if (!field)
      return {
        problem: l10n.t(
          '{0} asked for field "{1}" of a kind that cannot be asked (only text, numbers, yes/no and choices)',
          server,
          inert(name),
        ),
      };
    fields.push(field);
  }
  return { ok: fields };
}

type PropertySchema = z.infer<ReturnType<typeof schemas>['Property']>;

function choices(
  list: Array<{ const: string; title?: string }> | undefined,
  values?: string[],
  names?: string[],
): Choice[] | undefined {
  const out = list
    ? list.map(c => ({ value: c.const, label: inert(c.title ?? c.const) }))
    : values?.map((v, i) => ({ value: v, label: inert(names?.[i] ?? v) }));
  return out && out.length > 0 && out.length <= MAX_CHOICES ? out : undefined;
}

function toField(name: string, p: PropertySchema, required: boolean): Field | undefined {
  const base = {
    name,
    label: inert(p.title ?? name),
    description: p.description === undefined ? undefined : inert(p.description, MAX_MESSAGE_CHARS),
    required,
    secret: isSecret(name, p),
  };
  switch (p.type) {
    case 'string': {
      const options = choices(p.oneOf ?? p.anyOf, p.enum, p.enumNames);
      if (p.enum || p.oneOf || p.anyOf) {
        if (!options) return undefined;
        return {
          ...base,
          kind: 'enum',
          choices: options,
          default: typeof p.default === 'string' && options.some(c => c.value === p.default) ? p.default : undefined,
        };
      }
      const format = (['email', 'uri', 'date', 'date-time'] as const).find(f => f === p.format);
      return {
        ...base,
        kind: 'string',
        format,
        minLength: p.minLength,
        maxLength: p.maxLength,
        default: typeof p.default === 'string' ? p.default : undefined,
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: p.type,
        minimum: p.minimum,
        maximum: p.maximum,
        default: typeof p.default === 'number' && Number.isFinite(p.default) ? p.default : undefined,
      };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
    case 'array': {
      const options = choices(p.items?.anyOf ?? p.items?.oneOf, p.items?.enum);
      if (!options) return undefined;
      const defaults = Array.isArray(p.default)
        ? p.default.filter((v): v is string => typeof v === 'string' && options.some(c => c.value === v))
        : undefined;
      return {
        ...base,
        kind: 'multi',
        choices: options,
        minItems: p.minItems,
        maxItems: p.maxItems,
        default: defaults,
      };
    }
    default:
      return undefined;
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A URL question's address, or why it is refused: only `https:`, or `http:` to this computer; no credentials in it. */
export function checkUrl(
  server: string,
  url: string,
): Parsed<{ url: string; shownUrl: string; host: string; warning?: string }> {
  const shown = inert(url, 200);
  if (url.length > MAX_URL_CHARS)
    return { problem: l10n.t('{0} asked to open an address longer than {1} characters', server, MAX_URL_CHARS) };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: l10n.t('{0} asked to open "{1}", which is not a valid address', server, shown) };
  }
  const loopback = LOOPBACK.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
  if (!(u.protocol === 'https:' || (u.protocol === 'http:' && loopback))) {
    return {
      problem: l10n.t(
        '{0} asked to open "{1}": only https: addresses (or http: to this computer) are opened',
        server,
        shown,
      ),
    };
  }
  if (u.username || u.password)
    return { problem: l10n.t('{0} asked to open an address with a user name or password in it', server) };
  // Punycode or a mixed-script name can imitate a known host: say what the host really is.
  const warning = u.hostname.split('.').some(label => label.startsWith('xn--'))
    ? l10n.t('the host name is internationalised (punycode {0}): check that it is the site you expect', u.hostname)
    : undefined;
  return { ok: { url: u.href, shownUrl: inert(u.href, MAX_URL_CHARS), host: inert(u.host), warning } };
}

/** One line for the transcript and the log: what was asked and answered; password-like values as ***. */
export function describeAnswer(question: Question, answer: QuestionAnswer): string {
  const asked =
    question.mode === 'url'
      ? l10n.t('{0} asked: {1} (open {2})', question.server, question.message, question.host)
      : l10n.t('{0} asked: {1}', question.server, question.message);
  if (answer.action === 'decline') return l10n.t('{0} — you declined', asked);
  if (answer.action === 'cancel') return l10n.t('{0} — cancelled', asked);
  if (question.mode === 'url') return l10n.t('{0} — you agreed to open it', asked);
  const values = question.fields
    .filter(f => answer.values?.[f.name] !== undefined)
    .map(f => {
      const v = answer.values![f.name];
      const shown = f.secret
        ? '***'
        : Array.isArray(v)
          ? v.map(x => f.choices?.find(c => c.value === x)?.label ?? x).join(', ')
          : f.kind === 'enum'
            ? (f.choices?.find(c => c.value === v)?.label ?? String(v))
            : inert(String(v));
      return `${f.label} = ${shown}`;
    });
  return l10n.t('{0} — you answered: {1}', asked, values.length ? values.join('; ') : l10n.t('(nothing)'));
}

/** The same line as markdown for the chat transcript: every markdown and HTML character escaped, so nothing in it renders. */
export function describeAnswerMarkdown(question: Question, answer: QuestionAnswer): string {
  return describeAnswer(question, answer).replace(/[\\`*_{}[\]()#+\-.!<>|~&$:]/g, c => `\\${c}`);
}

/** The question as the server sent it (`elicitation/create` params, or a 2026 input request), or why it cannot be asked. `modern`: a 2026-07-28 connection, where a URL question has no elicitationId. */
export function toQuestion(
  server: string,
  during: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  modern: boolean,
): Parsed<Question> {
  if (params.mode === 'url') {
    const p = schemas().UrlParams.safeParse(params);
    if (!p.success || (p.data.elicitationId === undefined && !modern))
      return { problem: l10n.t('{0} asked a URL question without a message, url or elicitationId', server) };
    const checked = checkUrl(server, p.data.url);
    if ('problem' in checked) return checked;
    return {
      ok: {
        mode: 'url',
        server,
        during,
        message: inert(p.data.message, MAX_MESSAGE_CHARS),
        signal,
        elicitationId: p.data.elicitationId,
        ...checked.ok,
      },
    };
  }
  const p = schemas().FormParams.safeParse(params);
  if (!p.success)
    return { problem: l10n.t('{0} asked a question without a message or a requestedSchema of type object', server) };
  const fields = parseFields(server, p.data.requestedSchema);
  if ('problem' in fields) return fields;
  return {
    ok: { mode: 'form', server, during, message: inert(p.data.message, MAX_MESSAGE_CHARS), signal, fields: fields.ok },
  };
}

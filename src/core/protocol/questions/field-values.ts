// The fields of a server's form question and what a typed or chosen text means for one: its value, or
// why it is not valid (required, a choice, a number in range, a length, a format), checked again before
// an answer is sent. The part of elicitation.ts every asker (quick input, terminal, flags) uses.
import * as l10n from '@vscode/l10n';
import { labelText } from '../../label.js';

const MAX_TITLE_CHARS = 100;

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
export type FieldValue = string | number | boolean | string[];
export interface Choice {
  value: string;
  label: string;
}

export interface Field {
  name: string;
  /** What the user sees: the schema's title or the property name, inert and cut. */
  label: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  required: boolean;
  /** Its value never shows in a transcript or log line (format password, or a name like token). */
  secret: boolean;
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  choices?: Choice[];
  default?: FieldValue;
}

/** One line of server text, safe anywhere: the shared label rule (core/label.ts), cut to `max`. */
export function inert(text: string, max = MAX_TITLE_CHARS): string {
  return labelText(text, max);
}

export type Parsed<T> = { ok: T } | { problem: string };

/** What a typed (or chosen) text means for a field: its value, `undefined` for an empty optional one, or why it is not valid. */
export function checkValue(field: Field, input: string | string[] | boolean): Parsed<FieldValue | undefined> {
  if (field.kind === 'multi') return checkChoices(field, input);
  if (typeof input === 'boolean')
    return field.kind === 'boolean' ? { ok: input } : { problem: l10n.t('{0} is not a yes/no question', field.label) };
  const raw = Array.isArray(input) ? input.join(',') : input;
  const value = field.kind === 'string' ? raw : raw.trim();
  if (value === '') return field.required ? { problem: l10n.t('{0} is required', field.label) } : { ok: undefined };
  switch (field.kind) {
    case 'boolean': {
      if (/^(true|yes|y|1|on)$/i.test(value)) return { ok: true };
      if (/^(false|no|n|0|off)$/i.test(value)) return { ok: false };
      return { problem: l10n.t('{0} takes yes or no', field.label) };
    }
    case 'enum': {
      const choice = field.choices?.find(c => c.value === value || c.label === value);
      return choice
        ? { ok: choice.value }
        : { problem: l10n.t('"{0}" is not one of the choices for {1}', inert(value), field.label) };
    }
    case 'number':
    case 'integer': {
      const n = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { problem: l10n.t('{0} takes a number', field.label) };
      if (field.kind === 'integer' && !Number.isInteger(n))
        return { problem: l10n.t('{0} takes a whole number', field.label) };
      if (field.minimum !== undefined && n < field.minimum)
        return { problem: l10n.t('{0} is at least {1}', field.label, field.minimum) };
      if (field.maximum !== undefined && n > field.maximum)
        return { problem: l10n.t('{0} is at most {1}', field.label, field.maximum) };
      return { ok: n };
    }
    case 'string': {
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength)
        return { problem: l10n.t('{0} needs at least {1} characters', field.label, field.minLength) };
      if (field.maxLength !== undefined && length > field.maxLength)
        return { problem: l10n.t('{0} takes at most {1} characters', field.label, field.maxLength) };
      if (field.format && !formatOk(field.format, value))
        return { problem: l10n.t('{0} must be {1}', field.label, formatName(field.format)) };
      return { ok: value };
    }
  }
}

function formatOk(format: StringFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:/i.test(value) && URL.canParse(value);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && validDate(value);
    case 'date-time':
      return (
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) &&
        validDate(value.slice(0, 10))
      );
  }
}

function validDate(ymd: string): boolean {
  const d = new Date(`${ymd}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
}

/** "an email address", for messages and hints. */
export function formatName(format: StringFormat): string {
  switch (format) {
    case 'email':
      return l10n.t('an email address');
    case 'uri':
      return l10n.t('a URI (scheme:…)');
    case 'date':
      return l10n.t('a date (YYYY-MM-DD)');
    case 'date-time':
      return l10n.t('a date and time (YYYY-MM-DDThh:mm:ssZ)');
  }
}

/** The limits a field has, for a step's hint: "3–20 characters", "1–10", "choose 1–2". */
export function fieldHint(field: Field): string {
  const parts: string[] = [];
  const range = (a?: number, b?: number) =>
    a !== undefined && b !== undefined ? `${a}–${b}` : a !== undefined ? `≥ ${a}` : b !== undefined ? `≤ ${b}` : '';
  if (field.kind === 'string') {
    const r = range(field.minLength, field.maxLength);
    if (r) parts.push(l10n.t('{0} characters', r));
    if (field.format) parts.push(formatName(field.format));
  } else if (field.kind === 'number' || field.kind === 'integer') {
    parts.push(field.kind === 'integer' ? l10n.t('whole number') : l10n.t('number'));
    const r = range(field.minimum, field.maximum);
    if (r) parts.push(r);
  } else if (field.kind === 'multi') {
    const r = range(field.minItems, field.maxItems);
    if (r) parts.push(l10n.t('choose {0}', r));
  }
  return parts.join(', ');
}

/** The accepted values checked once more against the fields (a UI bug must not send what the schema refuses). */
export function checkAnswers(fields: Field[], values: Record<string, FieldValue>): Parsed<Record<string, FieldValue>> {
  const content: Record<string, FieldValue> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined) {
      if (f.required) return { problem: l10n.t('{0} is required', f.label) };
      continue;
    }
    const checked = checkValue(f, typeof v === 'number' ? String(v) : v);
    if ('problem' in checked) return checked;
    if (checked.ok !== undefined) content[f.name] = checked.ok;
  }
  return { ok: content };
}

/** A multi-select field's text (comma-separated) or chosen values: the values, in the field's terms. */
function checkChoices(field: Field, input: string | string[] | boolean): Parsed<string[] | undefined> {
  const picked = Array.isArray(input)
    ? input
    : String(input)
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
  const values: string[] = [];
  for (const p of picked) {
    const choice = field.choices?.find(c => c.value === p || c.label === p);
    if (!choice) return { problem: l10n.t('"{0}" is not one of the choices for {1}', inert(p), field.label) };
    if (!values.includes(choice.value)) values.push(choice.value);
  }
  if (!values.length && !field.required && !field.minItems) return { ok: undefined };
  if (field.minItems !== undefined && values.length < field.minItems)
    return { problem: l10n.t('choose at least {0} for {1}', field.minItems, field.label) };
  if (field.maxItems !== undefined && values.length > field.maxItems)
    return { problem: l10n.t('choose at most {0} for {1}', field.maxItems, field.label) };
  if (!values.length) return { problem: l10n.t('{0} is required', field.label) };
  return { ok: values };
}

// The settings as the Settings editor shows them (#17): every mcpPrompts.* setting has a markdown
// description (through package.nls, so it is translated) holding an example that is valid for it, an
// explicit scope, its own order, and a description for each enum value, in English and every translation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

interface Schema {
  type?: string;
  enum?: unknown[];
  enumDescriptions?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  markdownDescription?: string;
  description?: string;
  scope?: string;
  order?: number;
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Schema> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const settings = Object.entries(manifest.contributes.configuration.properties);
const languages = fs
  .readdirSync(root)
  .filter(f => /^package\.nls(\..+)?\.json$/.test(f))
  .map(f => ({ file: f, nls: JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')) as Record<string, string> }));

/** The text behind a `%key%` reference, which every shown string must be. */
function shown(ref: string | undefined, nls: Record<string, string>, what: string): string {
  const key = /^%([^%]+)%$/.exec(ref ?? '')?.[1];
  assert.ok(key, `${what} is a %key% of package.nls.json: ${ref}`);
  assert.ok(nls[key]?.trim(), `${what}: ${key}`);
  return nls[key];
}

/** Whether `value` fits `schema` (the parts of JSON schema our settings use). */
function fits(value: unknown, schema: Schema): boolean {
  if (schema.enum) return schema.enum.includes(value);
  if (schema.type === 'boolean') return typeof value === 'boolean';
  if (schema.type === 'string') return typeof value === 'string';
  if (schema.type === 'number') return typeof value === 'number';
  if (schema.type === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
    return Object.entries(value).every(([k, v]) => {
      const sub = schema.properties?.[k] ?? schema.additionalProperties ?? true;
      return sub === true || (typeof sub === 'object' && fits(v, sub));
    });
  }
  return true;
}

/** The examples of a description: `"key": value` in a code span or a ```json block, parsed. */
function examples(text: string, key: string): unknown[] {
  const snippets = [
    ...[...text.matchAll(/```jsonc?\n([\s\S]*?)```/g)].map(m => m[1]),
    ...[...text.matchAll(/`("mcpPrompts\.[^`]+)`/g)].map(m => m[1]),
  ];
  return snippets
    .filter(s => s.trimStart().startsWith(`"${key}"`))
    .map(s => (JSON.parse(`{${s}}`) as Record<string, unknown>)[key]);
}

test('every setting has a markdown description with an example valid for it, in every language', () => {
  assert.ok(settings.length >= 4);
  for (const [key, schema] of settings)
    for (const { file, nls } of languages) {
      const text = shown(schema.markdownDescription, nls, `${file} ${key} markdownDescription`);
      const found = examples(text, key);
      assert.ok(found.length, `${file}: ${key} shows an example ("${key}": … in a code span or json block)`);
      for (const value of found) assert.ok(fits(value, schema), `${file}: ${key} example ${JSON.stringify(value)}`);
    }
});

test('every enum value has its description, in every language', () => {
  for (const [key, schema] of settings) {
    if (!schema.enum) continue;
    assert.equal(schema.enumDescriptions?.length, schema.enum.length, `${key} enumDescriptions`);
    for (const { file, nls } of languages)
      schema.enumDescriptions.forEach((d, i) => shown(d, nls, `${file} ${key} = ${String(schema.enum![i])}`));
  }
});

test('every setting has an explicit scope and its own order', () => {
  const scopes = ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'];
  for (const [key, schema] of settings) {
    assert.ok(scopes.includes(schema.scope ?? ''), `${key} scope ${schema.scope}`);
    assert.equal(typeof schema.order, 'number', `${key} order`);
  }
  const orders = settings.map(([, s]) => s.order);
  assert.equal(new Set(orders).size, orders.length, `orders are distinct: ${orders.join(', ')}`);
});

test('the scopes follow the security model', () => {
  const scope = (key: string) => manifest.contributes.configuration.properties[key].scope;
  // Servers: a workspace, and a folder of a multi-root workspace, may define servers, which wait for trust
  // and consent (VS Code withholds the workspace value in Restricted Mode). `resource` is the scope that
  // admits folder values (`window` drops them: config-origins.e2e.js) and still applies the user's own
  // value in a remote window (`machine-overridable` does not: trust.e2e.js runs in such a window).
  assert.equal(scope('mcpPrompts.servers'), 'resource');
  // Discovery reads files in the home folder: only the user can switch it on, never a workspace.
  assert.equal(scope('mcpPrompts.discovery'), 'application');
  // A workspace value that decides where server content goes (straight to the agent) waits for trust.
  const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of ['mcpPrompts.servers', 'mcpPrompts.chat.afterGet'])
    assert.ok(restricted.includes(key), `${key} is a restricted configuration`);
});

// A server's form question, as core/protocol/questions/elicitation.ts parsed and bounded it, written back as the
// spec's restricted elicitation schema for the gateway's own client: every label and description is the
// inert, cut text the parse made, so the client shows nothing of the server's that the extension would not.
// The spec's schema has no secret fields: a password-like field reaches the client as plain text.
import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import type { Field } from '../core/protocol/questions/elicitation.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
type Property = RequestedSchema['properties'][string];

export function questionSchema(fields: readonly Field[]): RequestedSchema {
  const properties: Record<string, Property> = {};
  for (const f of fields) properties[f.name] = property(f);
  const required = fields.filter(f => f.required).map(f => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function property(f: Field): Property {
  const common = { title: f.label, ...(f.description !== undefined && { description: f.description }) };
  const choices = (f.choices ?? []).map(c => ({ const: c.value, title: c.label }));
  switch (f.kind) {
    case 'boolean':
      return { type: 'boolean', ...common, ...(typeof f.default === 'boolean' && { default: f.default }) };
    case 'number':
    case 'integer':
      return {
        type: f.kind,
        ...common,
        ...(f.minimum !== undefined && { minimum: f.minimum }),
        ...(f.maximum !== undefined && { maximum: f.maximum }),
        ...(typeof f.default === 'number' && { default: f.default }),
      };
    case 'enum':
      return {
        type: 'string',
        ...common,
        oneOf: choices,
        ...(typeof f.default === 'string' && { default: f.default }),
      };
    case 'multi':
      return {
        type: 'array',
        ...common,
        items: { anyOf: choices },
        ...(f.minItems !== undefined && { minItems: f.minItems }),
        ...(f.maxItems !== undefined && { maxItems: f.maxItems }),
        ...(Array.isArray(f.default) && { default: f.default }),
      };
    case 'string':
      return {
        type: 'string',
        ...common,
        ...(f.format !== undefined && { format: f.format }),
        ...(f.minLength !== undefined && { minLength: f.minLength }),
        ...(f.maxLength !== undefined && { maxLength: f.maxLength }),
        ...(typeof f.default === 'string' && { default: f.default }),
      };
  }
}

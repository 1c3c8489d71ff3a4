// Stands in for the client package's runtime shims (`@modelcontextprotocol/client/_shims`, which pull
// in ajv) in our bundles (see esbuild.mjs). The SDK uses ajv only to check tool results against their
// output schemas; a prompts client never lists or calls tools, and ajv is about 150 KB of the bundle.
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';

/** Node has no CORS: a TypeError from fetch is a real network failure (the SDK's Node shim says the same). */
export const CORS_IS_POSSIBLE = false;

export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error('JSON Schema validation is not bundled in MCP Prompts');
  }
}

/** Passed to every Client so the SDK never constructs the default (ajv) validator. */
export const noToolValidation: jsonSchemaValidator = {
  getValidator() {
    throw new Error('MCP Prompts does not validate tool output schemas');
  },
};

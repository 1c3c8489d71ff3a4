// Stands in for the SDK's ajv-based validator module in our bundles (see esbuild.mjs). The SDK uses
// it only to check tool results against their output schemas; a prompts client never lists or calls
// tools, and ajv with its formats is about 130 KB of a 410 KB bundle.
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export class AjvJsonSchemaValidator {
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

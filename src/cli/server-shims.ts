// Stands in for the server package's runtime shims (`@modelcontextprotocol/server/_shims`, which pull in ajv)
// in dist/server.js (see esbuild.mjs). The SDK's server uses ajv to check tool output schemas (the gateway's
// tools declare none) and pushed elicitation answers (the gateway asks through input_required, whose answers
// core/protocol/questions/questions.ts checks); the gateway passes `noSchemaValidation` so the default is never built.
import process from 'node:process';
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';

export { process };

export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error('JSON Schema validation is not bundled in mcp-prompts serve');
  }
}

/** Passed to the gateway's Server so the SDK never constructs the default (ajv) validator. */
export const noSchemaValidation: jsonSchemaValidator = {
  getValidator() {
    throw new Error('mcp-prompts serve does not validate JSON Schemas');
  },
};

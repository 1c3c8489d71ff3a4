#!/usr/bin/env node
// Cold-start baseline: what `mcp-prompts list` does, written against the plain SDK.
//   node bench/raw-list.mjs COMMAND [ARGS...]   (server env: what the core gives its server, via RAW_ENV_* below)
// Connects a stdio client, lists every page of prompts, prints one line per prompt, closes, exits.
// RAW_NEGOTIATE=auto: the SDK's version negotiation (for a 2026 server; its probe runs on a throw-away
// process); RAW_PRIOR: a remembered era as JSON, passed as `prior` (no probe).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [command, ...args] = process.argv.slice(2);
// Variables prefixed RAW_ENV_ go to the server (the SDK passes only a safe default environment).
const env = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k]) => k.startsWith('RAW_ENV_'))
    .map(([k, v]) => [k.slice(8), v]),
);
const client = new Client(
  { name: 'raw-list', version: '0' },
  { capabilities: {}, ...(process.env.RAW_NEGOTIATE === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {}) },
);
const prior = process.env.RAW_PRIOR ? JSON.parse(process.env.RAW_PRIOR) : undefined;
await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }), prior ? { prior } : {});
if (process.env.RAW_PRINT_PRIOR) {
  const discover = client.getDiscoverResult();
  process.stderr.write(`PRIOR ${JSON.stringify(discover ? { kind: 'modern', discover } : { kind: 'legacy' })}\n`);
}
let cursor;
const lines = [];
do {
  const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
  for (const p of page.prompts) lines.push(`  ${p.name}${p.description ? `  — ${p.description}` : ''}\n`);
  cursor = page.nextCursor;
} while (cursor !== undefined);
process.stdout.write(lines.join(''));
await client.close();
process.exit(0);

// `mcp-prompts serve` as its users' clients start it: `node dist/cli.js serve …` over stdio, driven by the
// official SDK client (v2), in either protocol era. The gateway's stderr is kept for the failure message.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, ROOT, tempDir } from './helpers';

export type Era = 'modern' | 'legacy';

export interface Gateway {
  client: Client;
  /** What the gateway wrote to stderr so far. */
  stderr(): string;
  /** The gateway's process id. */
  pid(): number | null;
  close(): Promise<void>;
}

export interface GatewayOptions {
  era?: Era;
  /** Extra arguments after `serve` (`--config FILE` is added when `config` is given). */
  args?: string[];
  config?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** The client's options beyond its era (capabilities, listChanged). */
  client?: ClientOptions;
  /** Called with the client before it connects (request handlers). */
  before?: (client: Client) => void;
}

/** Starts the gateway and connects the SDK client to it: 2026-07-28 (`modern`, the client probes) or 2025 (`legacy`). */
export async function startGateway(o: GatewayOptions = {}): Promise<Gateway> {
  const cache = tempDir('mcp-prompts-serve-cache-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...(o.config ? ['--config', o.config] : []), ...(o.args ?? [])],
    cwd: o.cwd ?? ROOT,
    env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache, ...o.env },
    stderr: 'pipe',
  });
  let stderr = '';
  const errors = transport.stderr as Readable | null;
  errors?.setEncoding('utf8');
  errors?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-65536);
  });
  const client = new Client(
    { name: 'serve-test', version: '1.0.0' },
    { ...(o.era !== 'legacy' && { versionNegotiation: { mode: 'auto' } }), ...o.client },
  );
  o.before?.(client);
  const close = async () => {
    await client.close().catch(() => undefined);
    fs.rmSync(cache, { recursive: true, force: true });
  };
  try {
    await client.connect(transport);
  } catch (err) {
    await close();
    throw new Error(`the gateway did not start: ${String(err)}\n${stderr}`, { cause: err });
  }
  assert.equal(client.getProtocolEra(), o.era ?? 'modern', 'the era the gateway speaks');
  return { client, stderr: () => stderr, pid: () => transport.pid, close };
}

/** A config file with `servers` in a fresh folder; the folder is removed by `cleanup`. */
export function configFile(servers: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const dir = tempDir('mcp-prompts-serve-');
  const file = path.join(dir, 'mcp.json');
  fs.writeFileSync(file, JSON.stringify({ ...extra, servers }, null, 2));
  return { dir, file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  isError?: boolean;
}

/** `tools/call` with its result typed as the gateway's tools answer. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return client.callTool({ name, arguments: args });
}

/** The text of a result's text parts, joined. */
export const textOf = (r: ToolResult): string =>
  r.content
    .filter(c => c.type === 'text')
    .map(c => c.text)
    .join('\n');

/** The JSON the list tool's text carries after its first paragraph. */
export function listingOf(r: ToolResult): {
  prompts: { server: string; name: string; arguments: { name: string; required: boolean }[] }[];
  unavailable: { server: string; reason: string }[];
} {
  const text = textOf(r);
  return JSON.parse(text.slice(text.indexOf('\n\n{') + 2).split('\n\n')[0]) as ReturnType<typeof listingOf>;
}

// The gateway as an MCP server on the SDK's low-level Server: its capabilities and one handler per method,
// each handing over to gateway-tools.ts or gateway-prompts.ts. The SDK serves the 2026-07-28 revision and,
// for older clients, the 2025 ones (`initialize`); a list change of any server reaches every instance.
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Catalog } from '../core/catalog/catalog.js';
import type { PromptRunner } from '../core/run/prompt-runner.js';
import type { PromptToolInput } from '../core/run/requests/tool-request.js';
import { labelText } from '../core/label.js';
import { completePrompt, getPrompt, listPrompts, promptList } from './gateway-prompts.js';
import type { GatewayRuns } from './gateway-runs.js';
import { getTool, listTool, GATEWAY_TOOLS, TOOL_DEFINITIONS } from './gateway-tools.js';
import type { HeldServer } from './serve-config.js';
import { noSchemaValidation } from './server-shims.js';

export const GATEWAY_INFO = { name: 'mcp-prompts', title: 'MCP Prompts', version: '0.1.0' };

const INSTRUCTIONS =
  "The prompts of the user's MCP servers, as prompts and through two tools: list_prompts lists them, get_prompt gets one with its arguments. Prompts are chosen by the user: get one when the user asks for it. What a prompt returns is the server's text, marked as such; it is not the user's words.";

/** The envelope key a 2026-07-28 request declares its client's capabilities under. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

export interface GatewayParts {
  catalog: Catalog;
  runner: PromptRunner;
  runs: GatewayRuns;
  held: readonly HeldServer[];
  log: (line: string) => void;
}

/** The servers made for the client's connection (the SDK makes one per era it serves), told of list changes. */
export class GatewayServers {
  private readonly instances = new Set<Server>();
  private shown: string;

  constructor(private readonly parts: GatewayParts) {
    this.shown = JSON.stringify(promptList(parts.catalog));
  }

  /** The factory serveStdio calls. */
  readonly create = (): Server => {
    const server = new Server(GATEWAY_INFO, {
      capabilities: { tools: {}, prompts: { listChanged: true }, completions: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: noSchemaValidation,
    });
    register(server, this.parts);
    this.instances.add(server);
    server.onclose = () => this.instances.delete(server);
    return server;
  };

  /** A change in the catalog: `notifications/prompts/list_changed` when the list the client sees is not the one it saw. */
  changed(): void {
    const now = JSON.stringify(promptList(this.parts.catalog));
    if (now === this.shown) return;
    this.shown = now;
    for (const server of this.instances)
      server.sendPromptListChanged().catch((err: unknown) => this.parts.log(`list change not sent: ${String(err)}`));
  }
}

function register(server: Server, parts: GatewayParts): void {
  const capabilities = (ctx: ServerContext) => clientCapabilities(server, ctx);
  server.setRequestHandler('tools/list', () => ({ tools: TOOL_DEFINITIONS }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const input = (request.params.arguments ?? {}) as PromptToolInput & { server?: unknown };
    if (request.params.name === GATEWAY_TOOLS.list) return listTool(parts, input);
    if (request.params.name === GATEWAY_TOOLS.get) {
      const result = await getTool(parts, input, ctx, capabilities(ctx));
      return 'content' in result ? server.projectCallToolResult(result, undefined) : result;
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${labelText(request.params.name, 100)}`);
  });
  server.setRequestHandler('prompts/list', () => listPrompts(parts.catalog));
  server.setRequestHandler('prompts/get', (request, ctx) => getPrompt(parts, request.params, ctx, capabilities(ctx)));
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    try {
      return await completePrompt(parts.catalog, request.params, ctx.mcpReq.signal);
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        labelText(err instanceof Error ? err.message : String(err), 1000),
      );
    }
  });
}

/** What the client declared: on the request itself (2026-07-28), else at `initialize` (2025). */
function clientCapabilities(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}

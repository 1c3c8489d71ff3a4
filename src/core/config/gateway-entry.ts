// The entry that adds `mcp-prompts serve` to another MCP client, in that client's own format: the text
// **MCP Prompts: Copy Gateway Configuration** copies and docs/cli.md shows. Strings are written as JSON
// strings, which TOML's basic strings read the same way, so no path or argument can break out of its place.

/** The clients the gateway's entry is written for. */
export const GATEWAY_CLIENTS = ['copilot', 'codex', 'claude', 'vscode'] as const;
export type GatewayClient = (typeof GATEWAY_CLIENTS)[number];

/** How the gateway starts: Node, the CLI's file, and the server file it serves (none: the user's own files). */
export interface GatewayLaunch {
  node: string;
  cli: string;
  config?: string;
}

export interface GatewayEntry {
  /** Where the entry goes, as the client's documentation names it. */
  file: string;
  language: 'json' | 'toml';
  text: string;
}

/** The name the gateway has in every client's file. */
export const GATEWAY_NAME = 'mcp-prompts';

export function gatewayEntry(client: GatewayClient, launch: GatewayLaunch): GatewayEntry {
  const args = [launch.cli, 'serve', ...(launch.config ? ['--config', launch.config] : [])];
  const stdio = { command: launch.node, args };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  switch (client) {
    case 'copilot':
      // Copilot CLI's "local" type is stdio; `tools` names the tools it may offer the model.
      return {
        file: '~/.copilot/mcp-config.json',
        language: 'json',
        text: json({ mcpServers: { [GATEWAY_NAME]: { type: 'local', ...stdio, tools: ['*'] } } }),
      };
    case 'codex':
      // `prompt`: Codex asks before every call of the gateway's tools, whatever its default for MCP tools.
      return {
        file: '~/.codex/config.toml',
        language: 'toml',
        text: [
          `[mcp_servers.${GATEWAY_NAME}]`,
          `command = ${JSON.stringify(launch.node)}`,
          `args = [${args.map(a => JSON.stringify(a)).join(', ')}]`,
          'default_tools_approval_mode = "prompt"',
          '',
        ].join('\n'),
      };
    case 'claude':
      return {
        file: '.mcp.json',
        language: 'json',
        text: json({ mcpServers: { [GATEWAY_NAME]: { type: 'stdio', ...stdio } } }),
      };
    case 'vscode':
      return {
        file: 'mcp.json',
        language: 'json',
        text: json({ servers: { [GATEWAY_NAME]: { type: 'stdio', ...stdio } } }),
      };
  }
}

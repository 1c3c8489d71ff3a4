// mcpPrompts.copyGatewayConfiguration: the entry that adds `mcp-prompts serve` (docs/cli.md) to another
// MCP client — Copilot CLI, Codex, Claude Code or VS Code — in that client's format, with the absolute path
// of the CLI and the profile's mcp.json, so the client gets the prompts of the servers set up here. The
// .vsix does not carry the CLI (the npm package does): the CLI next to the running extension is used when
// it is there (an extension run from its sources), else the `mcp-prompts` installed on the PATH.
import * as vscode from 'vscode';
import fs from 'node:fs';
import { GATEWAY_CLIENTS, gatewayEntry, type GatewayClient } from '../core/config/gateway-entry';
import { envValue, type Platform } from '../core/platform';
import { profileMcpJson } from '../workspace/config-sources';

export interface GatewayParts {
  extensionUri: vscode.Uri;
  globalStorageUri: vscode.Uri;
  platform: Platform;
}

type ClientItem = vscode.QuickPickItem & { client: GatewayClient };

function clientItems(): ClientItem[] {
  const items: Record<GatewayClient, Omit<ClientItem, 'client'>> = {
    copilot: { label: 'GitHub Copilot CLI', description: '~/.copilot/mcp-config.json' },
    codex: { label: 'OpenAI Codex', description: '~/.codex/config.toml' },
    claude: { label: 'Claude Code', description: vscode.l10n.t('.mcp.json in the project') },
    vscode: { label: 'VS Code', description: vscode.l10n.t('mcp.json (MCP: Open User Configuration)') },
  };
  return GATEWAY_CLIENTS.map(client => ({ ...items[client], client }));
}

export async function copyGatewayConfiguration(p: GatewayParts): Promise<void> {
  const picked = await vscode.window.showQuickPick(clientItems(), {
    title: vscode.l10n.t('Copy Gateway Configuration'),
    placeHolder: vscode.l10n.t('Which MCP client should get the prompts of your servers?'),
  });
  if (!picked) return;
  const cli = await findCli(p);
  if (!cli) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The gateway is the mcp-prompts command line, which this installation of MCP Prompts does not include. Install it with "npm install --global" in the folder you built MCP Prompts from, then run this command again.',
      ),
    );
    return;
  }
  const entry = gatewayEntry(picked.client, { node: 'node', cli, config: await profileFile(p.globalStorageUri) });
  await vscode.env.clipboard.writeText(entry.text);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Copied the MCP Prompts gateway for {0}: add it to {1}.', picked.label, entry.file),
  );
}

/** The profile's mcp.json, when it exists: the servers the gateway then serves. */
async function profileFile(globalStorageUri: vscode.Uri): Promise<string | undefined> {
  const file = profileMcpJson(globalStorageUri);
  if (!file) return undefined;
  return vscode.workspace.fs.stat(file).then(
    () => file.fsPath,
    () => undefined,
  );
}

/** dist/cli.js beside the running extension, else the one the `mcp-prompts` command on the PATH runs. */
async function findCli(p: GatewayParts): Promise<string | undefined> {
  const beside = vscode.Uri.joinPath(p.extensionUri, 'dist', 'cli.js');
  if (beside.scheme === 'file' && fs.existsSync(beside.fsPath)) return beside.fsPath;
  const { path, os } = p.platform;
  const dirs = (envValue(p.platform, 'PATH') ?? '').split(os === 'win32' ? ';' : ':').filter(Boolean);
  for (const dir of dirs) {
    // npm links the bin to the package's dist/cli.js; on Windows it writes a .cmd beside node_modules.
    const linked = path.join(dir, 'mcp-prompts');
    const real = await fs.promises.realpath(linked).catch(() => undefined);
    if (real && /[\\/]dist[\\/]cli\.js$/.test(real)) return real;
    const packaged = path.join(dir, 'node_modules', 'mcp-prompts', 'dist', 'cli.js');
    if (os === 'win32' && fs.existsSync(path.join(dir, 'mcp-prompts.cmd')) && fs.existsSync(packaged)) return packaged;
  }
  return undefined;
}

// Where the browser returns after an OAuth sign-in: our loopback listener, at the address the browser
// reaches it by (VS Code's port mapping: the same on the desktop, a forwarded one in remote and web
// windows). Started only when a configured server speaks HTTP.
import * as vscode from 'vscode';
import type { Catalog } from '../core/catalog/catalog';
import type { ServerDefinition } from '../core/config/config';
import { OAuthCallbackServer, StoredOAuthProvider } from '../core/protocol/transport/oauth';
import { signInCallback } from '../core/catalog/sign-in';

export class OAuthLoopback implements vscode.Disposable {
  private redirect?: string;
  private server?: OAuthCallbackServer;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly secrets: vscode.SecretStorage,
  ) {}

  async prepare(): Promise<void> {
    if (this.redirect) return;
    this.server ??= new OAuthCallbackServer(signInCallback(this.catalog()));
    const port = await this.server.start();
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${port}/oauth/callback`));
    this.redirect = external.toString(true);
  }

  /** The OAuth provider of an HTTP server, once the listener runs; undefined for stdio or before. */
  provider(def: ServerDefinition): StoredOAuthProvider | undefined {
    if (def.transport.type === 'stdio' || !this.redirect) return undefined;
    const key = `${def.scope ?? 'user'}:${def.id}:${def.transport.url}`;
    return new StoredOAuthProvider(key, this.secrets, this.redirect, {
      server: def.name,
      clientName: 'MCP Prompts for VS Code',
      clientId: def.transport.clientId,
      clientSecret: def.transport.clientSecret,
    });
  }

  dispose(): void {
    this.server?.dispose();
  }
}

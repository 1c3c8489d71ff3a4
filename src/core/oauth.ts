// OAuth for HTTP servers that answer 401 with OAuth metadata: the SDK runs the protocol (discovery,
// dynamic client registration, PKCE, token exchange and refresh); this provider only keeps what it
// hands us in a secret store (SecretStorage in the extension) and, instead of opening a browser by
// itself, records the authorization URL so the user can choose to sign in.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The subset of vscode.SecretStorage we need. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set when the server needs the user to sign in: open it in a browser. */
  authorizationUrl?: URL;
  private readonly key: string;
  private currentState?: string;

  /**
   * @param serverKey identifies the server (its id and URL: tokens never follow a changed URL)
   * @param redirect where the authorization server sends the browser back (our URI handler)
   */
  constructor(serverKey: string, private readonly store: SecretStore, private readonly redirect: string, private readonly clientName = 'MCP Prompts') {
    this.key = `oauth:${serverKey}`;
  }

  get redirectUrl(): string { return this.redirect; }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** A fresh value per authorization; the redirect must bring it back (checked by `matchesState`). */
  async state(): Promise<string> {
    this.currentState = randomBytes(16).toString('hex');
    await this.store.store(`${this.key}:state`, this.currentState);
    return this.currentState;
  }

  async matchesState(state: string | null): Promise<boolean> {
    return !!state && state === (this.currentState ?? (await this.store.get(`${this.key}:state`)));
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const info = await this.read<OAuthClientInformationMixed & { redirect_uris?: string[] }>('client');
    // A registration for another redirect (e.g. another window's callback) cannot be used: register again.
    if (info?.redirect_uris && !info.redirect_uris.includes(this.redirect)) return undefined;
    return info;
  }

  saveClientInformation(info: OAuthClientInformationMixed): Promise<void> { return this.write('client', info); }
  tokens(): Promise<OAuthTokens | undefined> { return this.read<OAuthTokens>('tokens'); }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.authorizationUrl = undefined;
    await this.write('tokens', tokens);
  }

  redirectToAuthorization(url: URL): void { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string): Promise<void> { return this.write('verifier', verifier); }

  async codeVerifier(): Promise<string> {
    const verifier = await this.read<string>('verifier');
    if (!verifier) throw new Error('no PKCE code verifier: start the sign-in again');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const parts = scope === 'all' ? ['client', 'tokens', 'verifier', 'state'] : scope === 'discovery' ? [] : [scope];
    for (const p of parts) await this.store.delete(`${this.key}:${p}`);
  }

  private async read<T>(part: string): Promise<T | undefined> {
    const text = await this.store.get(`${this.key}:${part}`);
    if (text === undefined) return undefined;
    try { return JSON.parse(text) as T; } catch { return undefined; }
  }

  private async write(part: string, value: unknown): Promise<void> {
    await this.store.store(`${this.key}:${part}`, JSON.stringify(value));
  }
}

export interface CallbackAnswer { ok: boolean; message: string }

/**
 * The redirect target of a sign-in (RFC 8252 loopback redirect): a listener on 127.0.0.1 that takes
 * `/oauth/callback?code&state` and answers the browser with a plain-text page. The extension hands the
 * browser this address through VS Code's port mapping, so it also works for remote and web windows.
 */
export class OAuthCallbackServer {
  private server?: Server;
  private started?: Promise<number>;

  constructor(private readonly onCallback: (query: URLSearchParams) => Promise<CallbackAnswer>) {}

  /** Starts listening (once); resolves the port. */
  start(): Promise<number> {
    this.started ??= new Promise((resolve, reject) => {
      const server = (this.server = createServer((req, res) => void this.handle(req, res)));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      server.unref();
    });
    return this.started;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/oauth/callback') {
      res.writeHead(404).end();
      return;
    }
    let answer: CallbackAnswer;
    try {
      answer = await this.onCallback(url.searchParams);
    } catch (err) {
      answer = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    // Plain text: nothing from the query or the server is ever rendered as HTML.
    res.writeHead(answer.ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(answer.message);
  }

  dispose(): void {
    this.server?.close();
  }
}

// OAuth for HTTP servers that answer 401 with OAuth metadata: the SDK runs the protocol (discovery,
// dynamic client registration, PKCE, token exchange and refresh); this provider only keeps what it
// hands us in a secret store (SecretStorage in the extension) and, instead of opening a browser by
// itself, records the authorization URL so the user can choose to sign in.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as l10n from '@vscode/l10n';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthClientMetadata,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/config.js';
import { PromptError, describeCause, issuerRefusal } from '../../errors.js';
import { Emitter, type Disposable, type Event } from '../../events.js';
import { createHttpTransport } from './transports.js';

/** The subset of vscode.SecretStorage we need. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  /** A key changed, here or in another window (vscode.SecretStorage): a sign-out elsewhere is seen here. */
  onDidChange?: Event<{ key: string }>;
}

export interface OAuthProviderOptions {
  /** The server's name, for messages. */
  server?: string;
  /** `client_name` in dynamic registration. */
  clientName?: string;
  /** A client registered beforehand with the authorization server (`clientId` / `clientSecret` in the entry). */
  clientId?: string;
  clientSecret?: string;
}

/**
 * Why the browser must not be sent to `url`, or undefined when it may: only `https:`, and `http:` to
 * this computer (a local authorization server, RFC 8252). The address comes from the server's metadata,
 * so `file:`, `vscode:`, `command:` and the like would let a hostile server act inside VS Code.
 */
export function refuseAuthorizationUrl(url: URL | string, server: string): PromptError | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(String(url));
  } catch {
    parsed = undefined;
  }
  if (parsed && (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname))))
    return undefined;
  const shown = printable(String(url).split('?')[0]);
  return new PromptError(
    l10n.t(
      '{0}: the sign-in address {1} is refused: only https addresses (or http to this computer) are opened',
      server,
      shown,
    ),
    'server',
    server,
  );
}

/** Text from a server or a redirect, for one line of a message or log: no control characters, bounded. */
export function printable(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set when the server needs the user to sign in: open it in a browser. */
  authorizationUrl?: URL;
  private readonly key: string;
  private currentState?: string;
  private readonly server: string;
  private readonly signedOutEmitter = new Emitter<void>();
  /**
   * The user's sign-in is gone: signed out (here, or in another window: the tokens left the store),
   * the SDK dropped the tokens (a refresh refused), or the server asks for a new sign-in (a revoked
   * token). What was kept for that user (a `private` prompt list) goes with it.
   */
  readonly onSignedOut = this.signedOutEmitter.event;
  private readonly watch?: Disposable;
  /** The SDK's answers to refused requests and the code exchange, one after the other (see exclusive). */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @param serverKey identifies the server (its id and URL: tokens never follow a changed URL)
   * @param redirect where the authorization server sends the browser back (our URI handler)
   */
  constructor(
    serverKey: string,
    private readonly store: SecretStore,
    private readonly redirect: string,
    private readonly options: OAuthProviderOptions = {},
  ) {
    // Tokens of one pre-registered client are not handed to another.
    this.key = `oauth:${serverKey}${options.clientId ? `:${options.clientId}` : ''}`;
    this.server = options.server ?? serverKey;
    this.watch = store.onDidChange?.(e => {
      if (e.key !== `${this.key}:tokens`) return;
      void Promise.resolve(store.get(e.key)).then(
        left => left === undefined && this.signedOutEmitter.fire(),
        () => undefined,
      );
    });
  }

  dispose(): void {
    this.watch?.dispose();
    this.signedOutEmitter.dispose();
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'MCP Prompts',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** A fresh value per authorization; the redirect must bring it back (checked by `consumeState`). */
  async state(): Promise<string> {
    this.currentState = randomBytes(16).toString('hex');
    await this.store.store(`${this.key}:state`, this.currentState);
    return this.currentState;
  }

  /**
   * True once for the state of the sign-in under way, then never again: a replayed redirect (a copied
   * URL, the browser's history) must not run a second code exchange. The browser is back: that sign-in
   * is over, and the next request the server refuses may start another.
   */
  async consumeState(state: string | null): Promise<boolean> {
    const expected = this.currentState ?? (await this.store.get(`${this.key}:state`));
    if (!state || state !== expected) return false;
    this.currentState = undefined;
    this.authorizationUrl = undefined;
    await this.store.delete(`${this.key}:state`);
    return true;
  }

  /**
   * Runs the SDK's answer to a request the server refused with 401 (`answer`: discovery, registration,
   * a refresh or a new sign-in), so that a server never has two sign-ins at once: a request refused
   * while another's answer is under way waits for it and is retried with the tokens it got; one refused
   * while a sign-in waits for the browser waits for that sign-in too (it fails as "sign in needed").
   */
  async answerUnauthorized(answer: () => Promise<void>): Promise<void> {
    const refused = (await this.tokens())?.access_token;
    return this.exclusive(async () => {
      const now = (await this.tokens())?.access_token;
      if (now !== undefined && now !== refused) return;
      if (this.authorizationUrl) throw new UnauthorizedError();
      await answer();
    });
  }

  /** Runs `work` (an answer to a 401, a code exchange) after the ones before it have ended. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * RFC 9207: a redirect that names its authorization server (`iss`) must name the one we sent the
   * browser to, and must name it when that server's metadata promises to; otherwise the answer may come
   * from another server the user signs in to (mix-up attack).
   */
  async refuseIssuer(iss: string | null): Promise<PromptError | undefined> {
    const metadata = (await this.discoveryState())?.authorizationServerMetadata as
      { issuer?: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
    if (typeof metadata?.issuer !== 'string' || iss === metadata.issuer) return undefined;
    if (iss === null && metadata.authorization_response_iss_parameter_supported !== true) return undefined;
    return iss === null
      ? new PromptError(
          l10n.t(
            '{0}: the sign-in was refused: the answer does not name its authorization server (iss), which {1} promises',
            this.server,
            printable(metadata.issuer),
          ),
          'server',
          this.server,
        )
      : new PromptError(
          l10n.t(
            '{0}: the sign-in was refused: the answer comes from {1}, not from {2}',
            this.server,
            printable(iss),
            printable(metadata.issuer),
          ),
          'server',
          this.server,
        );
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.options.clientId)
      return {
        client_id: this.options.clientId,
        ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}),
      };
    const info = await this.read<StoredOAuthClientInformation & { redirect_uris?: string[] }>('client');
    // A registration for another redirect (e.g. another window's callback) cannot be used: register again.
    if (info?.redirect_uris && !info.redirect_uris.includes(this.redirect)) return undefined;
    return info;
  }

  /** Stored whole, the SDK's `issuer` stamp included: it binds the registration to its authorization server. */
  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client comes from the configuration each time; its secret is not copied to the store.
    if (!this.options.clientId) await this.write('client', info);
  }

  /** As saved, `issuer` stamp unchanged: the SDK reads tokens stamped for another authorization server as absent. */
  tokens(): Promise<StoredOAuthTokens | undefined> {
    return this.read<StoredOAuthTokens>('tokens');
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.authorizationUrl = undefined;
    await this.write('tokens', tokens);
    // Discovery is kept only from the start of a sign-in to its end; later refreshes discover afresh,
    // so a server that moves its authorization server is followed as before.
    await this.store.delete(`${this.key}:discovery`);
  }

  /**
   * The SDK's discovery (where the protected-resource metadata was, which authorization server, its
   * metadata), kept for the redirect leg: that leg cannot see the 401's `resource_metadata` URL again.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.write('discovery', state);
  }
  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.read<OAuthDiscoveryState>('discovery');
  }

  /** The server wants a (new) sign-in: whatever sign-in there was is over. */
  redirectToAuthorization(url: URL): void {
    this.signedOutEmitter.fire();
    const refused = refuseAuthorizationUrl(url, this.server);
    if (refused) {
      this.authorizationUrl = undefined;
      throw refused;
    }
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): Promise<void> {
    return this.write('verifier', verifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.read<string>('verifier');
    if (!verifier) throw new Error('no PKCE code verifier: start the sign-in again');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const parts = scope === 'all' ? ['client', 'tokens', 'verifier', 'state', 'discovery'] : [scope];
    if (scope === 'all') {
      // A sign-in under way is over too: its redirect is no longer ours.
      this.currentState = undefined;
      this.authorizationUrl = undefined;
    }
    for (const p of parts) await this.store.delete(`${this.key}:${p}`);
    if (parts.includes('tokens')) this.signedOutEmitter.fire();
  }

  private async read<T>(part: string): Promise<T | undefined> {
    const text = await this.store.get(`${this.key}:${part}`);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  private async write(part: string, value: unknown): Promise<void> {
    await this.store.store(`${this.key}:${part}`, JSON.stringify(value));
  }
}

export interface CallbackAnswer {
  ok: boolean;
  message: string;
}

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
    res
      .writeHead(answer.ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
      .end(answer.message);
  }

  dispose(): void {
    this.server?.close();
  }
}

/**
 * The browser came back with an authorization code: exchange it for tokens on the server's transport
 * (`sse`: the legacy one it was reached on). `callback` is the redirect's whole query, so the SDK checks
 * its `iss` (RFC 9207) too.
 */
export async function exchangeAuthorizationCode(
  def: ServerDefinition,
  oauth: StoredOAuthProvider | undefined,
  sse: boolean,
  callback: URLSearchParams,
): Promise<void> {
  const t = def.transport;
  if (t.type === 'stdio' || !oauth)
    throw new PromptError(l10n.t('{0} does not use OAuth', def.name), 'input', def.name);
  const transport = createHttpTransport(t, sse || t.type === 'sse' ? 'sse' : 'http', oauth);
  try {
    // Not beside an answer to a 401 of the same server: that one may write the PKCE verifier read here.
    await oauth.exclusive(() => transport.finishAuth(callback));
  } catch (err) {
    throw (
      issuerRefusal(err, def.name) ??
      new PromptError(l10n.t('{0}: signing in failed: {1}', def.name, describeCause(err)), 'server', def.name)
    );
  }
}

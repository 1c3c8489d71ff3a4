// One MCP server: an SDK Client over a transport, its lifecycle (lazy start, stop, restart with
// backoff after crashes) and the handful of requests a prompts client makes. Requests are parsed
// leniently here so one malformed item never costs the whole answer; callers validate per item.
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { Implementation, PriorDiscovery, ServerCapabilities, Transport } from '@modelcontextprotocol/client';
import * as z from 'zod/v4';
import * as l10n from '@vscode/l10n';
import type { ServerDefinition } from '../config/config.js';
import { Emitter, type Event } from '../events.js';
import { PromptError, describeCause, issuerRefusal, toPromptError } from '../errors.js';
import { LogSink, hideValues, rateLimited, redactingLog, silentLog } from '../log.js';
import { noToolValidation } from './no-json-schema.js';
import type { StoredOAuthProvider } from './oauth.js';
import { EraMemory, defaultEraMemory, eraKey } from './eras.js';
import { DEFAULT_RESTART, RestartPolicy, afterCrash } from './backoff.js';
import {
  MAX_STDIO_MESSAGE_BYTES,
  TransportTrace,
  createHttpTransport,
  createStdioTransport,
  shouldFallBackToSse,
} from './transports.js';
import { type Asker, NO_QUESTIONS, createQuestionClient, registerQuestions } from './elicitation.js';
import { watchStderr } from './stderr-cause.js';
import { cleanServerInfo, describeServerInfo, sameServerInfo, serverInfoOfResult } from './server-identity.js';

export type ServerStatus = 'idle' | 'starting' | 'running' | 'error' | 'stopped';

export interface ServerInfo {
  protocolVersion?: string;
  serverInfo?: Implementation;
  capabilities?: ServerCapabilities;
  instructions?: string;
  /** `stdio`, `http` (Streamable HTTP) or `sse` (legacy), as actually used. */
  transport: 'stdio' | 'http' | 'sse';
  /** `modern` (2026-07-28 and later, no initialize handshake) or `legacy` (2024-11-05 … 2025-11-25). */
  era?: 'modern' | 'legacy';
}

export interface ConnectionOptions {
  clientInfo?: Implementation;
  log?: LogSink;
  defaultCwd?: string;
  /** Default per-request timeout when the server entry sets none. */
  timeoutMs?: number;
  /** Restart policy after crashes; `false` disables automatic restarts (the CLI). */
  restart?: false | RestartPolicy;
  /** Values to hide in the trace (header tokens, secret inputs). */
  secrets?: string[];
  /** OAuth for HTTP servers that ask for it (401 with OAuth metadata); tokens live in its store. */
  oauth?: StoredOAuthProvider;
  /** Where each server's protocol era is remembered between connects (default: one store per process). */
  eras?: EraMemory;
  /** Longest wait for the answer to the version probe (`server/discover`); default PROBE_TIMEOUT_MS. */
  probeTimeoutMs?: number;
  /** The least time a start (spawn, version probe, initialize) gets, whatever the per-request timeout; default MIN_STARTUP_MS. */
  minStartupMs?: number;
  /** Answers the server's questions (elicitation); without it every question is cancelled. */
  questions?: Asker;
  /**
   * Stop the server after this many ms without a request or a hold (see hold()); 0 or none: never. Read
   * each time the wait starts, so a changed setting applies from the next request on.
   */
  idleStopMs?: () => number;
}

export type { RestartPolicy };
export { DEFAULT_RESTART };
export const DEFAULT_TIMEOUT_MS = 30000;
/**
 * The version probe's bound. A stdio server silent for this long is taken for an old one and gets the
 * 2025 initialize handshake; over HTTP the connect is retried once with that handshake.
 */
export const PROBE_TIMEOUT_MS = 5000;
/**
 * A per-request `timeout` of 1 s is about answers, not about booting a process: on a loaded machine a
 * stdio server's spawn, the probe's throw-away sibling and initialize take longer than that. A start
 * gets max(timeout, this); its message names the bound it actually waited for.
 */
export const MIN_STARTUP_MS = 10000;
/** Suggestions kept from one completion answer (the spec's maximum). */
const MAX_COMPLETIONS = 100;
const MAX_PROTOCOL_WARNINGS_PER_SECOND = 50;
const END_SESSION_TIMEOUT_MS = 2000;
/** A dropped `subscriptions/listen` stream is opened again after this pause, this many times per connection. */
const RELISTEN_DELAY_MS = 500;
const MAX_LISTEN_DROPS = 20;

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Ask this client only (the one a listing began on): when the server was stopped meanwhile, the request
   * fails as cancelled instead of starting the server again.
   */
  client?: Client;
  /** false: a question the server asks meanwhile is cancelled, not shown (completion in the chat input). */
  questions?: false;
}

/** A client that finished its handshake, with the traced transport under it and its kind as used. */
interface Started {
  client: Client;
  traced: TransportTrace;
  kind: ServerInfo['transport'];
}

const LooseListResult = z.looseObject({ prompts: z.array(z.unknown()).optional(), nextCursor: z.string().optional() });
const LooseGetResult = z.looseObject({ description: z.string().optional(), messages: z.array(z.unknown()).optional() });
const LooseCompleteResult = z.looseObject({
  completion: z.looseObject({
    values: z.array(z.unknown()),
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  }),
});
const LooseReadResult = z.looseObject({ contents: z.array(z.unknown()) });

export type RawListResult = z.infer<typeof LooseListResult>;
export type RawGetResult = z.infer<typeof LooseGetResult>;
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export class ServerConnection {
  private client?: Client;
  /** The client's transport: ending an HTTP session needs it. */
  private transport?: TransportTrace;
  private connecting?: Promise<Client>;
  private _status: ServerStatus = 'idle';
  private _error?: PromptError;
  private _info?: ServerInfo;
  private crashes: number[] = [];
  /** Set after too many crashes: no automatic restart until the user restarts the server. */
  private gaveUp = false;
  private restartTimer?: NodeJS.Timeout;
  private generation = 0;
  /** Set by dispose(): a request still under way (a catalog's listing) must not start the server again. */
  private disposed = false;
  /** Aborts an initialize under way when the server is stopped meanwhile. */
  private connectAbort?: AbortController;
  /** What its stderr says went wrong (stderr-cause.ts), or why the SDK dropped the connection: explains a close. */
  private closeCause?: string;
  /** Requests under way and holds (an open argument input, a question): while any, no idle stop. */
  private busy = 0;
  private idleTimer?: NodeJS.Timeout;
  /** Stopped while running: list_changed went unheard, so the next start announces a change (the catalog lists again). */
  private missedChanges = false;
  private readonly statusEmitter = new Emitter<ServerStatus>();
  private readonly promptsChangedEmitter = new Emitter<void>();
  private readonly infoEmitter = new Emitter<ServerInfo>();
  readonly onStatus = this.statusEmitter.event;
  /** Fired when a 2026-07-28 result names the server differently (`_meta` serverInfo) than before. */
  readonly onInfo = this.infoEmitter.event;
  /** Fired on `notifications/prompts/list_changed` and after a reconnect (the list may differ). */
  readonly onPromptsChanged = this.promptsChangedEmitter.event;
  readonly log: LogSink;
  /** What the SDK reports about a server's messages (unknown progress tokens, stray responses, garbage): the server decides how often. */
  private readonly protocolWarning: (line: string) => void;

  constructor(
    readonly def: ServerDefinition,
    private readonly options: ConnectionOptions = {},
  ) {
    // Password inputs substituted into this definition never reach a log line or an error message.
    this.log = redactingLog(options.log ?? silentLog, def.secrets ?? []);
    this.protocolWarning = rateLimited(
      MAX_PROTOCOL_WARNINGS_PER_SECOND,
      line => this.log.warn(line),
      () =>
        this.log.warn(
          l10n.t(
            '{0}: more than {1} protocol errors a second: the rest of this second is not shown',
            def.name,
            MAX_PROTOCOL_WARNINGS_PER_SECOND,
          ),
        ),
    );
  }

  private hide(error: PromptError): PromptError {
    const secrets = this.def.secrets ?? [];
    if (!secrets.some(s => s && error.message.includes(s))) return error;
    return new PromptError(hideValues(error.message, secrets), error.kind, error.server, error.code);
  }

  get status(): ServerStatus {
    return this._status;
  }
  get error(): PromptError | undefined {
    return this._error;
  }
  get info(): ServerInfo | undefined {
    return this._info;
  }
  get label(): string {
    return this.def.name;
  }

  /** Connects if needed; concurrent callers share one attempt. */
  async connect(): Promise<Client> {
    if (this.disposed) throw this.stoppedError();
    if (this.client) return this.client;
    if (!this.connecting) {
      const generation = ++this.generation;
      this.connecting = this.open(generation).finally(() => {
        this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  /** One start: the handshake on the configured transport, then the client is adopted (or the failure recorded). */
  private async open(generation: number): Promise<Client> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.setStatus('starting');
    const abort = (this.connectAbort = new AbortController());
    this.closeCause = undefined;
    const timeout = Math.max(
      this.def.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      this.options.minStartupMs ?? MIN_STARTUP_MS,
    );
    const t = this.def.transport;
    this.log.info(
      l10n.t('Starting {0} ({1})', this.def.name, t.type === 'stdio' ? [t.command, ...t.args].join(' ') : t.url),
    );
    const eras = this.options.eras ?? defaultEraMemory;
    const key = eraKey(this.def);
    try {
      const started = await this.handshake(timeout, abort.signal, eras.get(key));
      const { client, traced, kind } = started;
      if (generation !== this.generation) {
        await endSession(traced);
        await client.close().catch(() => undefined);
        throw this.stoppedError();
      }
      const era = client.getProtocolEra();
      const discover = client.getDiscoverResult();
      // Next time: no probe (a modern server is adopted with no round trip, an old one gets initialize at once).
      if (kind !== 'sse')
        eras.set(key, era === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' });
      this.adopt(started, abort);
      return client;
    } catch (err) {
      // A remembered era may be stale (the server was replaced): probe again next time.
      eras.delete(key);
      throw this.startFailed(err, generation, timeout);
    }
  }

  /**
   * Trace + initialize on the configured transport, with its fallbacks: over HTTP a silent version probe
   * gets the 2025 handshake, and a refused Streamable HTTP gets legacy SSE.
   */
  private async handshake(timeout: number, signal: AbortSignal, prior: PriorDiscovery | undefined): Promise<Started> {
    const t = this.def.transport;
    if (t.type === 'stdio') return this.attempt('stdio', timeout, signal, prior);
    // HTTP+SSE predates the 2026 revision: no probe.
    if (t.type === 'sse') return this.attempt('sse', timeout, signal, { kind: 'legacy' });
    try {
      return await this.attempt('http', timeout, signal, prior);
    } catch (err) {
      if (isProbeTimeout(err)) {
        // Silence over HTTP is no proof of an old server, but the 2025 handshake is the one every server answers.
        this.log.info(
          l10n.t(
            '{0} did not answer the protocol version probe within {1} s; using the 2025 handshake',
            this.def.name,
            this.probeTimeout(timeout) / 1000,
          ),
        );
        return this.attempt('http', timeout, signal, { kind: 'legacy' });
      }
      if (!shouldFallBackToSse(err)) throw err;
      this.log.info(
        l10n.t('{0}: Streamable HTTP refused ({1}); trying legacy SSE', this.def.name, String((err as Error).message)),
      );
      return this.attempt('sse', timeout, signal, { kind: 'legacy' });
    }
  }

  /** A fresh traced transport of the given kind and an initialized client on it. */
  private async attempt(
    kind: ServerInfo['transport'],
    timeout: number,
    signal: AbortSignal,
    prior: PriorDiscovery | undefined,
  ): Promise<Started> {
    const traced = this.trace(this.createTransport(kind));
    return { client: await this.initialize(traced, timeout, signal, prior), traced, kind };
  }

  private createTransport(kind: ServerInfo['transport']): Transport {
    const t = this.def.transport;
    if (t.type === 'stdio') {
      return createStdioTransport(
        t,
        this.log,
        this.def.defaultCwd ?? this.options.defaultCwd,
        watchStderr(this.def.secrets ?? [], cause => (this.closeCause = cause)),
      );
    }
    return createHttpTransport(t, kind === 'sse' ? 'sse' : 'http', this.options.oauth);
  }

  /** The started client becomes this connection's: info, close hook, status, change stream. */
  private adopt({ client, traced, kind }: Started, abort: AbortController): void {
    this._info = {
      protocolVersion: client.getNegotiatedProtocolVersion(),
      serverInfo: cleanServerInfo(client.getServerVersion()),
      capabilities: client.getServerCapabilities(),
      instructions: client.getInstructions(),
      transport: kind,
      era: client.getProtocolEra(),
    };
    this.log.info(
      l10n.t(
        '{0} is running: {1}, protocol {2}',
        this.def.name,
        this._info.serverInfo ? describeServerInfo(this._info.serverInfo) : '?',
        this._info.protocolVersion ?? '?',
      ),
    );
    this.client = client;
    this.transport = traced;
    // The SDK keeps its abort listener on the initialize request: firing the signal at stop would
    // send notifications/cancelled for a request answered long ago.
    if (this.connectAbort === abort) this.connectAbort = undefined;
    // Protocol owns transport.onclose (it fails pending requests there); its own onclose hook is ours.
    client.onclose = () => this.handleClose(client);
    this._error = undefined;
    this.setStatus('running');
    this.listenForChanges(client, 0);
    if (this.missedChanges) {
      this.missedChanges = false;
      this.promptsChangedEmitter.fire();
    }
    this.armIdleStop();
  }

  /**
   * Keeps the server from an idle stop until the returned function is called: a run holds its server
   * while the argument input is open. Starts nothing; releasing twice releases once.
   */
  hold(): () => void {
    this.busy++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy--;
      this.armIdleStop();
    };
  }

  /** Starts the wait for an idle stop when the server runs and nothing holds it. */
  private armIdleStop(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const ms = this.options.idleStopMs?.() ?? 0;
    const client = this.client;
    if (this.busy > 0 || !client || !(ms > 0)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.busy > 0 || this.client !== client) return;
      this.log.info(
        l10n.t('{0} had no requests for {1} s: stopped until it is needed again', this.def.name, Math.round(ms / 1000)),
      );
      void this.stop();
    }, ms);
    this.idleTimer.unref?.();
  }

  /** The error a failed start throws; recorded as the server's error unless it was stopped meanwhile. */
  private startFailed(err: unknown, generation: number, timeout: number): PromptError {
    // Stopped meanwhile: the abort is ours, not the server's fault.
    if (generation !== this.generation) return this.stoppedError();
    const error =
      this.signInNeeded(err) ??
      this.hide(
        toPromptError(err, this.def.name, l10n.t('startup'), { closeCause: this.closeCause, timeoutMs: timeout }),
      );
    this._error = error;
    this.log.error(error.message);
    this.setStatus('error');
    return error;
  }

  private stoppedError(): PromptError {
    return new PromptError(l10n.t('{0} was stopped', this.def.name), 'cancelled', this.def.name);
  }

  /** The SDK stopped at "the user must sign in" (at initialize, or on a later request the server guards). */
  private signInNeeded(err: unknown): PromptError | undefined {
    return err instanceof UnauthorizedError && this.authorizationUrl
      ? new PromptError(l10n.t('{0} needs you to sign in', this.def.name), 'server', this.def.name, 401)
      : undefined;
  }

  private trace(transport: Transport): TransportTrace {
    return new TransportTrace(transport, this.log, [...(this.options.secrets ?? []), ...(this.def.secrets ?? [])]);
  }

  private probeTimeout(timeout: number): number {
    return Math.min(timeout, this.options.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
  }

  /** `prior`: the era remembered from the last connect; without it the client probes (`auto`). */
  private async initialize(
    traced: TransportTrace,
    timeout: number,
    signal: AbortSignal,
    prior: PriorDiscovery | undefined,
  ): Promise<Client> {
    // Questions (elicitation) only: we never answer sampling or roots, and the SDK replies to such requests with an error.
    const client = createQuestionClient(this.options.clientInfo ?? { name: 'mcp-prompts', version: '0.1.0' }, {
      capabilities: { elicitation: { form: {}, url: {} } },
      jsonSchemaValidator: noToolValidation,
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: this.probeTimeout(timeout) } },
    });
    const ask = this.options.questions;
    // A question waiting for the user keeps the server from an idle stop (it may come outside any request of ours).
    const held: Asker | undefined =
      ask &&
      (async question => {
        const release = this.hold();
        try {
          return await ask(question);
        } finally {
          release();
        }
      });
    registerQuestions(client, this.def.name, held, this.log, v => traced.hide(v));
    client.onerror = e => {
      this.protocolWarning(`${this.def.name}: ${e.message}`);
      // The SDK closes the connection after an oversized message; say so instead of "closed".
      if (/ReadBuffer exceeded maximum size/.test(e.message))
        this.closeCause = l10n.t('it sent a message larger than {0} MB', MAX_STDIO_MESSAGE_BYTES / 1048576);
    };
    client.setNotificationHandler('notifications/prompts/list_changed', () => this.promptsChangedEmitter.fire());
    try {
      await client.connect(traced.transport, { timeout, signal, ...(prior ? { prior } : {}) });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    return client;
  }

  /**
   * A 2026-07-28 server tells of list changes only on a `subscriptions/listen` stream; the SDK hands its
   * notifications to the same handler a 2025 server's reach. The stream is opened again when the server
   * drops it ('remote'), not after our own close or the server's deliberate end.
   */
  private listenForChanges(client: Client, drops: number): void {
    if (client.getProtocolEra() !== 'modern' || !client.getServerCapabilities()?.prompts?.listChanged) return;
    client.listen({ promptsListChanged: true }).then(
      subscription => {
        if (this.client !== client) return void subscription.close().catch(() => undefined);
        void subscription.closed.then(why => {
          if (why !== 'remote' || this.client !== client) return;
          if (drops + 1 > MAX_LISTEN_DROPS)
            return this.log.warn(
              l10n.t(
                '{0} dropped the stream of list changes {1} times; the list is refreshed only on request now',
                this.def.name,
                drops + 1,
              ),
            );
          this.log.info(l10n.t('{0} dropped the stream of list changes; listening again', this.def.name));
          const timer = setTimeout(() => {
            if (this.client !== client) return;
            this.listenForChanges(client, drops + 1);
            // Changes while nobody listened are lost: list again.
            this.promptsChangedEmitter.fire();
          }, RELISTEN_DELAY_MS);
          timer.unref?.();
        });
      },
      (err: unknown) => {
        if (this.client === client)
          this.protocolWarning(l10n.t('{0}: list changes cannot be followed: {1}', this.def.name, describeCause(err)));
      },
    );
  }

  /** The transport closed without us asking: a crash. Restart with backoff unless crashes pile up. */
  private handleClose(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.transport = undefined;
    this.log.warn(l10n.t('{0} exited', this.def.name));
    this.crashed(new PromptError(l10n.t('{0} stopped unexpectedly', this.def.name), 'server', this.def.name));
  }

  /** Called on a crash, or when an HTTP request fails at the network level (HTTP never reports close). */
  private crashed(error: PromptError): void {
    this._error = error;
    this.setStatus('error');
    const policy = this.options.restart === false ? undefined : (this.options.restart ?? DEFAULT_RESTART);
    if (!policy) return;
    const decision = afterCrash(policy, this.crashes, Date.now());
    this.crashes = decision.crashes;
    if (decision.kind === 'give-up') {
      this.gaveUp = true;
      this._error = new PromptError(
        l10n.t(
          '{0} crashed {1} times in {2} minutes; it stays stopped until you restart it',
          this.def.name,
          this.crashes.length,
          Math.round(policy.windowMs / 60000),
        ),
        'server',
        this.def.name,
      );
      this.log.error(this._error.message);
      this.setStatus('error');
      return;
    }
    const delay = decision.delayMs;
    this.log.info(l10n.t('Restarting {0} in {1} s', this.def.name, delay / 1000));
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      const generation = this.generation;
      // A restart that fails counts as one more crash, so the backoff goes on until the limit.
      this.connect().then(
        () => this.promptsChangedEmitter.fire(),
        (err: PromptError) => {
          if (generation + 1 === this.generation && err.kind !== 'cancelled') this.crashed(err);
        },
      );
    }, delay);
    this.restartTimer.unref?.();
  }

  /** Stops the server (closing stdin / the HTTP session) and cancels any pending restart. */
  async stop(status: ServerStatus = 'stopped'): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const client = this.client;
    if (client) this.missedChanges = true;
    const transport = this.transport;
    const pending = this.connecting;
    this.connectAbort?.abort();
    this.client = undefined;
    this.transport = undefined;
    this.connecting = undefined;
    if (transport) await endSession(transport);
    if (client) await client.close().catch(() => undefined);
    // A connect under way sees the new generation, closes its client and rejects: wait for that.
    if (pending) await pending.catch(() => undefined);
    this.setStatus(status);
  }

  /** Where the user signs in, while the server waits for that (OAuth). */
  get authorizationUrl(): URL | undefined {
    return this.options.oauth?.authorizationUrl;
  }
  get oauth(): StoredOAuthProvider | undefined {
    return this.options.oauth;
  }

  /** See StoredOAuthProvider.onSignedOut; never fires for a server without OAuth. */
  readonly onSignedOut: Event<void> = listener => this.options.oauth?.onSignedOut(listener) ?? { dispose() {} };

  /**
   * The browser came back with an authorization code: exchange it for tokens, then connect. `callback`
   * is the redirect's whole query, so the SDK checks its `iss` (RFC 9207) too.
   */
  async finishAuthorization(callback: URLSearchParams): Promise<void> {
    const t = this.def.transport;
    if (t.type === 'stdio' || !this.options.oauth)
      throw new PromptError(l10n.t('{0} does not use OAuth', this.def.name), 'input', this.def.name);
    const transport = createHttpTransport(
      t,
      this._info?.transport === 'sse' || t.type === 'sse' ? 'sse' : 'http',
      this.options.oauth,
    );
    try {
      await transport.finishAuth(callback);
    } catch (err) {
      throw (
        issuerRefusal(err, this.def.name) ??
        new PromptError(
          l10n.t('{0}: signing in failed: {1}', this.def.name, describeCause(err)),
          'server',
          this.def.name,
        )
      );
    }
    this.log.info(l10n.t('{0}: signed in', this.def.name));
    await this.restart();
  }

  /** Forgets the OAuth client and tokens; the next start asks the user to sign in again. */
  async signOut(): Promise<void> {
    await this.options.oauth?.invalidateCredentials('all');
    this.log.info(l10n.t('{0}: signed out', this.def.name));
    await this.restart().catch(() => undefined);
  }

  /** A user's restart: clears the crash history and connects again. */
  async restart(): Promise<void> {
    await this.stop();
    this.crashes = [];
    this.gaveUp = false;
    this._error = undefined;
    await this.connect();
    this.promptsChangedEmitter.fire();
  }

  async listPromptsPage(cursor: string | undefined, opts: RequestOptions = {}): Promise<RawListResult> {
    return this.request(
      () => l10n.t('listing prompts'),
      c =>
        c.request(
          { method: 'prompts/list', params: cursor === undefined ? {} : { cursor } },
          LooseListResult,
          this.requestOptions(opts),
        ),
      opts,
    );
  }

  async getPrompt(name: string, args: Record<string, string>, opts: RequestOptions = {}): Promise<RawGetResult> {
    return this.request(
      () => l10n.t('prompt "{0}"', name),
      c =>
        c.request(
          { method: 'prompts/get', params: { name, arguments: args } },
          LooseGetResult,
          this.requestOptions(opts),
        ),
      opts,
    );
  }

  async complete(
    prompt: string,
    argument: string,
    value: string,
    context: Record<string, string>,
    opts: RequestOptions = {},
  ): Promise<CompletionResult> {
    const result = await this.request(
      () => l10n.t('completion of "{0}"', argument),
      c => {
        if (!c.getServerCapabilities()?.completions)
          return Promise.resolve({
            completion: {
              values: [] as unknown[],
              total: undefined as number | undefined,
              hasMore: undefined as boolean | undefined,
            },
          });
        return c.request(
          {
            method: 'completion/complete',
            params: {
              ref: { type: 'ref/prompt', name: prompt },
              argument: { name: argument, value },
              ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
            },
          },
          LooseCompleteResult,
          this.requestOptions(opts),
        );
      },
      opts,
    );
    const all = result.completion.values.filter((v): v is string => typeof v === 'string');
    const values = all.slice(0, MAX_COMPLETIONS);
    // Values we cut are more to come, whatever the server said.
    return {
      values,
      total: result.completion.total,
      hasMore: all.length > MAX_COMPLETIONS ? true : result.completion.hasMore,
    };
  }

  async readResource(uri: string, opts: RequestOptions = {}): Promise<unknown[]> {
    const result = await this.request(
      () => l10n.t('reading {0}', uri),
      c => c.request({ method: 'resources/read', params: { uri } }, LooseReadResult, this.requestOptions(opts)),
      opts,
    );
    return result.contents;
  }

  private requestOptions(opts: RequestOptions) {
    return {
      signal: opts.signal,
      timeout: opts.timeoutMs ?? this.def.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(opts.questions === false ? { [NO_QUESTIONS]: true } : {}),
    };
  }

  /** `what` names the request in messages; built only when one is needed. */
  private async request<T>(what: () => string, call: (client: Client) => Promise<T>, opts: RequestOptions): Promise<T> {
    if (opts.signal?.aborted)
      throw new PromptError(l10n.t('{0}: {1} was cancelled', this.def.name, what()), 'cancelled', this.def.name);
    if (this.gaveUp && this._error) throw this._error;
    // A request under way keeps the server from an idle stop, from its start to the answer.
    const release = this.hold();
    try {
      return await this.send(what, call, opts);
    } finally {
      release();
    }
  }

  private async send<T>(what: () => string, call: (client: Client) => Promise<T>, opts: RequestOptions): Promise<T> {
    const generation = this.generation;
    if (opts.client && opts.client !== this.client) throw this.stoppedError();
    const client = opts.client ?? (await this.connect());
    try {
      const result = await call(client);
      if (client === this.client && client.getProtocolEra() === 'modern') this.noteServerInfo(result);
      return result;
    } catch (err) {
      // Stopped while this client's request was under way: the close is ours, not the server's fault.
      if (opts.client && generation !== this.generation) throw this.stoppedError();
      const error =
        this.signInNeeded(err) ??
        this.hide(
          toPromptError(err, this.def.name, what(), {
            aborted: opts.signal?.aborted,
            closeCause: this.closeCause,
            timeoutMs: this.requestOptions(opts).timeout,
          }),
        );
      // A remembered 2026 era is adopted without a round trip, so a server that no longer speaks it shows
      // only here: the next start probes again.
      if (
        client.getProtocolEra() === 'modern' &&
        (isProtocolRefusal(err) || (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed))
      )
        (this.options.eras ?? defaultEraMemory).delete(eraKey(this.def));
      // Over HTTP a dead server shows up only as a failed fetch: treat it as a crash.
      if (
        this.def.transport.type !== 'stdio' &&
        error.kind === 'server' &&
        isNetworkFailure(err) &&
        this.client === client
      ) {
        this.client = undefined;
        this.transport = undefined;
        await client.close().catch(() => undefined);
        this.crashed(error);
      }
      throw error;
    }
  }

  /** A 2026-07-28 result names its server in `_meta`; the latest name wins (a rolling upgrade shows at once). */
  private noteServerInfo(result: unknown): void {
    const next = serverInfoOfResult(result);
    if (!next || !this._info || sameServerInfo(next, this._info.serverInfo)) return;
    const before = this._info.serverInfo;
    this._info = { ...this._info, serverInfo: next };
    this.log.info(
      before
        ? l10n.t(
            '{0} now reports itself as {1} (was {2})',
            this.def.name,
            describeServerInfo(next),
            describeServerInfo(before),
          )
        : l10n.t('{0} reports itself as {1}', this.def.name, describeServerInfo(next)),
    );
    this.infoEmitter.fire(this._info);
  }

  private setStatus(status: ServerStatus): void {
    if (this._status === status) return;
    this._status = status;
    this.statusEmitter.fire(status);
  }

  dispose(): Promise<void> {
    this.disposed = true;
    const done = this.stop();
    this.statusEmitter.dispose();
    this.promptsChangedEmitter.dispose();
    this.infoEmitter.dispose();
    // Each connection gets its own provider (src/extension.ts): its watch on the secret store ends here.
    this.options.oauth?.dispose();
    return done;
  }
}

/** `DELETE` with the session id, as the spec asks of clients that leave: a stateful server frees the session. Bounded in time; a refusal is no error of ours. */
async function endSession(transport: TransportTrace): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    transport.terminateSession().catch(() => undefined),
    new Promise(resolve => {
      timer = setTimeout(resolve, END_SESSION_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** The server refused the request's protocol version or its shape (no initialize, unknown envelope). */
function isProtocolRefusal(err: unknown): boolean {
  if (!(err instanceof ProtocolError)) return false;
  const code = err.code as ProtocolErrorCode;
  return code === ProtocolErrorCode.UnsupportedProtocolVersion || code === ProtocolErrorCode.InvalidRequest;
}

/** The SDK's typed timeout of the `server/discover` probe (HTTP only: on stdio it falls back by itself). */
function isProbeTimeout(err: unknown): boolean {
  return (
    err instanceof SdkError &&
    err.code === SdkErrorCode.RequestTimeout &&
    /^Version negotiation probe timed out/.test(err.message)
  );
}

function isNetworkFailure(err: unknown): boolean {
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

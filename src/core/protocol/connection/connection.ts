// One MCP server: its lifecycle (lazy start, stop, restart with backoff after crashes, idle stop) as one
// state value with one change event, the start under way or running as one Launch in one slot
// (launch.ts: client, transport, abort and close hook, ended as a unit), and the handful of requests a
// prompts client makes. Starting is handshake.ts's, questions are questions.ts's, and the requests
// under way (their timeouts, who started them) are the RequestTracker's.
import type { Client } from '@modelcontextprotocol/client';
import * as l10n from '@vscode/l10n';
import type { ServerDefinition } from '../../config/config.js';
import { Emitter, type Event } from '../../events.js';
import {
  type MessageTooLargeError,
  PromptError,
  isConnectionClosed,
  isNetworkFailure,
  isProtocolRefusal,
  tooLargeMessage,
} from '../../errors.js';
import { LogSink, redactingLog, silentLog } from '../../log.js';
import { hostPlatform } from '../../platform.js';
import { type StoredOAuthProvider, exchangeAuthorizationCode } from '../transport/oauth.js';
import { Launch, closeLate } from './launch.js';
import { type EraMemory, defaultEraMemory, eraKey } from '../transport/eras.js';
import { CrashRestarts, DEFAULT_RESTART, type RestartPolicy } from '../limits/backoff.js';
import {
  type ConnectionOptions,
  DEFAULT_TIMEOUT_MS,
  MIN_STARTUP_MS,
  type RequestOptions,
} from './connection-options.js';
import { IdleStop } from '../limits/idle-stop.js';
import { WireMeter } from '../limits/message-limit.js';
import { ServerQuestions } from '../questions/questions.js';
import { NEVER, RequestTracker } from '../questions/request-tracker.js';
import { type ConnectionState, type ServerInfo, stateError, stateInfo } from './connection-state.js';
import { protocolWarnings, startRemembering } from './handshake.js';
import type { StartContext, Started } from './start-context.js';
import { ServerFailures } from '../limits/server-failures.js';
import * as requests from './prompt-requests.js';
import type { CompletionResult, PromptRequest, RawGetResult, RawListResult } from './prompt-requests.js';
import { describeRunning, renamedServer, serverInfoOf } from './server-identity.js';
import { offersSkills } from './skill-requests.js';

export type { CompletionResult, ConnectionOptions, RawGetResult, RestartPolicy };

export class ServerConnection {
  /** The start under way or the running server; none while idle, stopped or failed. */
  private launch?: Launch;
  private current: ConnectionState = { kind: 'idle' };
  private readonly restarts: CrashRestarts;
  private readonly idle: IdleStop;
  /** Set by dispose(): a request still under way (a catalog's listing) must not start the server again. */
  private disposed = false;
  /** Why a start or request failed: the server's stderr, a message past the bound, a sign-in. */
  private readonly failures: ServerFailures;
  /** What the server sent, and the bound on each message. */
  private readonly meter = new WireMeter();
  /** Stopped while running: list_changed went unheard, so the next start announces a change (the catalog lists again). */
  private missedChanges = false;
  private readonly tracker = new RequestTracker();
  private readonly questions: ServerQuestions;
  private readonly stateEmitter = new Emitter<ConnectionState>();
  private readonly listsChangedEmitter = new Emitter<void>();
  /** Fired with the new state on every change: start, stop, crash, sign-in, a server that names itself anew. */
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fired on a list change of prompts (or, of a server with skills, resources) and after a reconnect. */
  readonly onListsChanged = this.listsChangedEmitter.event;
  readonly log: LogSink;
  private readonly launchHooks = { changed: () => this.listsChangedEmitter.fire(), lost: (l: Launch) => this.lost(l) };
  /** What the SDK reports about a server's messages (unknown progress tokens, stray responses, garbage): the server decides how often. */
  private readonly protocolWarning: (line: string) => void;

  constructor(
    readonly def: ServerDefinition,
    private readonly options: ConnectionOptions = {},
  ) {
    // Password inputs substituted into this definition never reach a log line or an error message.
    this.log = redactingLog(options.log ?? silentLog, def.secrets ?? []);
    this.failures = new ServerFailures(def, () => this.authorizationUrl);
    this.meter.onOversized = error => this.tooLarge(error);
    this.protocolWarning = protocolWarnings(def.name, this.log);
    this.questions = new ServerQuestions(def.name, options.questions, this.tracker, this.log, () => this.hold());
    const policy = options.restart === false ? undefined : (options.restart ?? DEFAULT_RESTART);
    this.restarts = new CrashRestarts(def.name, policy, this.log);
    this.idle = new IdleStop(
      options.idleStopMs,
      () => this.launch?.client,
      () => void this.stop(),
      def.name,
      this.log,
    );
  }

  private get eras(): EraMemory {
    return this.options.eras ?? defaultEraMemory;
  }

  get state(): ConnectionState {
    return this.current;
  }
  /** What the server said it is, now or when it last ran. */
  get info(): ServerInfo | undefined {
    return stateInfo(this.current);
  }

  /** Connects if needed; concurrent callers share one attempt. */
  async connect(): Promise<Client> {
    if (this.disposed) throw this.failures.stopped();
    const launch = this.launch ?? this.begin();
    return launch.client ?? launch.ready;
  }

  /** A new launch in the slot, started: the handshake on the configured transport, then the client adopted. */
  private begin(): Launch {
    const launch = (this.launch = new Launch(this.launchHooks));
    void this.open(launch);
    return launch;
  }

  private async open(launch: Launch): Promise<void> {
    this.restarts.cancel();
    this.setState({ kind: 'starting', info: this.info });
    this.failures.clear();
    const timeout = Math.max(
      this.def.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      this.options.minStartupMs ?? MIN_STARTUP_MS,
    );
    const t = this.def.transport;
    this.log.info(
      l10n.t('Starting {0} ({1})', this.def.name, t.type === 'stdio' ? [t.command, ...t.args].join(' ') : t.url),
    );
    try {
      const started = await startRemembering(this.startContext(launch), timeout, launch.signal);
      if (!launch.adopt(started)) {
        await closeLate(started);
        throw this.failures.stopped();
      }
      this.running(launch, started);
    } catch (err) {
      if (this.launch === launch) this.launch = undefined;
      launch.fail(this.startFailed(err, launch, timeout));
    }
  }

  private startContext(launch: Launch): StartContext {
    return {
      def: this.def,
      log: this.log,
      clientInfo: this.options.clientInfo,
      defaultCwd: this.options.defaultCwd,
      platform: this.options.platform ?? hostPlatform(),
      oauth: this.options.oauth,
      secrets: this.options.secrets ?? [],
      eras: this.eras,
      meter: this.meter,
      onStderr: line => this.failures.stderr.add(line),
      prepare: (client, traced) => {
        this.questions.attach(client, v => traced.hide(v));
        client.onerror = e => this.protocolWarning(`${this.def.name}: ${e.message}`);
        client.setNotificationHandler('notifications/prompts/list_changed', () => launch.heard());
        // Skills are resources: their list changes with the resources (SEP-2640).
        client.setNotificationHandler('notifications/resources/list_changed', () => {
          if (offersSkills(client)) launch.heard();
        });
      },
    };
  }

  /**
   * A message past the bound: said once, and every request under way ends with it (other servers go
   * on). Over stdio the transport closes for it, which ends them (ServerFailures.ofRequest says why) after the crash.
   */
  private tooLarge(error: MessageTooLargeError): void {
    this.failures.oversized = error;
    this.log.warn(tooLargeMessage(error, this.def.name));
    if (!error.closed) this.tracker.failAll(error);
  }

  /** Bytes the server sent since this connection was made: the catalog bounds a listing with it. */
  get bytesReceived(): number {
    return this.meter.received;
  }
  /** Calls `exceeded` once the server sent more than `limit` bytes from now on (see WireMeter.watch). */
  watchBytes(limit: number, exceeded: () => void): () => void {
    return this.meter.watch(limit, exceeded);
  }

  /** The launch runs: its info, the state, the stream of list changes, the idle wait. */
  private running(launch: Launch, { client, kind }: Started): void {
    const info = serverInfoOf(client, kind);
    this.log.info(describeRunning(this.def.name, info));
    this.setState({ kind: 'running', info });
    launch.follow(client, { server: this.def.name, log: this.log, warn: line => this.protocolWarning(line) });
    if (this.missedChanges) {
      this.missedChanges = false;
      this.listsChangedEmitter.fire();
    }
    this.idle.arm();
  }

  /**
   * Keeps the server from an idle stop until the returned function is called: a run holds its server
   * while the argument input is open. Starts nothing; releasing twice releases once.
   */
  hold(): () => void {
    return this.idle.hold();
  }

  /** The error a failed start throws; recorded as the server's state unless it was stopped meanwhile. */
  private startFailed(err: unknown, launch: Launch, timeout: number): PromptError {
    // Stopped meanwhile: the abort is ours, not the server's fault.
    if (launch.ended === 'stopped') return this.failures.stopped();
    const error = this.failures.ofStart(err, timeout);
    this.log.error(error.message);
    this.setFailed(error);
    return error;
  }

  /** The server is down for `error`: waiting for a sign-in when that is what it refused. */
  private setFailed(error: PromptError): void {
    const url = this.authorizationUrl;
    this.setState(url ? { kind: 'signIn', url, error, info: this.info } : { kind: 'error', error, info: this.info });
  }

  /** The launch's client closed without us asking: a crash. Restart with backoff unless crashes pile up. */
  private lost(launch: Launch): void {
    if (this.launch !== launch) return;
    this.launch = undefined;
    this.log.warn(l10n.t('{0} exited', this.def.name));
    this.crashed(new PromptError(l10n.t('{0} stopped unexpectedly', this.def.name), 'server', this.def.name));
  }

  /** Called on a crash, or when an HTTP request fails at the network level (HTTP never reports close). */
  private crashed(error: PromptError): void {
    this.setFailed(error);
    const gaveUp = this.restarts.crashed(() => {
      // A start someone else began meanwhile is theirs: its failure is no crash of this restart.
      const own = !this.launch;
      // A restart that fails counts as one more crash, so the backoff goes on until the limit.
      this.connect().then(
        () => this.listsChangedEmitter.fire(),
        (err: PromptError) => {
          if (own && err.kind !== 'cancelled') this.crashed(err);
        },
      );
    });
    if (!gaveUp) return;
    this.log.error(gaveUp.message);
    this.setFailed(gaveUp);
  }

  /** Stops the server (closing stdin / the HTTP session) and cancels any pending restart. */
  async stop(): Promise<void> {
    this.restarts.cancel();
    this.idle.cancel();
    const launch = this.launch;
    this.launch = undefined;
    if (launch?.client) this.missedChanges = true;
    // Stopped from now on: a re-list due meanwhile must not start it again while its process exits.
    this.setState({ kind: 'stopped', info: this.info });
    // A start under way fails (aborted), or closes its client if its handshake finished: wait for that.
    await launch?.end('stopped');
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
    await exchangeAuthorizationCode(this.def, this.options.oauth, this.info?.transport === 'sse', callback);
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
    this.restarts.reset();
    await this.connect();
    this.listsChangedEmitter.fire();
  }

  listPromptsPage(cursor: string | undefined, opts: RequestOptions = {}): Promise<RawListResult> {
    return this.request(requests.list(cursor), opts);
  }

  getPrompt(name: string, args: Record<string, string>, opts: RequestOptions = {}): Promise<RawGetResult> {
    return this.request(requests.get(name, args), opts);
  }

  async complete(
    prompt: string,
    argument: string,
    value: string,
    context: Record<string, string>,
    opts: RequestOptions = {},
  ): Promise<CompletionResult> {
    return requests.completionOf(await this.request(requests.complete(prompt, argument, value, context), opts));
  }

  async readResource(uri: string, opts: RequestOptions = {}): Promise<unknown[]> {
    return (await this.request(requests.read(uri), opts)).contents;
  }

  private timeoutOf(opts: RequestOptions): number {
    return opts.timeoutMs ?? this.def.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * One request of ours: starts the server if needed and keeps it from an idle stop meanwhile; a request
   * the server has nothing to say to (no such capability) is answered here (`req.local`).
   */
  async request<T>(req: PromptRequest<T>, opts: RequestOptions): Promise<T> {
    if (opts.signal?.aborted)
      throw new PromptError(l10n.t('{0}: {1} was cancelled', this.def.name, req.what()), 'cancelled', this.def.name);
    if (this.restarts.gaveUp) throw this.restarts.gaveUp;
    // A request under way keeps the server from an idle stop, from its start to the answer.
    const release = this.hold();
    try {
      if (opts.client && opts.client !== this.launch?.client) throw this.failures.stopped();
      const client = opts.client ?? this.launch?.client ?? (await this.connect());
      const launch = this.launch;
      try {
        const answer = req.local?.(client) ?? (await this.send(client, req, opts));
        if (client === launch?.client && client.getProtocolEra() === 'modern') this.noteServerInfo(answer);
        return answer;
      } catch (err) {
        throw await this.requestFailed(err, client, launch, req, opts);
      }
    } finally {
      release();
    }
  }

  /** On the wire, tracked: our timeout (stopped while a question is open), the -32042 page and its retry. */
  private send<T>(client: Client, req: PromptRequest<T>, opts: RequestOptions): Promise<T> {
    const info = {
      method: req.method,
      params: req.params,
      timeoutMs: this.timeoutOf(opts),
      signal: opts.signal,
      quiet: opts.questions === false ? ('input' as const) : opts.background ? ('background' as const) : undefined,
    };
    return this.tracker.run(info, tracked =>
      this.questions.retryAfterPage(tracked, () => req.send(client, { signal: tracked.signal, timeout: NEVER })),
    );
  }

  /** What a failed request throws; a modern era that no longer holds is forgotten, a dead HTTP server is a crash. */
  private async requestFailed(
    err: unknown,
    client: Client,
    launch: Launch | undefined,
    req: PromptRequest<unknown>,
    opts: RequestOptions,
  ): Promise<PromptError> {
    // Stopped while this client's request was under way: the close is ours, not the server's fault.
    if (opts.client && launch?.ended === 'stopped') return this.failures.stopped();
    const signIn = this.failures.signInNeeded(err);
    if (signIn) this.setFailed(signIn);
    const error =
      signIn ??
      this.failures.ofRequest(err, req.what(), { aborted: opts.signal?.aborted, timeoutMs: this.timeoutOf(opts) });
    // A remembered 2026 era is adopted without a round trip, so a server that no longer speaks it shows
    // only here: the next start probes again.
    if (client.getProtocolEra() === 'modern' && (isProtocolRefusal(err) || isConnectionClosed(err)))
      this.eras.delete(eraKey(this.def));
    // Over HTTP a dead server shows up only as a failed fetch: treat it as a crash.
    if (
      this.def.transport.type !== 'stdio' &&
      error.kind === 'server' &&
      isNetworkFailure(err) &&
      launch &&
      this.launch === launch &&
      launch.client === client
    ) {
      this.launch = undefined;
      await launch.end('lost');
      this.crashed(error);
    }
    return error;
  }

  /** A 2026-07-28 result names its server in `_meta`; the latest name wins (a rolling upgrade shows at once). */
  private noteServerInfo(result: unknown): void {
    const state = this.current;
    const renamed = state.kind === 'running' ? renamedServer(this.def.name, state.info, result) : undefined;
    if (!renamed) return;
    this.log.info(renamed.line);
    this.setState({ kind: 'running', info: renamed.info });
  }

  private setState(next: ConnectionState): void {
    const now = this.current;
    if (now.kind === next.kind && stateInfo(now) === stateInfo(next) && stateError(now) === stateError(next)) return;
    this.current = next;
    this.stateEmitter.fire(next);
  }

  dispose(): Promise<void> {
    this.disposed = true;
    const done = this.stop();
    this.stateEmitter.dispose();
    this.listsChangedEmitter.dispose();
    // Each connection gets its own provider (OAuthLoopback.provider, src/workspace/oauth-loopback.ts): its
    // watch on the secret store ends here.
    this.options.oauth?.dispose();
    return done;
  }
}

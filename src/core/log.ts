// Where a server's log lines go: a LogOutputChannel in the extension, stderr or nowhere in the CLI.
export interface LogSink {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** False when trace lines would be dropped: the JSON-RPC trace then costs nothing. */
  traceEnabled?(): boolean;
}

export const silentLog: LogSink = { trace() {}, info() {}, warn() {}, error() {}, traceEnabled: () => false };

/** Redacts header values and anything that looks like a bearer token before a line is logged. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1***');
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

/** Longest line a server can put in the log through one message (stderr, protocol errors). */
export const MAX_SERVER_LINE = 4000;

/**
 * Passes at most `perSecond` lines a second to `emit`; the first line over the limit calls `onFlood`
 * instead. For every log path a server can trigger at will. It does not cut lines: a cut made before
 * secrets are hidden could split a secret and leak its first part, so `redactingLog` cuts after hiding.
 */
export function rateLimited(
  perSecond: number,
  emit: (line: string) => void,
  onFlood: () => void,
): (line: string) => void {
  let windowStart = 0;
  let inWindow = 0;
  return line => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow <= perSecond) emit(line);
    else if (inWindow === perSecond + 1) onFlood();
  };
}

/** Hides `values` (substituted password inputs, whatever their length) in every line before it is logged. */
export function hideValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) if (v) out = out.split(v).join('***');
  return out;
}

/**
 * The sink a server's lines go through: hides `values` (password inputs), then cuts info/warn/error lines
 * to `maxLine` characters. Hiding comes first, so a secret across the cut is hidden whole. Trace lines
 * (the JSON-RPC trace, asked for by the user) are hidden but not cut.
 */
export function redactingLog(sink: LogSink, values: readonly string[], maxLine = MAX_SERVER_LINE): LogSink {
  const hide = (m: string) => (values.length ? hideValues(m, values) : m);
  const cut = (m: string) => {
    const hidden = hide(m);
    return hidden.length > maxLine ? hidden.slice(0, maxLine) : hidden;
  };
  return {
    trace: m => sink.trace(hide(m)),
    info: m => sink.info(cut(m)),
    warn: m => sink.warn(cut(m)),
    error: m => sink.error(cut(m)),
    traceEnabled: sink.traceEnabled && (() => sink.traceEnabled!()),
  };
}

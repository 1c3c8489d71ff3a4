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
 * Passes at most `perSecond` lines a second to `emit` (each cut to `maxLine` characters); the
 * first line over the limit calls `onFlood` instead. For every log path a server can trigger at will.
 */
export function rateLimited(perSecond: number, emit: (line: string) => void, onFlood: () => void, maxLine = MAX_SERVER_LINE): (line: string) => void {
  let windowStart = 0;
  let inWindow = 0;
  return line => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow <= perSecond) emit(line.length > maxLine ? line.slice(0, maxLine) : line);
    else if (inWindow === perSecond + 1) onFlood();
  };
}

/** Hides `values` (substituted password inputs, whatever their length) in every line before it is logged. */
export function hideValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) if (v) out = out.split(v).join('***');
  return out;
}

/** A sink that hides `values` in every line; the sink itself when there is nothing to hide. */
export function redactingLog(sink: LogSink, values: readonly string[]): LogSink {
  if (!values.length) return sink;
  return {
    trace: m => sink.trace(hideValues(m, values)),
    info: m => sink.info(hideValues(m, values)),
    warn: m => sink.warn(hideValues(m, values)),
    error: m => sink.error(hideValues(m, values)),
    traceEnabled: sink.traceEnabled && (() => sink.traceEnabled!()),
  };
}

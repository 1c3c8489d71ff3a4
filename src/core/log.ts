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

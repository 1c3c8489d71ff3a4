// How much one server can make us hold at once: one JSON-RPC message is at most MAX_MESSAGE_BYTES,
// whatever the transport. Over stdio the line buffer (line-buffer.ts) stops there; over HTTP the SDK
// reads a whole response body, or every event of a stream, so the fetch it is given (limitedFetch)
// counts each message's bytes as they arrive and stops reading past the bound. Both count what the
// server sent in a WireMeter, which the catalog uses to bound a whole listing.
import { MessageTooLargeError } from '../../errors.js';

/** One message (a stdio line, a JSON body, one event of a stream): 32 MiB. See docs/limits.md. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export { MessageTooLargeError };

/** What one server sent us, over every transport it had, and who hears of a message past the bound. */
export class WireMeter {
  /** Bytes received since the connection was made (all its transports). */
  received = 0;
  /** Called once per message past the bound, before the transport fails it. */
  onOversized?: (error: MessageTooLargeError) => void;
  private readonly watchers = new Set<() => void>();

  /** Counts bytes as they arrive; watchers hear of each chunk (a walk of pages the SDK drives is bounded so). */
  add(bytes: number): void {
    this.received += bytes;
    for (const watcher of this.watchers) watcher();
  }

  /** Calls `exceeded` once when more than `limit` bytes arrived from now on; returns the way to stop watching. */
  watch(limit: number, exceeded: () => void): () => void {
    const start = this.received;
    const watcher = () => {
      if (this.received - start <= limit) return;
      this.watchers.delete(watcher);
      exceeded();
    };
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  oversized(error: MessageTooLargeError): void {
    this.onOversized?.(error);
  }
}

/** Statuses whose responses carry no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * `fetch` whose response bodies stop at `limit` bytes per message: a JSON body is one message, an
 * event stream's messages are its events (an empty line ends one). Past the bound the fetch, or the
 * SDK's read of an event stream, fails with MessageTooLargeError and `meter` hears of it.
 */
export function limitedFetch(meter: WireMeter, limit = MAX_MESSAGE_BYTES, base: typeof fetch = fetch): typeof fetch {
  return (input, init) => base(input, init).then(response => bounded(response, meter, limit));
}

/** `response` as the SDK may read it: counted, and failing past the bound. */
function bounded(response: Response, meter: WireMeter, limit: number): Response | Promise<Response> {
  if (!response.body || NO_BODY.has(response.status)) return response;
  // A body of a stated length within the bound (fetch holds the server to it) is counted without reading
  // it twice; so is each event in it. The usual answer needs no other header.
  const stated = response.headers.get('content-length');
  const length = stated === null ? NaN : Number(stated);
  const known = Number.isInteger(length) && length >= 0;
  if (known && length <= limit) {
    meter.add(length);
    return response;
  }
  const events = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() === 'text/event-stream';
  if (known && !events) {
    meter.add(length);
    return response.body
      .cancel()
      .catch(() => undefined)
      .then(() => {
        throw tooLarge(meter, limit);
      });
  }
  // A JSON body of unstated length is read whole (the SDK would), counting as it comes: one copy of
  // the stream machinery fewer than passing it through a counting stream.
  if (!events) return readWhole(response, meter, limit);
  return withBody(response, countEvents(response.body, meter, limit));
}

/**
 * `response` reading `body` instead of its own: every way to read it (the stream, text(), json()…)
 * goes through `body`. Cheaper per call than a new Response, which copies the headers.
 */
function withBody(response: Response, counted: ReadableStream<Uint8Array>): Response {
  let body = counted;
  const whole = () => new Response(body, { status: response.status, statusText: response.statusText });
  const own = (value: unknown) => ({ value, configurable: true });
  return Object.defineProperties(response, {
    body: { get: () => body, configurable: true },
    bodyUsed: { get: () => body.locked, configurable: true },
    text: own(() => whole().text()),
    json: own(() => whole().json()),
    arrayBuffer: own(() => whole().arrayBuffer()),
    bytes: own(() =>
      whole()
        .arrayBuffer()
        .then(b => new Uint8Array(b)),
    ),
    blob: own(() => whole().blob()),
    formData: own(() => whole().formData()),
    clone: own(() => {
      const [mine, theirs] = body.tee();
      body = mine;
      return withBody(new Response(null, response), theirs);
    }),
  });
}

/** The error for a message past the bound, which `meter` hears of first. */
function tooLarge(meter: WireMeter, limit: number): MessageTooLargeError {
  const error = new MessageTooLargeError(limit, false);
  meter.oversized(error);
  return error;
}

/** The body read into memory, at most `limit` bytes (past it the read stops and the fetch fails). */
async function readWhole(response: Response, meter: WireMeter, limit: number): Promise<Response> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    meter.add(value.length);
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(meter, limit);
    }
    chunks.push(value);
  }
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * The event stream `source`, failing when one event grows past the bound. Read chunk by chunk as its
 * reader asks: a pull source, cheaper per call than a TransformStream piped in (no pipe of our own).
 */
function countEvents(source: ReadableStream<Uint8Array>, meter: WireMeter, limit: number): ReadableStream<Uint8Array> {
  const size = eventSizes();
  let current = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      pull: controller =>
        (reader ??= source.getReader()).read().then(({ done, value }) => {
          if (done) return controller.close();
          meter.add(value.length);
          current = size(value, current);
          if (current <= limit) return controller.enqueue(value);
          const error = tooLarge(meter, limit);
          controller.error(error);
          return reader?.cancel(error).catch(() => undefined);
        }),
      cancel: reason => (reader ?? source).cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The bytes of the event under way after `chunk`, for an event stream (LF or CRLF line ends): an empty
 * line ends an event, so the count starts again after it. Keeps whether the line under way has content
 * across chunks.
 */
function eventSizes(): (chunk: Uint8Array, sofar: number) => number {
  let lineHasContent = false;
  return (chunk, sofar) => {
    let size = sofar;
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      const content = end - pos - (end > pos && chunk[end - 1] === 13 ? 1 : 0);
      if (content > 0) lineHasContent = true;
      size += end - pos;
      if (nl < 0) return size;
      size = lineHasContent ? size + 1 : 0;
      lineHasContent = false;
      pos = nl + 1;
    }
  };
}

// Splits a stdio byte stream into JSON-RPC messages in linear time. The SDK's ReadBuffer concatenates
// the whole pending buffer on every 64 KB chunk, which costs seconds for one 20 MB message; this one
// keeps the chunks of the unfinished line and joins them once, when its newline arrives.
import { deserializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { MessageTooLargeError, type WireMeter } from './message-limit.js';

export class LineReadBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lines: string[] = [];

  /** `meter` counts the bytes received and hears of a line past `maxLineBytes`. */
  constructor(
    private readonly maxLineBytes: number,
    private readonly meter?: WireMeter,
  ) {}

  append(chunk: Buffer): void {
    this.meter?.add(chunk.length);
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      this.grow(piece.length);
      const line = this.pending.length ? Buffer.concat(this.pending.concat(piece)) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      const text = line.toString('utf8');
      this.lines.push(text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text);
      start = i + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.grow(rest.length);
      this.pending.push(rest);
    }
  }

  /** Same contract as the SDK's ReadBuffer: the next message, null when none is complete; throws on bad JSON. */
  readMessage(): JSONRPCMessage | null {
    for (;;) {
      const line = this.lines.shift();
      if (line === undefined) return null;
      if (line.trim()) return deserializeMessage(line);
    }
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.lines = [];
  }

  private grow(bytes: number): void {
    this.pendingBytes += bytes;
    if (this.pendingBytes > this.maxLineBytes) {
      this.clear();
      // The SDK's transport closes the connection on this error: the connection was closed for it.
      const error = new MessageTooLargeError(this.maxLineBytes, true);
      this.meter?.oversized(error);
      throw error;
    }
  }
}

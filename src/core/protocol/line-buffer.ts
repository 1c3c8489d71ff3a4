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
    // A chunk usually ends a message: its last byte says so without a search.
    const last = chunk[chunk.length - 1] === 10 ? chunk.length - 1 : chunk.lastIndexOf(10);
    if (last < 0) return this.keep(chunk);
    if (this.pendingBytes + last <= this.maxLineBytes) {
      // Every line it completes fits together within the bound: one decode and one split for all of
      // them (a newline byte is never part of a UTF-8 character, so splitting the text is splitting the bytes).
      const piece = chunk.subarray(0, last);
      const text = (this.pending.length ? Buffer.concat([...this.pending, piece]) : piece).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      for (const line of text.split('\n')) this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    } else this.splitEach(chunk, last);
    if (last + 1 < chunk.length) this.keep(chunk.subarray(last + 1));
  }

  /** The lines of `chunk` up to its newline at `last`, one by one: each is held to the bound alone. */
  private splitEach(chunk: Buffer, last: number): void {
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0 && i <= last; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      this.grow(piece.length);
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      this.lines.push(line.toString('utf8').replace(/\r$/, ''));
      start = i + 1;
    }
  }

  /** The start of a line whose newline has not come yet. */
  private keep(rest: Buffer): void {
    this.grow(rest.length);
    this.pending.push(rest);
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

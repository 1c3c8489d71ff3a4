// The linear-time stdio message splitter that replaces the SDK's ReadBuffer inside its stdio transport.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineReadBuffer } from '../../src/core/protocol/limits/line-buffer';
import { MessageTooLargeError, WireMeter } from '../../src/core/protocol/limits/message-limit';
import { createStdioTransport } from '../../src/core/protocol/transport/transports';
import { silentLog } from '../../src/core/log';
import { hostPlatform } from '../../src/core/platform';

function drain(b: LineReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let m = b.readMessage(); m !== null; m = b.readMessage()) out.push(m);
  return out;
}

test('messages split anywhere (even inside a UTF-8 character), CRLF and blank lines', () => {
  const text = '{"jsonrpc":"2.0","method":"a","params":{"s":"Grüße 你好"}}\r\n\n{"jsonrpc":"2.0","id":1,"result":{}}\n';
  const bytes = Buffer.from(text, 'utf8');
  for (const size of [1, 2, 3, 7, bytes.length]) {
    const b = new LineReadBuffer(1024);
    for (let i = 0; i < bytes.length; i += size) b.append(bytes.subarray(i, i + size));
    assert.deepEqual(
      drain(b),
      [
        { jsonrpc: '2.0', method: 'a', params: { s: 'Grüße 你好' } },
        { jsonrpc: '2.0', id: 1, result: {} },
      ],
      `chunks of ${size}`,
    );
  }
});

test('bad JSON throws for that line only; an oversized line throws MessageTooLargeError, the meter hears of it and the buffer recovers', () => {
  const meter = new WireMeter();
  const heard: MessageTooLargeError[] = [];
  meter.onOversized = e => heard.push(e);
  const b = new LineReadBuffer(64, meter);
  const first = 'not json\n{"jsonrpc":"2.0","id":2,"result":{}}\n';
  const last = '{"jsonrpc":"2.0","id":3,"result":{}}\n';
  b.append(Buffer.from('not json\n{"jsonrpc":"2.0","id":2,"result":{}}\n'));
  assert.throws(() => b.readMessage(), SyntaxError);
  assert.deepEqual(drain(b), [{ jsonrpc: '2.0', id: 2, result: {} }]);
  assert.throws(
    () => b.append(Buffer.alloc(65, 0x61)),
    (e: unknown) => e instanceof MessageTooLargeError && e.limit === 64 && e.closed,
  );
  assert.equal(heard.length, 1);
  b.append(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}\n'));
  assert.deepEqual(drain(b), [{ jsonrpc: '2.0', id: 3, result: {} }]);
  assert.equal(meter.received, first.length + 65 + last.length, 'every byte received is counted');
});

test('one chunk of several messages, joined to a line begun in the chunk before; each line is held to the bound, not the chunk', () => {
  const a = '{"jsonrpc":"2.0","id":1,"result":{"s":"é"}}';
  const b = '{"jsonrpc":"2.0","id":2,"result":{}}';
  const c = '{"jsonrpc":"2.0","id":3,"result":{}}';
  const bytes = Buffer.from(`${a}\r\n${b}\n${c}\n{"jsonrpc"`, 'utf8');
  const bound = Buffer.byteLength(a) + 1;
  const b1 = new LineReadBuffer(bound);
  b1.append(bytes.subarray(0, 10));
  b1.append(bytes.subarray(10));
  assert.ok(bytes.length - 10 > bound, 'the second chunk alone is past the bound');
  assert.deepEqual(drain(b1), [
    { jsonrpc: '2.0', id: 1, result: { s: 'é' } },
    { jsonrpc: '2.0', id: 2, result: {} },
    { jsonrpc: '2.0', id: 3, result: {} },
  ]);
  b1.append(Buffer.from(':"2.0","id":4,"result":{}}\n'));
  assert.deepEqual(drain(b1), [{ jsonrpc: '2.0', id: 4, result: {} }]);
  const b2 = new LineReadBuffer(Buffer.byteLength(b));
  assert.throws(() => b2.append(bytes), MessageTooLargeError, 'a line past the bound inside a chunk');
});

test('the stdio transport uses it (the SDK field it replaces still exists)', () => {
  const t = createStdioTransport(
    { type: 'stdio', command: process.execPath, args: [], env: {} },
    silentLog,
    hostPlatform(),
  );
  assert.ok((t as unknown as { _readBuffer: unknown })._readBuffer instanceof LineReadBuffer);
});

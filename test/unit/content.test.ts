import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64, safeFileName, toPart, toTranscript, MAX_MEDIA_BYTES } from '../../src/core/render/content';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0a4f5e80000000049454e44ae426082',
  'hex',
);
const WAV = (() => {
  const data = Buffer.alloc(800);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
})();

test('keeps roles, merges consecutive messages of one role, keeps annotations', () => {
  const t = toTranscript({
    description: 'd',
    messages: [
      { role: 'user', content: { type: 'text', text: 'a', annotations: { audience: ['user'], priority: 0.5 } } },
      { role: 'user', content: { type: 'text', text: 'b' } },
      { role: 'assistant', content: { type: 'text', text: 'c' } },
    ],
  });
  assert.deepEqual(
    t.messages.map(m => [m.role, m.parts.length]),
    [
      ['user', 2],
      ['assistant', 1],
    ],
  );
  const first = t.messages[0].parts[0];
  assert.equal(first.kind, 'text');
  if (first.kind === 'text') assert.deepEqual(first.annotations, { audience: ['user'], priority: 0.5 });
});

test('images and audio are validated against the allow-list and their bytes', () => {
  const img = toPart({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
  assert.equal(img.kind, 'image');
  if (img.kind === 'image') {
    assert.equal(img.bytes, PNG.length);
    assert.equal(img.fileName, 'image.png');
  }
  const audio = toPart({ type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' });
  assert.equal(audio.kind, 'audio');
  if (audio.kind === 'audio') assert.equal(audio.durationSeconds, 0.05);
  assert.deepEqual(toPart({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/jpeg' }), {
    kind: 'invalid',
    contentType: 'image',
    reason: 'image claims to be image/jpeg but its data is image/png',
  });
  assert.deepEqual(toPart({ type: 'image', data: '<svg/>', mimeType: 'image/svg+xml' }), {
    kind: 'invalid',
    contentType: 'image',
    reason: 'image type "image/svg+xml" is not supported',
  });
  assert.deepEqual(toPart({ type: 'image', data: 'not base64!', mimeType: 'image/png' }), {
    kind: 'invalid',
    contentType: 'image',
    reason: 'image data is not valid base64',
  });
  const huge = Buffer.concat([PNG, Buffer.alloc(MAX_MEDIA_BYTES)]).toString('base64');
  const big = toPart({ type: 'image', data: huge, mimeType: 'image/png' });
  assert.equal(big.kind, 'invalid');
  if (big.kind === 'invalid') assert.match(big.reason, /too large \(10\.0 MB, limit 10 MB\)/);
});

test('unknown and malformed content becomes an invalid part, not an exception', () => {
  assert.deepEqual(toPart({ type: 'video', data: 'x' }), {
    kind: 'invalid',
    contentType: 'video',
    reason: 'unsupported content type "video"',
  });
  assert.deepEqual(toPart({ type: 'text' }), {
    kind: 'invalid',
    contentType: 'text',
    reason: 'malformed text content',
  });
  const t = toTranscript({
    messages: [
      { role: 'user', content: { type: 'text', text: 'ok' } },
      { role: 'user', content: null },
    ],
  });
  assert.deepEqual(
    t.messages[0].parts.map(p => p.kind),
    ['text', 'invalid'],
  );
});

test('strict base64', () => {
  assert.equal(decodeBase64('aGVsbG8=')?.toString(), 'hello');
  assert.equal(decodeBase64('aGVsbG8')?.toString(), 'hello', 'unpadded base64 is accepted');
  assert.equal(decodeBase64('aGV$bG8='), undefined);
  assert.equal(decodeBase64('a'), undefined);
});

test('file names from server data cannot escape a folder or be rendered as HTML', () => {
  for (const uri of [
    'file:///../../etc/passwd',
    'file:///a/%2e%2e%2f%2e%2e%2fsecret',
    '../../x',
    'file:///C:/..\\..\\win.ini',
    'x://h/.bashrc',
    'file:///',
  ]) {
    const name = safeFileName(uri);
    assert.ok(
      !name.includes('/') && !name.includes('\\') && !name.startsWith('.') && !name.includes('..') && name.length > 0,
      `${uri} → ${name}`,
    );
  }
  assert.equal(safeFileName('file:///demo/page.html', 'text/html'), 'page.html.txt');
  assert.equal(safeFileName('file:///demo/pic.svg'), 'pic.svg.txt');
  assert.equal(safeFileName('file:///demo/notes.md', 'text/markdown'), 'notes.md');
  assert.equal(safeFileName('file:///demo/data', 'application/octet-stream'), 'data.bin');
});

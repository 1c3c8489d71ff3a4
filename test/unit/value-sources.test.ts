import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  sourceRows,
  clipboardValue,
  fileValue,
  firstLine,
  formatSize,
  MAX_SOURCE_BYTES,
} from '../../src/core/run/requests/value-sources';

test('each source with something in it has a row naming its source, with a preview and the size', () => {
  const rows = sourceRows({
    selection: { text: 'const a = 1;\nconst b = 2;', file: 'a.ts' },
    activeFile: { text: 'hello', name: 'a.ts', path: '/w/src/a.ts' },
    clipboard: 'copied',
  });
  assert.deepEqual(
    rows.map(r => r.source),
    ['selection', 'activeFile', 'activePath', 'clipboard', 'pickFile'],
  );
  assert.equal(rows[0].value, 'const a = 1;\nconst b = 2;');
  assert.equal(rows[0].description, 'a.ts · «const a = 1;» · 2 lines, 25 B');
  assert.equal(rows[1].value, 'hello');
  assert.equal(rows[2].value, '/w/src/a.ts');
  assert.equal(rows[2].description, '/w/src/a.ts');
  const shown = sourceRows({ activeFile: { text: 'x', name: 'a.ts', path: '/w/src/a.ts', shownPath: 'src/a.ts' } });
  assert.equal(shown[1].description, 'src/a.ts', 'the path row shows the path within its workspace folder');
  assert.equal(shown[1].value, '/w/src/a.ts', 'and sends the whole path');
  assert.equal(rows[3].description, 'clipboard · «copied» · 6 B');
  assert.equal(rows[4].value, undefined);
});

test('empty selection, empty clipboard, no editor and an unsaved editor leave their rows out', () => {
  assert.deepEqual(
    sourceRows({ selection: { text: '', file: 'a.ts' }, clipboard: '' }).map(r => r.source),
    ['pickFile'],
  );
  assert.deepEqual(
    sourceRows({ activeFile: { text: 'x', name: 'Untitled-1' } }).map(r => r.source),
    ['activeFile', 'pickFile'],
  );
});

test('an unread clipboard (a browser window) has a row that reads it when chosen, and comes first when used last', () => {
  const rows = sourceRows({ clipboard: { unread: true }, selection: { text: 's', file: 'a.ts' } });
  assert.deepEqual(
    rows.map(r => r.source),
    ['selection', 'clipboard', 'pickFile'],
  );
  assert.equal(rows[1].value, undefined);
  assert.equal(rows[1].problem, undefined);
  assert.equal(rows[1].description, 'clipboard · read when you choose it');
  const again = sourceRows({ clipboard: { unread: true }, lastSource: 'clipboard' });
  assert.equal(again[0].source, 'clipboard');
  assert.equal(again[0].description, 'last used · clipboard · read when you choose it');
});

test('a clipboard read when its row was chosen: its text, or why not (empty, above the cap)', () => {
  assert.deepEqual(clipboardValue('copied\nline'), { value: 'copied\nline' });
  assert.deepEqual(clipboardValue(''), { problem: 'The clipboard holds no text.' });
  assert.deepEqual(clipboardValue('x'.repeat(MAX_SOURCE_BYTES + 1)), {
    problem: 'Too large: 256.0 KB (the limit is 256.0 KB).',
  });
  assert.deepEqual(clipboardValue('é'.repeat(MAX_SOURCE_BYTES / 2)), { value: 'é'.repeat(MAX_SOURCE_BYTES / 2) });
});

test('the source used last time comes first and says so', () => {
  const rows = sourceRows({ selection: { text: 's', file: 'a.ts' }, clipboard: 'c', lastSource: 'clipboard' });
  assert.deepEqual(
    rows.map(r => r.source),
    ['clipboard', 'selection', 'pickFile'],
  );
  assert.match(rows[0].description, /^last used · clipboard/);
  assert.doesNotMatch(rows[1].description, /last used/);
});

test('a value above the cap is refused with its size, not cut', () => {
  const big = 'x'.repeat(MAX_SOURCE_BYTES + 1);
  const [r] = sourceRows({ clipboard: big });
  assert.equal(r.value, undefined);
  assert.equal(r.problem, 'Too large: 256.0 KB (the limit is 256.0 KB).');
  assert.equal(sourceRows({ clipboard: 'é'.repeat(MAX_SOURCE_BYTES / 2) })[0].value?.length, MAX_SOURCE_BYTES / 2);
  assert.equal(
    sourceRows({ clipboard: 'é'.repeat(MAX_SOURCE_BYTES / 2 + 1) })[0].value,
    undefined,
    'the cap counts UTF-8 bytes',
  );
});

test('previews are one safe line: no control characters, no icon syntax, cut long', () => {
  assert.equal(firstLine('\n\n  $(alert) evil\u0007text\nsecond'), '$\u200b(alert) evil text');
  assert.equal(firstLine('y'.repeat(100)), `${'y'.repeat(60)}…`);
  assert.equal(formatSize(2 * 1024 * 1024), '2.0 MB');
});

test('a picked file: UTF-8 text is its value (BOM dropped); binary, invalid UTF-8 and too large are refused by name', () => {
  assert.deepEqual(fileValue(Buffer.from('\ufeffhi\n'), 'a.txt'), { value: 'hi\n' });
  assert.deepEqual(fileValue(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 'x.png'), {
    problem: 'x.png is not UTF-8 text.',
  });
  assert.deepEqual(fileValue(Buffer.from('a\u0000b'), 'n.bin'), { problem: 'n.bin is not UTF-8 text.' });
  assert.deepEqual(fileValue(Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x61), 'big.log'), {
    problem: 'big.log is too large: 256.0 KB (the limit is 256.0 KB).',
  });
});

test('"Output of a command…" names the folder and the cap; in Restricted Mode it only says why it cannot run', () => {
  const [cmd] = sourceRows({ command: { folder: 'web' } }).filter(r => r.source === 'command');
  assert.equal(cmd.label, '$(terminal) Output of a command…');
  assert.equal(
    cmd.description,
    'runs a command you type, in web, after you confirm it; its output (at most 256.0 KB) becomes the value',
  );
  assert.equal(cmd.problem, undefined);
  const [refused] = sourceRows({ command: { restricted: true }, lastSource: 'command' });
  assert.equal(refused.source, 'command');
  assert.equal(
    refused.problem,
    'Not available in Restricted Mode: no command runs in a workspace you have not trusted.',
  );
  assert.equal(refused.value, undefined);
  assert.deepEqual(
    sourceRows({}).map(r => r.source),
    ['pickFile'],
    'no folder: no command row',
  );
});

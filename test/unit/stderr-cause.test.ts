// The line a crashed server's stderr gives as the cause. Samples in test/fixtures/stderr/ are what real
// programs wrote when they failed (Node 20, Python 3.11, Rust 1.9x, Go 1.19, npm 11; paths neutralised).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { StderrTail, stderrCause } from '../../src/core/protocol/limits/stderr-cause';

const sample = (name: string) =>
  fs.readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'stderr', `${name}.txt`), 'utf8').split('\n');

const SAMPLES: Array<[string, string]> = [
  // Node: the error line, not "Node.js v20.20.2"; a fetch failure keeps its [cause].
  ['node-fetch', 'TypeError: fetch failed [cause]: Error: connect ECONNREFUSED 127.0.0.1:39999'],
  ['node-cjs-missing', "Error: Cannot find module './no-such-module'"],
  [
    'node-esm-missing',
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod-nope' imported from /home/dev/server/esm.mjs",
  ],
  ['node-eaddrinuse', 'Error: listen EADDRINUSE: address already in use :::44341'],
  ['node-typeerror', "TypeError: Cannot read properties of undefined (reading 'token')"],
  [
    'node-reject',
    'UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "oops".',
  ],
  // Python: the exception under the traceback; a chain's last; the exception inside a TaskGroup's group.
  ['py-missing', "ModuleNotFoundError: No module named 'mcp_nope'"],
  ['py-chained', 'RuntimeError: missing API_KEY in environment'],
  ['py-group', 'ConnectionError: [Errno 111] Connect call failed'],
  // Rust: the panic with its message from the next line.
  [
    'rust-panic',
    'thread \'main\' (4369) panicked at main.rs:4:63: called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }',
  ],
  [
    'rust-thread-panic',
    "thread 'tokio-runtime-worker' (4436) panicked at tokio.rs:2:88: failed to bind 127.0.0.1:8080: Address already in use (os error 98)",
  ],
  // Go: the panic line; log.Fatal has no keyword, so its last line.
  ['go-panic', 'panic: open /etc/mcp-nope/config.yaml: no such file or directory'],
  ['go-nil', 'panic: runtime error: invalid memory address or nil pointer dereference'],
  ['go-logfatal', '2026/11/25 17:59:35 load tools: open tools.json: no such file or directory'],
  // A CLI that prints its usage after its error: the error, not the usage's last heading.
  ['vercel-config', 'Configuration error: Invalid Vercel API key format'],
  // npx: npm's first line that says something, not "A complete log of this run …".
  ['npx-404', 'npm error 404 Not Found - GET http://127.0.0.1:39273/@acme%2fmcp-server-demo - Not found'],
  [
    'npx-offline',
    "npm error request to https://registry.example/mcp-prompts-no-such-pkg-xyz failed: cache mode is 'only-if-cached' but no cached response is available.",
  ],
  [
    'npx-refused',
    'npm error FetchError: request to http://127.0.0.1:39999/mcp-prompts-no-such-pkg-xyz failed, reason: connect ECONNREFUSED 127.0.0.1:39999',
  ],
];

for (const [name, expected] of SAMPLES) {
  test(`the cause in ${name}`, () => {
    const cause = stderrCause(sample(name));
    assert.equal(cause?.text, expected);
    // A plain traceback and log.Fatal end with the cause; the others write more after it.
    assert.equal(cause?.last, ['py-missing', 'py-chained', 'go-logfatal'].includes(name));
  });
}

test('without an error line: the last line that is not boilerplate', () => {
  assert.deepEqual(stderrCause(['starting', 'faulty: cannot open /var/lib/faulty/state.db: no such file', '']), {
    text: 'faulty: cannot open /var/lib/faulty/state.db: no such file',
    last: true,
  });
  // Node's closing line, blank lines and a stack alone say nothing.
  assert.deepEqual(stderrCause(['listening on stdio', '    at main (/srv/index.js:3:9)', '', 'Node.js v20.20.2']), {
    text: 'listening on stdio',
    last: false,
  });
  assert.equal(stderrCause(['', 'Node.js v22.1.0', '    at x (y.js:1:1)']), undefined);
  assert.equal(stderrCause([]), undefined);
});

test('a heading (`Usage:`, `Options:`) is the cause only when nothing else was said', () => {
  assert.deepEqual(stderrCause(['starting on stdio', 'Options:', '  --port  the port to listen on']), {
    text: 'starting on stdio',
    last: false,
  });
  assert.deepEqual(stderrCause(['Usage:', '  mcp-demo --token TOKEN']), { text: 'Usage:', last: false });
  // An error named in its first words is an error line; a log line that mentions one is not.
  assert.equal(stderrCause(['Fatal error: no database', 'bye'])?.text, 'Fatal error: no database');
  assert.equal(stderrCause(['INFO: Error handling set up', 'ready'])?.text, 'ready');
});

test('Windows line ends change nothing', () => {
  const crlf = sample('py-missing').map(l => `${l}\r`);
  assert.equal(stderrCause(crlf)?.text, "ModuleNotFoundError: No module named 'mcp_nope'");
  // A bare exception name is an error line too, after an earlier one.
  assert.equal(stderrCause(['Error: retrying in 1 s\r', 'KeyboardInterrupt\r'])?.text, 'KeyboardInterrupt');
});

test("cmd.exe's report of a missing program (npx.cmd without node) is the cause, not its second line", () => {
  const cmd = ["'node' is not recognized as an internal or external command,\r", 'operable program or batch file.\r'];
  assert.deepEqual(stderrCause(cmd), {
    text: "'node' is not recognized as an internal or external command,",
    last: false,
  });
});

test('the latest error wins over an earlier one the server survived', () => {
  const cause = stderrCause([
    'Error: config.json not found, using defaults',
    'listening',
    'TypeError: server.connect is not a function',
    '    at main (/srv/index.js:9:3)',
  ]);
  assert.equal(cause?.text, 'TypeError: server.connect is not a function');
});

test('log lines that merely mention errors are not error lines', () => {
  const cause = stderrCause(['INFO: Error handling set up', 'WARN: no API key: rate limited', 'ready']);
  assert.deepEqual(cause, { text: 'ready', last: true });
});

test('a minified source line of a megabyte is judged by its start and cut in the message', () => {
  const tail = new StderrTail([]);
  tail.add(`var a=${'x'.repeat(1_000_000)};`);
  assert.ok(tail.cause()!.length <= 'last stderr: '.length + 300);
  tail.add('Error: boom');
  tail.add('Node.js v20.20.2');
  assert.equal(tail.cause(), 'stderr: Error: boom');
});

test('the tail says "last stderr" for the last line, hides secrets and keeps a bounded tail', () => {
  const tail = new StderrTail(['s3cret']);
  assert.equal(tail.cause(), undefined, 'nothing said yet');
  tail.add('Error: token s3cret refused');
  assert.equal(tail.cause(), 'last stderr: Error: token *** refused');
  tail.add('');
  assert.equal(tail.cause(), 'last stderr: Error: token *** refused', 'a blank line changes nothing');
  for (let i = 0; i < 100; i++) tail.add(`line ${i}`);
  // The error scrolled out of the kept tail: the last line again.
  assert.equal(tail.cause(), 'last stderr: line 99');
});

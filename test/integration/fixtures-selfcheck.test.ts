// The fixture servers as a client we did not write sees them: test/fixtures/selfcheck.mjs drives every
// fixture over stdio, Streamable HTTP and legacy SSE with the v1 SDK's own client (and server-everything
// beside them), so no fixture leans on a quirk of our client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './helpers';

test('every fixture server answers a raw v1 SDK client over stdio, Streamable HTTP and SSE', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    resolve => {
      const child = execFile(
        process.execPath,
        [path.join(ROOT, 'test', 'fixtures', 'selfcheck.mjs')],
        { cwd: ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
        (_err, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
      );
    },
  );
  assert.equal(code, 0, `selfcheck failed:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
  assert.match(stdout, /^selfcheck OK: \d+ checks/m);
});

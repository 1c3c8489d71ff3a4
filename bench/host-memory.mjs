// 9. Memory over time in the real VS Code host: 1,000 runs of a prompt that answers with a 5 MB image
// (test/fixtures/cacheable.mjs, CACHEABLE_IMAGE_BYTES) through the extension's own runPromptInEditor
// command, extension-host heap before / after (bench/host-memory-entry.js runs inside the host).
// One host at a time on this machine: the run takes /tmp/mcp-host.lock itself (flock), so it waits
// for a host test that holds it. Not part of `npm test`; `npm run bench -- --only=host-memory`. Without
// the host (node scripts/host.mjs setup installs it, as npm test does) the section is skipped.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH, ROOT, row } from './lib.mjs';

const LOCK = '/tmp/mcp-host.lock';
const ENTRY = path.join(BENCH, 'host-memory-entry.js');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cacheable.mjs');
const IMAGE_BYTES = 5 * 1024 * 1024;

/** In the lock: one host with the image server in its workspace, the entry run inside it. */
async function childMain(resultFile, runs) {
  const H = await import('../scripts/host-harness.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-memory-'));
  const prompts = path.join(dir, 'prompts.json');
  fs.writeFileSync(prompts, JSON.stringify([{ name: 'shot', title: 'A 5 MB screenshot' }]));
  const servers = {
    img: {
      type: 'stdio',
      command: process.execPath,
      args: [FIXTURE],
      env: { CACHEABLE_PROMPTS: prompts, CACHEABLE_IMAGE_BYTES: String(IMAGE_BYTES) },
    },
  };
  try {
    const code = await H.runExtensionTests({
      extensionPath: ROOT,
      testsPath: ENTRY,
      resultFile,
      label: 'host-memory',
      env: {
        MCP_PROMPTS_BENCH_RUNS: String(runs),
        // Diagnosis: a .heapsnapshot of the extension host after the runs (bench/heap-retainers.mjs reads it).
        ...(process.env.MCP_PROMPTS_HEAP_SNAPSHOT
          ? { MCP_PROMPTS_HEAP_SNAPSHOT: process.env.MCP_PROMPTS_HEAP_SNAPSHOT }
          : {}),
      },
      prepareWorkspace: ws => {
        fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
        fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2));
      },
      log: line => {
        if (/error|fail|^host-memory:/i.test(line)) process.stderr.write(`  | ${line}\n`);
      },
      timeout: 20 * 60 * 1000,
    });
    return code;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What of the real host is not installed here (scripts/host.mjs setup installs it). */
async function hostMissing() {
  const host = await import('../scripts/host.mjs');
  return [host.serverMain, host.node24, host.chromiumPath].filter(f => !fs.existsSync(f));
}

export async function run({ quick = false } = {}) {
  const missing = await hostMissing();
  if (missing.length)
    return {
      skipped: `the VS Code host is not installed (${missing.join(', ')} missing): node scripts/host.mjs setup installs it (a few minutes, as npm test does), then npm run bench -- --only=host-memory`,
    };
  const runs = quick ? 100 : 1000;
  const resultFile = path.join(os.tmpdir(), `mcp-host-memory-${process.pid}.json`);
  fs.rmSync(resultFile, { force: true });
  const code = await new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      [LOCK, process.execPath, path.join(BENCH, 'host-memory.mjs'), '--child', resultFile, String(runs)],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: process.env,
      },
    );
    child.on('error', reject);
    child.on('exit', c => resolve(c));
  });
  if (!fs.existsSync(resultFile)) throw new Error(`the host run wrote no result (exit code ${code})`);
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  fs.rmSync(resultFile, { force: true });
  const delta = r.after.heapMB - r.before.heapMB;
  const peak = Math.max(...r.samples.map(x => x.heapMB));
  return {
    rows: [
      row(
        `extension-host heap after ${r.runs} runs with a 5 MB image, over before the first run`,
        delta,
        undefined,
        'MB',
        // The issue's target is for 1,000 runs; a shorter run (--quick) is checked against it too, and says so.
        { abs: 50 },
        `${r.before.heapMB.toFixed(0)} → ${r.after.heapMB.toFixed(0)} MB heapUsed; ${r.settle}${r.runs < 1000 ? `; ${r.runs} runs, not the 1,000 of the target` : ''}`,
      ),
      row('peak heapUsed during the runs (no gc), over before', peak - r.before.heapMB, undefined, 'MB', undefined),
      row('time per run (get, transcript preview, close)', (r.seconds * 1000) / r.runs, undefined, 'ms', undefined),
    ],
    notes: [
      `heapUsed every ${r.samples[0]?.runs} runs (before gc): ${r.samples.map(s => s.heapMB.toFixed(0)).join(', ')} MB; rss ${r.before.rssMB.toFixed(0)} → ${r.after.rssMB.toFixed(0)} MB`,
      `after the runs the extension host holds ${r.documents.transcripts} transcript documents, ${(r.documents.chars / 1024 / 1024).toFixed(1)} Mi characters (VS Code keeps closed ones for 3 minutes; evicted results' documents are one line)`,
      r.afterSnapshot !== undefined
        ? `after the heap snapshot's own full gc (all available garbage): ${r.afterSnapshot.toFixed(0)} MB heapUsed, +${(r.afterSnapshot - r.before.heapMB).toFixed(0)} MB over before; node bench/heap-retainers.mjs ${process.env.MCP_PROMPTS_HEAP_SNAPSHOT} says what holds it`
        : 'what holds it: MCP_PROMPTS_HEAP_SNAPSHOT=<file> writes heap snapshots before and after; node bench/heap-retainers.mjs <file>',
    ],
    data: r,
  };
}

if (process.argv[2] === '--child') {
  childMain(process.argv[3], Number(process.argv[4])).then(
    code => process.exit(code),
    err => {
      console.error(err instanceof Error ? err.stack : String(err));
      process.exit(1);
    },
  );
}

// Runs INSIDE the real VS Code extension host (extensionTestsPath of bench/host-memory.mjs): N runs of a
// prompt whose answer carries a 5 MB image, through the extension's own command (the transcript editor
// path: runPromptInEditor → runner → ResultStore → markdown preview), and the extension host's heap
// before and after. Writes its figures as JSON to MCP_PROMPTS_HOST_RESULT.
const fs = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');
const vscode = require('vscode');

const EXT_ID = 'mcp-prompts.mcp-prompts';
const MB = 1024 * 1024;
const sleep = ms => new Promise(r => setTimeout(r, ms));

/** A real gc when the host lets us switch it on (the flag is read when gc() is first made), else none. */
function gcFunction() {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    if (typeof gc === 'function') return gc;
  } catch {
    /* not available: settle instead */
  }
  return undefined;
}

/** Heap after gc (twice: finalizers free more) or, without gc, once it stops changing by > 1 MB over 2 s. */
async function settledHeap(gc) {
  if (gc) {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(200);
    }
    return process.memoryUsage();
  }
  let last = process.memoryUsage();
  for (let i = 0; i < 15; i++) {
    await sleep(2000);
    const now = process.memoryUsage();
    if (Math.abs(now.heapUsed - last.heapUsed) < MB) return now;
    last = now;
  }
  return last;
}

async function waitFor(check, what, timeout = 120000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function run() {
  const runs = Number(process.env.MCP_PROMPTS_BENCH_RUNS || 1000);
  const ext = vscode.extensions.getExtension(EXT_ID);
  if (!ext) throw new Error(`${EXT_ID} is not installed`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  // The img server is the workspace's: it waits for consent, and this window refuses to show dialogs
  // (extension-test mode), so the run allows it as a person's Start Server does (as test/host/index.js).
  const allowWaiting = () => {
    for (const h of api.configuration.held) if (h.reason === 'consent') void api.configuration.allow(h.def.id);
  };
  api.configuration.onDidLoad(allowWaiting);
  allowWaiting();
  await waitFor(
    () => api.catalog.servers.find(s => s.id === 'img')?.prompts.find(p => p.prompt.name === 'shot'),
    'the img server’s prompt',
  );
  const once = async () => {
    // As a key binding runs it: the command takes a binding's args (a tree row is only one the tree made).
    const binding = { server: 'img', prompt: 'shot' };
    const stored = await vscode.commands.executeCommand('mcpPrompts.runPromptInEditor', binding);
    const image = stored?.transcript.messages.flatMap(m => m.parts).find(p => p.kind === 'image');
    if (!image || image.bytes < 5 * MB) throw new Error(`the run returned no 5 MB image (${image?.bytes} bytes)`);
    // One transcript tab at a time, as a person closes them; what we keep must not depend on open tabs.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  };
  const gc = gcFunction();
  // Before any run (the server is connected, so the lazily loaded MCP client is already in): what the
  // runs leave is everything kept since, ours and VS Code's, with no warm-up runs hiding the first ones.
  const before = await settledHeap(gc);
  const snapshot = process.env.MCP_PROMPTS_HEAP_SNAPSHOT;
  if (snapshot) v8.writeHeapSnapshot(snapshot.replace(/\.heapsnapshot$/, '') + '.before.heapsnapshot');
  const samples = [];
  const t0 = Date.now();
  for (let i = 1; i <= runs; i++) {
    await once();
    if (i % Math.max(1, Math.floor(runs / 10)) === 0) {
      samples.push({ runs: i, heapMB: process.memoryUsage().heapUsed / MB, s: (Date.now() - t0) / 1000 });
      console.log(`host-memory: ${i} runs, heapUsed ${samples.at(-1).heapMB.toFixed(0)} MB, ${samples.at(-1).s} s`);
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  const after = await settledHeap(gc);
  // Transcript documents the extension host still holds (VS Code keeps closed ones for minutes); their
  // length without getText(), which would make the host cache a copy of the text.
  const transcripts = vscode.workspace.textDocuments.filter(d => d.uri.scheme === 'mcp-prompts-transcript');
  const documents = {
    transcripts: transcripts.length,
    chars: transcripts.reduce((n, d) => n + d.offsetAt(d.lineAt(d.lineCount - 1).range.end), 0),
  };
  if (snapshot) v8.writeHeapSnapshot(snapshot);
  // The snapshot's own full gc also clears weak references: heapUsed after it, for comparison.
  const afterSnapshot = snapshot ? process.memoryUsage().heapUsed / MB : undefined;
  const result = {
    runs,
    imageBytes: 5 * MB,
    seconds,
    settle: gc
      ? 'gc() via v8.setFlagsFromString(--expose-gc), 3 passes'
      : 'no gc: waited until heapUsed moved < 1 MB in 2 s',
    before: { heapMB: before.heapUsed / MB, rssMB: before.rss / MB, externalMB: before.external / MB },
    after: { heapMB: after.heapUsed / MB, rssMB: after.rss / MB, externalMB: after.external / MB },
    samples,
    documents,
    afterSnapshot,
  };
  fs.writeFileSync(process.env.MCP_PROMPTS_HOST_RESULT, JSON.stringify(result));
}

module.exports = { run };

// 3. Scale, one measurement per process (run with --expose-gc):
//   node --expose-gc bench/scale-child.mjs core|raw SERVERS PROMPTS PAGE_SIZE [URL,URL,...]
// With URLs: Streamable HTTP servers already running (started by scale.mjs) instead of stdio spawns.
// core: one Catalog (eager, as the extension) over SERVERS paginated stdio fixtures; time from
//       setServers() until it holds every prompt, heap growth, then the item mapping timings.
//       core-warm: the same with each server's era already remembered (seeded as a persisted era memory
//       would give it on any start after a server's first): no version probe, no throw-away process.
// raw:  SERVERS plain SDK Clients connected and listed concurrently, prompts kept in arrays.
// Prints one JSON line on stdout.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fixtureCommand } from '../test/fixtures/launch.mjs';
import { loadCore, median, now } from './lib.mjs';

const [mode, nServers, nPrompts, pageSize] = [process.argv[2], +process.argv[3], +process.argv[4], +process.argv[5]];
const urls = process.argv[6] ? process.argv[6].split(',') : undefined;
if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
const { command, args } = fixtureCommand('paginated');
const env = { PAGINATED_COUNT: String(nPrompts), PAGINATED_PAGE_SIZE: String(pageSize) };
const cpuMs = u => (u.user + u.system) / 1000;
const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};

// ---- the shipped item mapping: src/core/view/items.ts, which the picker and the tree render as they are ----
// VS Code resolves a TreeItem for every child of an expanded node; servers are expanded by default.
const pickerItems = (core, servers) => core.pickerItems(servers);
function treeItems(core, catalog) {
  const out = [];
  for (const entry of catalog.servers) for (const p of entry.prompts) out.push(core.promptItem(p));
  return out;
}

async function rawList(client) {
  const all = [];
  let cursor;
  do {
    const r = await client.listPrompts(cursor === undefined ? {} : { cursor });
    for (const p of r.prompts) all.push(p);
    cursor = r.nextCursor;
  } while (cursor !== undefined);
  return all;
}

const result = { mode, servers: nServers, promptsPerServer: nPrompts, pageSize };
const expected = nServers * nPrompts;
if (mode === 'core' || mode === 'core-warm') {
  const core = loadCore();
  const servers = Object.fromEntries(
    Array.from({ length: nServers }, (_, i) => [
      `s${String(i + 1).padStart(2, '0')}`,
      urls ? { type: 'http', url: urls[i] } : { command, args, env },
    ]),
  );
  const defs = core.parseConfigObject({ servers }, 'workspace').servers;
  if (mode === 'core-warm') for (const def of defs) core.defaultEraMemory.set(core.eraKey(def), { kind: 'legacy' });
  const before = heap();
  const cpu0 = process.cpuUsage();
  const t0 = now();
  const catalog = new core.Catalog({ start: 'eager' });
  catalog.setServers(defs);
  await catalog.ready();
  result.loadMs = now() - t0;
  result.clientCpuMs = cpuMs(process.cpuUsage(cpu0));
  result.prompts = catalog.prompts.length;
  result.errors = catalog.servers.filter(e => e.listError).map(e => e.listError.message);
  result.heapGrowthMB = (heap() - before) / 2 ** 20;
  if (result.prompts !== expected)
    throw new Error(`catalog holds ${result.prompts} prompts, expected ${expected}: ${result.errors.join('; ')}`);
  if (urls) {
    await catalog.dispose();
    process.stdout.write(JSON.stringify(result) + '\n');
    process.exit(0);
  }
  // Item mapping: first (cold) run, then a median over repetitions.
  const time = fn => {
    const t = now();
    const r = fn();
    return [now() - t, r];
  };
  const [pickFirst, items] = time(() => pickerItems(core, catalog.servers));
  const [treeFirst, nodes] = time(() => treeItems(core, catalog));
  if (items.length !== expected + nServers || nodes.length !== expected)
    throw new Error(`mapping produced ${items.length} / ${nodes.length} items`);
  const pick = [];
  const tree = [];
  for (let i = 0; i < 10; i++) {
    pick.push(time(() => pickerItems(core, catalog.servers))[0]);
    tree.push(time(() => treeItems(core, catalog))[0]);
  }
  Object.assign(result, {
    pickerFirstMs: pickFirst,
    treeFirstMs: treeFirst,
    pickerMedianMs: median(pick),
    treeMedianMs: median(tree),
  });
  // Re-list everything on the running servers (what a list_changed on all of them costs).
  const relist = [];
  for (let i = 0; i < 3; i++) {
    const t = now();
    await catalog.refresh();
    relist.push(now() - t);
  }
  result.relistMs = median(relist);
  if (catalog.prompts.length !== expected) throw new Error('re-list lost prompts');
  const tc = now();
  await catalog.dispose();
  result.disposeMs = now() - tc;
} else {
  const before = heap();
  const cpu0 = process.cpuUsage();
  const t0 = now();
  const clients = [];
  const lists = await Promise.all(
    Array.from({ length: nServers }, async (_, i) => {
      const client = new Client({ name: 'bench-raw', version: '0' }, { capabilities: {} });
      clients.push(client);
      await client.connect(
        urls
          ? new StreamableHTTPClientTransport(new URL(urls[i]))
          : new StdioClientTransport({ command, args, env, stderr: 'ignore' }),
      );
      return rawList(client);
    }),
  );
  result.loadMs = now() - t0;
  result.clientCpuMs = cpuMs(process.cpuUsage(cpu0));
  result.prompts = lists.reduce((n, l) => n + l.length, 0);
  result.heapGrowthMB = (heap() - before) / 2 ** 20;
  if (result.prompts !== expected) throw new Error(`raw holds ${result.prompts} prompts, expected ${expected}`);
  const relist = [];
  for (let i = 0; i < 3; i++) {
    const t = now();
    await Promise.all(clients.map(rawList));
    relist.push(now() - t);
  }
  result.relistMs = median(relist);
  await Promise.all(clients.map(c => c.close()));
}
process.stdout.write(JSON.stringify(result) + '\n');

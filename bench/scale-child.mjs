// 3. Scale, one measurement per process (run with --expose-gc):
//   node --expose-gc bench/scale-child.mjs '{"mode":"core","era":"legacy","remembered":false,...}'
// era: `legacy` = 2025-11-25 servers (the paginated fixture, PROMPTS over pages of PAGE_SIZE);
//      `modern` = 2026-07-28-only servers (test/fixtures/modern.mjs with MODERN_PROMPTS, one page).
// remembered: each server's era is known before the start, as the persisted era memory has it on every
//      start after a server's first (`prior`: the discover result of an earlier start); else nothing is.
// urls: Streamable HTTP servers already running (started by scale.mjs) instead of stdio spawns.
// core: one Catalog (eager, as the extension) over the servers; time from setServers() until it holds
//       every prompt; for a 2025 first start also heap growth, the item mapping and a re-list.
// raw:  plain SDK Clients connected and listed concurrently, prompts kept in arrays, each server started
//       as the core starts it (bench/server-start.mjs): a 2025 server gets the plain initialize
//       handshake; a 2026 server the SDK's negotiation (`auto`, which probes on a throw-away second
//       process), or the remembered era as `prior`.
// Prints one JSON line on stdout.
import { fixtureCommand, modernCommand } from '../test/fixtures/launch.mjs';
import { loadCore, median, now } from './lib.mjs';
import { treeCpuMs } from './tree-cpu.mjs';
import { serverStart } from './server-start.mjs';

const opts = JSON.parse(process.argv[2]);
const { mode, era, remembered = false, servers: nServers, prompts: nPrompts, pageSize = 100, urls, prior } = opts;
if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
const server =
  era === 'modern'
    ? { ...modernCommand(), env: { MODERN_PROMPTS: String(nPrompts) } }
    : {
        ...fixtureCommand('paginated'),
        env: { PAGINATED_COUNT: String(nPrompts), PAGINATED_PAGE_SIZE: String(pageSize) },
      };
/** The modern fixture has two prompts of its own besides the numbered ones. */
const perServer = era === 'modern' ? nPrompts + 2 : nPrompts;
const expected = nServers * perServer;
const cpuMs = u => (u.user + u.system) / 1000;
const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};
/** Heap, mapping and re-list: measured once, on the 2025 first start and its raw twin. */
const full = era === 'legacy' && !remembered;

// ---- the shipped item mapping: src/core/view/picker-rows.ts and tree-items.ts, which the picker and the tree render as they are ----
// VS Code resolves a TreeItem for every child of an expanded node; servers are expanded by default.
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

const result = { mode, era, remembered, servers: nServers, promptsPerServer: perServer, pageSize };
if (mode === 'core') {
  const core = loadCore();
  const config = Object.fromEntries(
    Array.from({ length: nServers }, (_, i) => [
      `s${String(i + 1).padStart(2, '0')}`,
      urls ? { type: 'http', url: urls[i] } : server,
    ]),
  );
  const defs = core.parseConfigObject({ servers: config }, 'workspace').servers;
  if (remembered) for (const def of defs) core.defaultEraMemory.set(core.eraKey(def), prior);
  const before = heap();
  const cpu0 = process.cpuUsage();
  const tree0 = treeCpuMs();
  const t0 = now();
  const catalog = new core.Catalog({ start: 'eager' });
  catalog.setServers(defs);
  await catalog.ready();
  result.loadMs = now() - t0;
  result.treeCpuMs = treeCpuMs() - tree0;
  result.clientCpuMs = cpuMs(process.cpuUsage(cpu0));
  result.prompts = catalog.prompts.length;
  result.errors = catalog.servers.filter(e => e.listError).map(e => e.listError.message);
  result.eras = [...new Set(catalog.servers.map(e => e.connection.info?.era))];
  if (result.prompts !== expected)
    throw new Error(`catalog holds ${result.prompts} prompts, expected ${expected}: ${result.errors.join('; ')}`);
  if (full && !urls) {
    result.heapGrowthMB = (heap() - before) / 2 ** 20;
    // Item mapping: first (cold) run, then a median over repetitions.
    const time = fn => {
      const t = now();
      const r = fn();
      return [now() - t, r];
    };
    const [pickFirst, items] = time(() => core.pickerItems(catalog.servers));
    const [treeFirst, nodes] = time(() => treeItems(core, catalog));
    if (items.length !== expected + nServers || nodes.length !== expected)
      throw new Error(`mapping produced ${items.length} / ${nodes.length} items`);
    const pick = [];
    const tree = [];
    for (let i = 0; i < 10; i++) {
      pick.push(time(() => core.pickerItems(catalog.servers))[0]);
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
  }
  await catalog.dispose();
} else {
  // The SDK's own client from the same bundle as the core: both sides run the same SDK code.
  const { Client, StdioClientTransport, StreamableHTTPClientTransport } = loadCore();
  const before = heap();
  const cpu0 = process.cpuUsage();
  const tree0 = treeCpuMs();
  const t0 = now();
  const clients = [];
  const negotiation = era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {};
  const lists = await Promise.all(
    Array.from({ length: nServers }, async (_, i) => {
      const client = new Client({ name: 'bench-raw', version: '0' }, { capabilities: {}, ...negotiation });
      clients.push(client);
      await client.connect(
        urls
          ? new StreamableHTTPClientTransport(new URL(urls[i]))
          : new StdioClientTransport({ ...server, ...serverStart(server.env), stderr: 'ignore' }),
        remembered && era === 'modern' ? { prior } : {},
      );
      return rawList(client);
    }),
  );
  result.loadMs = now() - t0;
  result.treeCpuMs = treeCpuMs() - tree0;
  result.clientCpuMs = cpuMs(process.cpuUsage(cpu0));
  result.prompts = lists.reduce((n, l) => n + l.length, 0);
  if (result.prompts !== expected) throw new Error(`raw holds ${result.prompts} prompts, expected ${expected}`);
  if (full && !urls) {
    result.heapGrowthMB = (heap() - before) / 2 ** 20;
    const relist = [];
    for (let i = 0; i < 3; i++) {
      const t = now();
      await Promise.all(clients.map(rawList));
      relist.push(now() - t);
    }
    result.relistMs = median(relist);
  }
  await Promise.all(clients.map(c => c.close()));
}
process.stdout.write(JSON.stringify(result) + '\n');

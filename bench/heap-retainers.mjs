// Diagnosis for the host-memory section: what holds the heap in a .heapsnapshot (v8.writeHeapSnapshot,
// MCP_PROMPTS_HEAP_SNAPSHOT=<file> for bench/host-memory.mjs). Prints self size by type/constructor and,
// for every object of at least --min MB, its shortest strong retainer path from the GC roots.
//   node --max-old-space-size=8192 bench/heap-retainers.mjs <file.heapsnapshot> [--min=1]
import fs from 'node:fs';

const file = process.argv[2];
const minMB = Number(process.argv.find(a => a.startsWith('--min='))?.slice(6) ?? 1);
const MB = 1024 * 1024;
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const { node_fields: NF, edge_fields: EF, node_types: NT, edge_types: ET } = snap.snapshot.meta;
const nodeTypes = NT[0];
const edgeTypes = ET[0];
const [N_TYPE, N_NAME, N_SIZE, N_EDGES] = ['type', 'name', 'self_size', 'edge_count'].map(f => NF.indexOf(f));
const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map(f => EF.indexOf(f));
const nodes = snap.nodes;
const edges = snap.edges;
const strings = snap.strings;
const nfl = NF.length;
const efl = EF.length;
const count = nodes.length / nfl;

// First edge of each node, and the reverse (retainer) edges.
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * nfl + N_EDGES] * efl;
}
firstEdge[count] = edges.length;
const weak = edgeTypes.indexOf('weak');
const shortcut = edgeTypes.indexOf('shortcut');

const type = i => nodeTypes[nodes[i * nfl + N_TYPE]];
const name = i => strings[nodes[i * nfl + N_NAME]];
const size = i => nodes[i * nfl + N_SIZE];
const label = i => {
  const t = type(i);
  if (t === 'string' || t === 'concatenated string' || t === 'sliced string')
    return `${t}(${JSON.stringify(name(i).slice(0, 40))}…)`;
  return `${name(i).slice(0, 60) || t}`;
};
const edgeName = e => {
  const t = edgeTypes[edges[e + E_TYPE]];
  const n = edges[e + E_NAME];
  return t === 'element' || t === 'hidden' ? `[${n}]` : String(strings[n]);
};

// Shortest strong path from the root (node 0) to every node: BFS, remembering the edge that reached it.
const parentEdge = new Int32Array(count).fill(-1);
const parentNode = new Int32Array(count).fill(-1);
const seen = new Uint8Array(count);
let queue = [0];
seen[0] = 1;
while (queue.length) {
  const next = [];
  for (const i of queue) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += efl) {
      const t = edges[e + E_TYPE];
      if (t === weak || t === shortcut) continue;
      const to = edges[e + E_TO] / nfl;
      if (seen[to]) continue;
      seen[to] = 1;
      parentEdge[to] = e;
      parentNode[to] = i;
      next.push(to);
    }
  }
  queue = next;
}

const byKind = new Map();
let total = 0;
for (let i = 0; i < count; i++) {
  const t = type(i);
  const key = t === 'object' || t === 'closure' ? `${t}:${name(i)}` : t;
  byKind.set(key, (byKind.get(key) ?? 0) + size(i));
  total += size(i);
}
console.log(`${file}: ${count} nodes, ${(total / MB).toFixed(1)} MB self size`);
for (const [k, v] of [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`  ${(v / MB).toFixed(1).padStart(8)} MB  ${k}`);

const big = [];
for (let i = 0; i < count; i++) if (size(i) >= minMB * MB) big.push(i);
big.sort((a, b) => size(b) - size(a));
console.log(`\n${big.length} objects ≥ ${minMB} MB (${(big.reduce((s, i) => s + size(i), 0) / MB).toFixed(1)} MB):`);
const paths = new Map();
for (const i of big) {
  const hops = [];
  for (let n = i; parentNode[n] >= 0 && hops.length < 14; n = parentNode[n])
    hops.push(`${label(parentNode[n])}.${edgeName(parentEdge[n])}`);
  const path = seen[i] ? hops.reverse().join(' → ') : '(unreachable: garbage not yet collected)';
  const key = path.replace(/\[\d+\]/g, '[n]');
  const entry = paths.get(key) ?? { n: 0, bytes: 0, example: label(i) };
  entry.n++;
  entry.bytes += size(i);
  paths.set(key, entry);
}
for (const [path, e] of [...paths].sort((a, b) => b[1].bytes - a[1].bytes))
  console.log(`\n  ${e.n} × (${(e.bytes / MB).toFixed(1)} MB) e.g. ${e.example}\n    ${path}`);

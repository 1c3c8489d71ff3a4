import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Command } from '../../src/core/command-ids';
import { root, sources } from './sources';

/** The layer of a file under src/: its folder (core's folders each a layer of their own), or the name of a top-level file. */
function layerOf(rel: string): string {
  const parts = rel.split('/');
  if (parts[0] === 'core' && parts.length > 2) return `core/${parts[1]}`;
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.ts$/, '');
}

/**
 * core's folders, lowest first: each may import the ones before it and itself. The loose files of
 * src/core (errors, events, log, json, bounded, command ids, label) are the ground every folder stands on.
 * config describes servers; protocol talks to one; render turns its content into parts; catalog holds
 * every prompt of every server; run turns what the user gave into a result; view derives what is shown.
 */
const CORE_FLOORS = ['core', 'core/config', 'core/protocol', 'core/render', 'core/catalog', 'core/run', 'core/view'];
const coreRules = Object.fromEntries(CORE_FLOORS.map((floor, i) => [floor, CORE_FLOORS.slice(0, i + 1)]));

/**
 * Which layers each layer may import. core is plain Node (tested without VS Code) and the CLI is core
 * alone; the VS Code edge is chat, ui, commands and resources over the workspace services (the
 * configuration read, logs, OAuth loopback, saved-list storage) and settings. extension.ts builds the
 * parts and hands each surface what it uses; chat receives the argument input as a function instead
 * of importing ui; ui and chat never reach into commands.
 */
const ALLOWED: Record<string, readonly string[]> = {
  ...coreRules,
  cli: ['core', 'cli'],
  settings: ['core'],
  workspace: ['core', 'settings', 'workspace'],
  resources: ['core', 'resources'],
  ui: ['core', 'settings', 'workspace', 'resources', 'ui'],
  chat: ['core', 'settings', 'workspace', 'resources', 'chat'],
  commands: ['core', 'settings', 'workspace', 'resources', 'ui', 'chat', 'commands'],
  extension: ['core', 'settings', 'workspace', 'resources', 'ui', 'chat', 'commands'],
};
/**
 * Inside a core folder of several subjects, its subfolders, lowest first: a file in one may import the
 * ones before it and its own, and the folder's loose files (core/run's runner and the invocation line)
 * may import any. protocol: the bounds a server is held to, transports and eras, the questions a server
 * asks, then the connection's life; run: what runs leave behind, skills, then reading a request.
 */
const SUB_FLOORS: Record<string, readonly string[]> = {
  'core/protocol': ['limits', 'transport', 'questions', 'connection'],
  'core/run': ['records', 'skills', 'requests'],
};

/** The subfolder of a core folder `rel` is in ('' for the folder's loose files). */
function subfolderOf(rel: string): string {
  const parts = rel.split('/');
  return parts[0] === 'core' && parts.length > 3 ? parts[2] : '';
}

/** The rule an import inside one core folder breaks, or undefined. */
function subFloorViolation(layer: string, rel: string, target: string): string | undefined {
  const floors = SUB_FLOORS[layer];
  const [from, to] = [subfolderOf(rel), subfolderOf(target)];
  if (!floors || !from) return undefined;
  if (!floors.includes(from)) return `${rel}: ${layer}/${from} has no place in SUB_FLOORS`;
  if (to && floors.indexOf(to) > floors.indexOf(from))
    return `${rel} → ${target}: ${layer}/${from} may not import ${layer}/${to}`;
  return undefined;
}

/** Layers that run outside VS Code (plain Node: the unit tests, the CLI). */
const NO_VSCODE = new Set([...CORE_FLOORS, 'cli']);

/** Every module a file names: import/export … from, side-effect imports, import() and require(). */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** The rule each import of `files` breaks, as "from → to: why". */
function layeringViolations(srcRoot: string, files: { rel: string; text: string }[]): string[] {
  const problems: string[] = [];
  for (const { rel, text } of files) {
    const from = layerOf(rel);
    const allowed = ALLOWED[from];
    if (!allowed) {
      problems.push(`${rel}: layer "${from}" has no rule (add it to ALLOWED)`);
      continue;
    }
    for (const spec of importsOf(text)) {
      if (spec === 'vscode') {
        if (NO_VSCODE.has(from)) problems.push(`${rel} → vscode: ${from} must run without VS Code`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = path
        .relative(srcRoot, path.resolve(path.dirname(path.join(srcRoot, rel)), spec))
        .split(path.sep)
        .join('/');
      if (target.startsWith('..')) {
        problems.push(`${rel} → ${spec}: imports from outside src/`);
        continue;
      }
      const to = layerOf(target.replace(/\.js$/, '.ts'));
      // Above core, "core" stands for all of its folders.
      const seen = from.startsWith('core') ? to : to.replace(/^core\/.*/, 'core');
      if (!allowed.includes(seen)) problems.push(`${rel} → ${target}: ${from} may not import ${to}`);
      else if (from === to) {
        const inside = subFloorViolation(from, rel, target);
        if (inside) problems.push(inside);
      }
    }
  }
  return problems;
}

test("the import graph keeps the layers: core and the CLI stay vscode-free, core's folders import only lower ones, chat and ui never import each other", () => {
  const srcRoot = path.join(root, 'src');
  const files = sources(srcRoot).map(f => ({
    rel: path.relative(srcRoot, f).split(path.sep).join('/'),
    text: fs.readFileSync(f, 'utf8'),
  }));
  assert.ok(
    files.some(f => f.rel.startsWith('core/')) && files.some(f => f.rel.startsWith('chat/')),
    'src/core and src/chat were read',
  );
  assert.deepEqual(layeringViolations(srcRoot, files), []);
});

test('the layering check names the edge that breaks a rule', () => {
  const srcRoot = path.join(root, 'src');
  const problems = layeringViolations(srcRoot, [
    { rel: 'chat/participant.ts', text: "import { ArgumentInput } from '../ui/argument-input';" },
    {
      rel: 'core/view/tree-items.ts',
      text: "import * as vscode from 'vscode';\nimport type { ServerLogs } from '../../workspace/server-logs';",
    },
    { rel: 'cli.ts', text: "const x = require('./commands');" },
    { rel: 'core/protocol/connection/connection.ts', text: "import type { Catalog } from '../../catalog/catalog.js';" },
    {
      rel: 'core/protocol/limits/line-buffer.ts',
      text: "import { ServerConnection } from '../connection/connection.js';",
    },
    { rel: 'core/run/records/result-store.ts', text: "import { readChatRequest } from '../requests/chat-request';" },
    { rel: 'ui/tree.ts', text: "export { runPrompt } from '../commands/run';" },
  ]);
  assert.deepEqual(problems, [
    'chat/participant.ts → ui/argument-input: chat may not import ui',
    'core/view/tree-items.ts → vscode: core/view must run without VS Code',
    'core/view/tree-items.ts → workspace/server-logs: core/view may not import workspace',
    'cli.ts → commands: cli may not import commands',
    'core/protocol/connection/connection.ts → core/catalog/catalog.js: core/protocol may not import core/catalog',
    'core/protocol/limits/line-buffer.ts → core/protocol/connection/connection.js: core/protocol/limits may not import core/protocol/connection',
    'core/run/records/result-store.ts → core/run/requests/chat-request: core/run/records may not import core/run/requests',
    'ui/tree.ts → commands/run: ui may not import commands',
  ]);
});

test('every command id is in core/command-ids.ts and contributed by package.json, and back', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string }[] };
  };
  const contributed = pkg.contributes.commands.map(c => c.command).sort();
  assert.deepEqual(Object.values(Command).sort(), contributed, 'Command lists exactly the contributed commands');
  const spelt = new Set<string>();
  for (const f of sources(path.join(root, 'src')))
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/'(mcpPrompts\.[A-Za-z]+)'/g)) spelt.add(m[1]);
  const unknown = [...spelt].filter(
    id =>
      !contributed.includes(id) &&
      ![
        'mcpPrompts.status',
        'mcpPrompts.prompts',
        'mcpPrompts.welcome',
        'mcpPrompts.serversFound',
        'mcpPrompts.chatAnswered',
        'mcpPrompts.promptRan',
        'mcpPrompts.treeFiltered',
        'mcpPrompts.servers',
      ].includes(id),
  );
  assert.deepEqual(unknown, [], 'a command id spelt in the code that no command has');
});

test("src/core's folders are its architecture: a README each, at most 12 loose files", () => {
  const core = path.join(root, 'src', 'core');
  const entries = fs.readdirSync(core, { withFileTypes: true });
  const loose = entries.filter(e => e.isFile() && e.name.endsWith('.ts')).map(e => e.name);
  assert.ok(loose.length <= 12, `loose files in src/core: ${loose.join(', ')}`);
  const folders = entries.filter(e => e.isDirectory()).map(e => `core/${e.name}`);
  assert.deepEqual(folders.sort(), CORE_FLOORS.slice(1).sort(), 'every folder of src/core has a place in CORE_FLOORS');
  for (const folder of ['core', ...folders])
    assert.ok(fs.existsSync(path.join(root, 'src', folder, 'README.md')), `src/${folder}/README.md says what it owns`);
});

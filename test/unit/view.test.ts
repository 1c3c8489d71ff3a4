// The view layer (src/core/view/): one server state decided from the catalog entry, the rows the tree,
// picker and status bar show, the one icon check and the argument step's suggestions. Pure functions
// over plain objects: no server, no VS Code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import { PromptError } from '../../src/core/errors';
import type { CatalogPrompt } from '../../src/core/catalog/catalog';
import type {
  ConnectionState,
  ConnectionStatus,
  ServerInfo,
} from '../../src/core/protocol/connection/connection-state';
import type { HeldEntry } from '../../src/core/config/server-merge';
import { isSafeIcon, safeIconSrc } from '../../src/core/view/icons';
import { mergePickerRows, pickerItems } from '../../src/core/view/picker-rows';
import { statusSummary } from '../../src/core/view/status-summary';
import { fieldsOf } from './picker-row-fields';
import { heldItem, promptItem, serverItem, type ServerView } from '../../src/core/view/tree-items';
import { heldState, isFailing, isRunning, problemOf, serverState } from '../../src/core/view/server-state';
import { attentionBadge, attentionFirst, expandByDefault, needsAttention } from '../../src/core/view/tree-layout';
import { boxRow, suggestions } from '../../src/core/view/suggestions';
import { CompletionSession } from '../../src/core/view/completion-session';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function def(name = 'alpha', source: 'user' | 'workspace' = 'user'): ServerDefinition {
  return parseConfigObject({ servers: { [name]: { command: 'node', args: ['x.js'] } } }, source).servers[0];
}

interface Shape {
  status?: ConnectionStatus;
  loading?: boolean;
  listError?: string;
  error?: string;
  signIn?: boolean;
  prompts?: number;
  icons?: { src: string }[];
}

function server(shape: Shape = {}): ServerView & { prompts: CatalogPrompt[] } {
  const d = def();
  const entry = {
    id: d.id,
    def: d,
    prompts: [] as CatalogPrompt[],
    loading: shape.loading ?? false,
    listError: shape.listError ? new PromptError(shape.listError, 'server', d.name) : undefined,
    warnings: [],
    connection: {
      state: stateOf(
        shape.status ?? 'running',
        new PromptError(shape.error ?? '', 'server', d.name),
        { transport: 'stdio', serverInfo: { name: 'alpha', version: '1', icons: shape.icons } },
        shape.signIn,
      ),
    },
  };
  for (let i = 0; i < (shape.prompts ?? 0); i++) entry.prompts.push(prompt(entry, `p${i}`));
  return entry;
}

/** The connection state a shape describes: `signIn` turns a failure into a wait for the sign-in. */
function stateOf(status: ConnectionStatus, error: PromptError, info: ServerInfo, signIn?: boolean): ConnectionState {
  if (signIn) return { kind: 'signIn', url: new URL('https://auth.example/authorize'), error, info };
  switch (status) {
    case 'idle':
      return { kind: 'idle' };
    case 'error':
    case 'signIn':
      return { kind: 'error', error, info };
    default:
      return { kind: status, info };
  }
}

function prompt(entry: ServerView, name: string, extra: Partial<CatalogPrompt['prompt']> = {}): CatalogPrompt {
  return {
    server: entry as CatalogPrompt['server'],
    prompt: { name, ...extra },
    invocationName: `alpha.${name}`,
    shortName: name,
    unique: true,
  };
}

test('one state per server: status, loading, errors and sign-in decide one kind', () => {
  const cases: [Shape, ReturnType<typeof serverState>][] = [
    [{ status: 'running' }, { kind: 'running', problem: undefined }],
    [
      { status: 'running', listError: 'list broke' },
      { kind: 'running', problem: 'list broke' },
    ],
    [
      { status: 'running', loading: true },
      { kind: 'starting', problem: undefined, relisting: true },
    ],
    [{ status: 'starting' }, { kind: 'starting', problem: undefined }],
    [{ status: 'idle' }, { kind: 'idle', problem: undefined }],
    [{ status: 'stopped' }, { kind: 'stopped', problem: undefined }],
    [
      { status: 'error', error: 'spawn failed' },
      { kind: 'failed', message: 'spawn failed' },
    ],
    [
      { status: 'error', error: 'crashed', prompts: 2 },
      { kind: 'failedWithPrompts', message: 'crashed' },
    ],
    [
      { status: 'error', error: 'crashed', loading: true },
      { kind: 'failed', message: 'crashed' },
    ],
    [
      { status: 'error', error: '401', signIn: true },
      { kind: 'signIn', under: { kind: 'failed', message: '401' } },
    ],
  ];
  for (const [shape, expected] of cases)
    assert.deepEqual(serverState(server(shape)), expected, `state of ${JSON.stringify(shape)}`);
});

test('the status bar counts a re-listing server as running and any problem as failing', () => {
  assert.equal(
    isRunning(serverState(server({ status: 'running', loading: true }))),
    true,
    'a re-list keeps the server running',
  );
  assert.equal(isRunning(serverState(server({ status: 'starting' }))), false, 'a start is not running yet');
  assert.equal(
    isFailing(serverState(server({ status: 'running', listError: 'x' }))),
    true,
    'a failed listing is failing',
  );
  assert.equal(
    problemOf(serverState(server({ status: 'error' }))),
    undefined,
    'an error without a message counts as nothing wrong, as before',
  );
  const summary = statusSummary([server({ status: 'running' }), server({ status: 'error', error: 'down' })], 0, 3);
  assert.deepEqual(summary, {
    text: '$(plug) 1 $(error) 1',
    tooltip: 'MCP Prompts: 1 running, 1 failing, 3 prompts',
    warning: true,
  });
  assert.equal(
    statusSummary([server({ status: 'running' })], 0, 1)?.tooltip,
    'MCP Prompts: 1 running, 0 failing, 1 prompt',
    'one prompt is "1 prompt"',
  );
  assert.equal(statusSummary([], 0, 0), undefined, 'nothing configured: hidden');
  assert.equal(statusSummary([], 1, 0)?.text, '$(plug) 0', 'only held servers: shown');
});

test('tree rows say the state: the error while down, the counts while running, sign-in over both', () => {
  assert.equal(serverItem(server({ status: 'error', error: 'spawn ENOENT' })).description, 'failed: spawn ENOENT');
  assert.equal(serverItem(server({ status: 'running', prompts: 2 })).description, 'running · stdio · 2 prompts');
  const warned = serverItem(server({ status: 'running', listError: 'page 2 broke', prompts: 1 }));
  assert.equal(
    warned.description,
    'running · stdio · 1 prompt',
    'a listing problem of a running server is not its description',
  );
  assert.deepEqual(warned.icon, { codicon: 'warning', color: 'problemsWarningIcon.foreground' });
  assert.equal(serverItem(server({ status: 'running', loading: true })).description, 'starting · stdio · 0 prompts');
  assert.deepEqual(serverItem(server({ status: 'running', loading: true })).icon, { codicon: 'loading~spin' });
  const signIn = serverItem(server({ status: 'error', error: 'needs sign-in', signIn: true }));
  assert.equal(signIn.description, 'sign-in needed — click to sign in');
  assert.deepEqual(signIn.command, { command: 'mcpPrompts.signIn', title: 'Sign In', arguments: ['alpha'] });
  assert.equal(signIn.contextValue, 'server.error', 'menus key on the connection status');
});

test('every held-back reason has its own row and way out', () => {
  const reasons: HeldEntry['reason'][] = ['untrusted', 'shadowed', 'envFile', 'consent', 'declined'];
  const rows = reasons.map(reason =>
    heldItem({ def: def('beta', 'workspace'), origin: '.vscode/mcp.json', reason, message: `beta: ${reason}` }),
  );
  assert.deepEqual(
    rows.map(r => [r.contextValue, r.command?.command]),
    [
      ['held.untrusted', 'workbench.trust.manage'],
      ['held.shadowed', undefined],
      ['held.envFile', 'workbench.trust.manage'],
      ['held.consent', 'mcpPrompts.allowServer'],
      ['held.declined', 'mcpPrompts.allowServer'],
    ],
  );
  assert.equal(new Set(rows.map(r => r.description)).size, reasons.length, 'each reason says something different');
  assert.deepEqual(heldState({ def: def(), origin: 'x', reason: 'consent', message: 'm' }), {
    kind: 'consent',
    message: 'm',
  });
});

/** Server `name` (its own id) offering `names`; `status` as in server(). */
function named(
  name: string,
  names: string[],
  status: ConnectionStatus = 'running',
): ServerView & { prompts: CatalogPrompt[] } {
  const d = def(name);
  const entry = { ...server({ status }), id: d.id, def: d, prompts: [] as CatalogPrompt[] };
  for (const n of names) entry.prompts.push(prompt(entry, n));
  return entry;
}

test('the open picker keeps every shown row at its index: updated in place, dropped ones marked, new ones appended', () => {
  const shown = pickerItems([named('alpha', [], 'starting'), named('beta', ['x', 'y'])]);
  assert.deepEqual(
    shown.map(r => r.label),
    ['alpha', '$(loading~spin) alpha is starting…', 'beta', 'x', 'y'],
  );
  const next = pickerItems([named('alpha', ['a0']), named('beta', ['w', 'y'])]);
  const merged = mergePickerRows(shown, next);
  assert.deepEqual(
    merged.map(r => r.label),
    [
      'alpha',
      '$(loading~spin) alpha is starting… (no longer current)',
      'beta',
      'x (no longer offered)',
      'y',
      'alpha',
      'a0',
      'beta',
      'w',
    ],
  );
  assert.deepEqual(
    merged.map(r => r.kind === 'separator'),
    [true, false, true, false, false, true, false, true, false],
  );
  assert.equal(fieldsOf(merged[3]).gone, true, 'x is marked as no longer offered');
  assert.equal(
    fieldsOf(merged[3]).prompt?.prompt.name,
    'x',
    'a dropped row still knows its prompt (to name it when run)',
  );
  assert.equal(
    fieldsOf(merged[4]).prompt,
    fieldsOf(next.find(r => fieldsOf(r).prompt?.prompt.name === 'y')!).prompt,
    'y is the current listing',
  );
  assert.equal(fieldsOf(merged[4]).gone, undefined);

  // x comes back: its old row is live again, in the same place; nothing is added twice.
  const again = mergePickerRows(merged, pickerItems([named('alpha', ['a0']), named('beta', ['x', 'w', 'y'])]));
  assert.deepEqual(
    again.map(r => r.label),
    merged.map(r => r.label.replace(' (no longer offered)', '')),
  );
  assert.equal(fieldsOf(again[3]).gone, undefined);
  assert.equal(
    mergePickerRows(again, pickerItems([named('alpha', ['a0'])]))[3].label,
    'x (no longer offered)',
    'marked once, not twice',
  );
});

test('under random list changes every shown row keeps its index, and each offered prompt has exactly one live row', () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pool = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const pick = () => pool.filter(() => rand(2) === 0);
  for (let run = 0; run < 50; run++) {
    let shown = pickerItems([named('alpha', pick()), named('beta', pick())]);
    for (let step = 0; step < 10; step++) {
      const servers = [named('alpha', pick()), ...(rand(3) ? [named('beta', pick())] : [])];
      const merged = mergePickerRows(shown, pickerItems(servers));
      shown.forEach((row, i) => assert.equal(merged[i].key, row.key, `run ${run} step ${step}: row ${i} moved`));
      const live = merged.filter(r => fieldsOf(r).prompt && !fieldsOf(r).gone).map(r => r.key);
      const offered = servers.flatMap(s => s.prompts.map(p => `prompt:${JSON.stringify([s.id, p.prompt.name])}`));
      assert.deepEqual([...live].sort(), [...offered].sort(), `run ${run} step ${step}: live rows are what is offered`);
      shown = merged;
    }
  }
});

test('the picker: a starting or failed server without prompts says so; with prompts it offers them', () => {
  const starting = pickerItems([server({ status: 'starting' })]);
  assert.deepEqual(
    starting.map(i => i.label),
    ['alpha', '$(loading~spin) alpha is starting…'],
  );
  const failed = pickerItems([server({ status: 'error', error: 'spawn ENOENT' })]);
  assert.equal(failed[1].label, '$(error) alpha failed');
  assert.equal(fieldsOf(failed[1]).description, 'spawn ENOENT');
  assert.ok(fieldsOf(failed[1]).logOf, 'the failed row opens the log');
  const cached = pickerItems([server({ status: 'error', error: 'crashed', prompts: 2 })]);
  assert.deepEqual(
    cached.map(i => fieldsOf(i).description),
    [undefined, '/p0', '/p1'],
    'the last listing is still offered',
  );
  assert.deepEqual(
    pickerItems([server({ status: 'idle' })]).map(i => i.label),
    ['alpha'],
    'an idle server without prompts: just its heading',
  );
});

test('one icon check: raster data: URIs of base64 only, under 64 KB', () => {
  assert.equal(isSafeIcon(PNG), true);
  for (const bad of [
    'data:image/svg+xml;base64,PHN2Zz4=',
    'https://example.com/i.png',
    'data:image/png,rawbytes',
    'data:image/png;base64,AAAA"><img src=x onerror=alert(1)>',
    'data:image/png;base64,AAAA\n',
    `data:image/png;base64,${'A'.repeat(64 * 1024)}`,
  ])
    assert.equal(isSafeIcon(bad), false, `refused: ${bad.slice(0, 60)}`);
  assert.equal(safeIconSrc([{ src: 'https://x/i.png' }, { src: PNG }]), PNG, 'the first acceptable one');
});

test('the picker refuses the server icons it used to accept by their prefix alone', () => {
  const forged = [{ src: 'data:image/png;base64,AAAA"><svg onload=alert(1)>' }];
  const huge = [{ src: `data:image/png;base64,${'A'.repeat(70 * 1024)}` }];
  for (const icons of [forged, huge]) {
    const s = server({ icons, prompts: 1 });
    assert.equal(fieldsOf(pickerItems([s])[1]).iconUri, undefined, `picker icon for ${icons[0].src.slice(0, 40)}…`);
  }
  assert.equal(
    fieldsOf(pickerItems([server({ icons: [{ src: PNG }], prompts: 1 })])[1]).iconUri,
    PNG,
    'a good icon is still shown',
  );
  const s = server();
  assert.deepEqual(
    promptItem(prompt(s, 'p', { icons: forged })).icon,
    { codicon: 'comment-discussion' },
    'the tree: same check',
  );
});

test('an argument step narrows the last server answer to what still fits the text, recent values first', () => {
  const history = ['src/main.ts', 'README.md'];
  const answered = { prefix: 'src', values: ['src/a.ts', 'src/main.ts', 'lib/b.ts'] };
  assert.deepEqual(
    [...suggestions('src/m', history, answered, 'alpha')],
    [['src/main.ts', 'recent']],
    'until the server answers for "src/m", only its values starting with it (and history containing it) show',
  );
  assert.deepEqual(
    [...suggestions('src', history, answered, 'alpha')],
    [
      ['src/main.ts', 'recent'],
      ['src/a.ts', 'suggestion from alpha'],
      ['lib/b.ts', 'suggestion from alpha'],
    ],
    "the server's own answer for this text is shown whole; a recent value is not listed twice",
  );
  assert.equal(
    suggestions('README.md', history, { prefix: '', values: [] }, 'alpha').size,
    0,
    'the typed text is row 0, not a suggestion',
  );
  assert.deepEqual(boxRow('', 'path', true), { label: '$(edit) Type a value for path' });
  assert.deepEqual(boxRow('', 'path', false), { label: '$(debug-step-over) Skip', description: 'leave path empty' });
  assert.deepEqual(boxRow('x', 'path', false), { label: 'x', description: 'use what you typed' });
});

test('completion session: one request out at a time, the latest text sent when it answers, never a stale list, repeats from cache', async () => {
  const asked: { prefix: string; signal: AbortSignal; answer: (v: string[]) => void }[] = [];
  const shown: string[] = [];
  const busy: boolean[] = [];
  const session = new CompletionSession({
    fetch: (prefix, signal) => new Promise(resolve => asked.push({ prefix, signal, answer: resolve })),
    show: c => shown.push(`${c.prefix}:${c.values.join(',')}`),
    busy: b => busy.push(b),
    debounceMs: 0,
  });
  /** Every timer due by now has run (the session's quiet spell is 0 ms here). */
  const timersRun = () => new Promise(r => setTimeout(r, 5));
  const answered = () => new Promise(r => setImmediate(r));
  session.request('');
  await timersRun();
  assert.deepEqual(
    asked.map(a => a.prefix),
    [''],
    'the empty text is asked at once',
  );
  for (const prefix of ['t', 'ty', 'typ']) session.request(prefix);
  await timersRun();
  assert.equal(asked.length, 1, 'nothing more is asked while a request is out');
  asked[0].answer(['typescript', 'python']);
  await answered();
  assert.deepEqual(
    asked.map(a => a.prefix),
    ['', 'typ'],
    'when it answers, only the latest text is asked; the keystrokes in between are not',
  );
  assert.equal(asked[0].signal.aborted, false, 'nothing was cancelled on the way');
  assert.deepEqual(shown, [':typescript,python'], 'the earlier answer is shown: it narrows to the text typed');
  session.request('py');
  await timersRun();
  assert.equal(asked.length, 2, 'still one request out');
  asked[1].answer(['typescript']);
  await answered();
  assert.deepEqual(
    shown,
    [':typescript,python'],
    'an answer for text the box no longer holds, and that does not narrow to it, is not shown',
  );
  assert.deepEqual(
    asked.map(a => a.prefix),
    ['', 'typ', 'py'],
  );
  asked[2].answer(['python']);
  await answered();
  assert.deepEqual(shown, [':typescript,python', 'py:python']);
  session.request('typ');
  assert.deepEqual(shown.at(-1), 'typ:typescript', 'an answered text is shown from the cache without asking');
  assert.equal(asked.length, 3);
  assert.deepEqual(session.stats, { sent: 3, cancelled: 0, inFlight: 0, maxInFlight: 1 });
  assert.deepEqual(busy, [true, false, true, false, true, false], 'busy while a request is out');
  session.request('x');
  await timersRun();
  assert.equal(asked.length, 4);
  session.dispose();
  assert.equal(asked[3].signal.aborted, true, 'closing the step cancels the request out');
  session.request('xy');
  await timersRun();
  asked[3].answer(['xylophone']);
  await answered();
  assert.equal(asked.length, 4, 'nothing is asked after the step closed');
  assert.equal(shown.length, 3, 'nothing is shown after the step closed');
  assert.deepEqual(session.stats, { sent: 4, cancelled: 1, inFlight: 0, maxInFlight: 1 });
});

test('a server stopped on demand, or showing a saved list, has a plain icon, not the red stop or an error', () => {
  for (const row of [
    server({ status: 'stopped', prompts: 3 }),
    { ...server({ status: 'stopped', prompts: 3 }), cached: true },
  ])
    assert.deepEqual(serverItem(row).icon, { codicon: 'circle-outline' });
});

test('each server row says running, stopped (on demand), cached or failed first', () => {
  const rows = [
    server({ status: 'running', prompts: 3 }),
    server({ status: 'stopped', prompts: 3 }),
    { ...server({ status: 'stopped', prompts: 3 }), cached: true },
    server({ status: 'error', error: 'exited', prompts: 3 }),
    server({ status: 'error', error: 'spawn ENOENT' }),
  ].map(s => serverItem(s).description);
  assert.deepEqual(rows, [
    'running · stdio · 3 prompts',
    'stopped (on demand) · stdio · 3 prompts',
    'cached · stdio · 3 prompts',
    'failed: exited',
    'failed: spawn ENOENT',
  ]);
  assert.equal(serverItem(server(), [], 'collapsed').collapsible, 'collapsed');
  assert.equal(serverItem(server()).collapsible, 'expanded');
});

test('a server starts expanded when its prompts fit its share of a screen (30 rows)', () => {
  // 6 servers: 6 rows plus up to 4 prompts each.
  assert.equal(expandByDefault(4, 6), true);
  assert.equal(expandByDefault(5, 6), false);
  assert.equal(expandByDefault(23, 6), false, 'the 23 prompts of one server would push the others off');
  assert.equal(expandByDefault(29, 1), true);
  assert.equal(expandByDefault(30, 1), false);
  assert.equal(expandByDefault(1, 31), false, 'more servers than rows: each is one row');
  for (const servers of [1, 2, 3, 6, 10, 29]) {
    const share = [...Array(40).keys()].filter(n => expandByDefault(n, servers)).pop()!;
    assert.ok(servers * (share + 1) <= 30, `${servers} servers with ${share} prompts each fit`);
  }
});

test('rows that need the user come first and the badge counts them', () => {
  const ok = server({ status: 'running', prompts: 1 });
  const down = server({ status: 'error', error: 'exited' });
  const signIn = server({ status: 'error', error: 'needs sign-in', signIn: true });
  const warned = server({ status: 'running', listError: 'page 2 broke', prompts: 1 });
  assert.deepEqual(
    [ok, down, signIn, warned].map(s => needsAttention(serverState(s))),
    [false, true, true, true],
  );
  assert.deepEqual(
    attentionFirst(['a', 'B', 'c', 'D', 'e'], r => r === r.toUpperCase()),
    ['B', 'D', 'a', 'c', 'e'],
  );
  const consent: HeldEntry = { def: def('w', 'workspace'), origin: 'x', reason: 'consent', message: 'm' };
  const declined: HeldEntry = { ...consent, reason: 'declined' };
  assert.deepEqual(attentionBadge([ok, down, signIn, warned], [consent, declined], 1), {
    value: 5,
    tooltip:
      'MCP Prompts: 2 failing, 1 waiting for you to sign in, 1 waiting for your consent, 1 configuration files not read',
  });
  assert.equal(attentionBadge([ok], [declined], 0), undefined, 'nothing needs the user: no badge');
});

test('a server row made before its prompts came has another id than the row with them', () => {
  // VS Code keeps a row's first expand state per id: the row with prompts must be new to start expanded.
  const row = server({ status: 'running', prompts: 2 });
  const ids = (['none', 'collapsed', 'expanded'] as const).map(c => serverItem(row, [], c).id);
  assert.notEqual(ids[0], ids[1]);
  assert.equal(ids[1], ids[2], 'collapsed and expanded rows of one server keep one id (the user’s choice stays)');
});

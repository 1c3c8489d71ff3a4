// Questions from servers (elicitation) against the real `questions` fixture over stdio: every field
// kind, the three actions as the server receives them, URL mode, questions during completion and
// listing, and the hostile cases (huge schema, markup in titles, bad URLs, late questions, a flood).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ServerConnection } from '../../src/core/protocol/connection/connection';
import {
  MAX_QUESTIONS_PER_MINUTE,
  MAX_QUESTIONS_PER_REQUEST,
  oneAtATime,
} from '../../src/core/protocol/questions/questions';
import { Catalog } from '../../src/core/catalog/catalog';
import { completeArgument } from '../../src/core/run/invocation';
import {
  MAX_FIELDS,
  checkAnswers,
  checkUrl,
  checkValue,
  describeAnswer,
  describeAnswerMarkdown,
  type Field,
  type FormQuestion,
  type Question,
  type QuestionAnswer,
} from '../../src/core/protocol/questions/elicitation';
import {
  RecordingLog,
  connectQuestions as connect,
  defs,
  firstText as text,
  launch,
  recording,
  rejection,
  tempDir,
  waitFor,
} from './helpers';

const form = (q: Question | undefined) =>
  q?.mode === 'form' ? q : assert.fail(`expected a form question, got ${String(q?.mode)}`);

test('form: every field kind becomes a step; accepted values reach the server as typed values; password-like values stay out of the log', async () => {
  const { asked, asker } = recording(() => ({
    action: 'accept',
    values: {
      name: 'Grace',
      email: 'g@example.org',
      age: 85,
      ratio: 0.5,
      subscribe: false,
      color: 'blue',
      size: 'l',
      legacy: 'b',
      tags: ['x', 'z'],
      toppings: ['ol'],
      api_token: 'tok-123456',
      pin: '4711',
    },
  }));
  const { connection, log } = await connect(asker);
  try {
    const result = await connection.getPrompt('form', {});
    const q = form(asked[0]);
    assert.equal(q.server, 'q');
    assert.equal(q.during, 'prompt "form"');
    assert.equal(q.message, 'Tell us about you');
    const by = Object.fromEntries(q.fields.map(f => [f.name, f]));
    assert.deepEqual(
      q.fields.map(f => [f.name, f.kind, f.required]),
      [
        ['name', 'string', true],
        ['email', 'string', true],
        ['day', 'string', false],
        ['age', 'integer', true],
        ['ratio', 'number', false],
        ['subscribe', 'boolean', false],
        ['color', 'enum', false],
        ['size', 'enum', false],
        ['legacy', 'enum', false],
        ['tags', 'multi', false],
        ['toppings', 'multi', false],
        ['api_token', 'string', false],
        ['pin', 'string', false],
      ],
    );
    assert.deepEqual(
      [by.name.label, by.name.minLength, by.name.maxLength, by.name.default],
      ['Your name', 2, 20, 'Ada'],
    );
    assert.deepEqual(
      [by.email.format, by.day.format, by.age.minimum, by.age.maximum, by.age.default],
      ['email', 'date', 1, 150, 36],
    );
    assert.deepEqual(
      [by.subscribe.default, by.color.default, by.tags.default, by.tags.minItems, by.tags.maxItems],
      [true, 'green', ['x'], 1, 2],
    );
    assert.deepEqual(by.size.choices, [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    assert.deepEqual(by.legacy.choices, [
      { value: 'a', label: 'Option A' },
      { value: 'b', label: 'Option B' },
    ]);
    assert.deepEqual(by.toppings.choices, [
      { value: 'ch', label: 'Cheese' },
      { value: 'ol', label: 'Olives' },
    ]);
    assert.deepEqual(
      q.fields.filter(f => f.secret).map(f => f.name),
      ['api_token', 'pin'],
    );
    assert.equal(
      text(result),
      'form: action=accept content={"name":"Grace","email":"g@example.org","age":85,"ratio":0.5,"subscribe":false,"color":"blue","size":"l","legacy":"b","tags":["x","z"],"toppings":["ol"],"api_token":"tok-123456","pin":"4711"}',
    );
    const line =
      log.lines.find(l => l.message.startsWith('q asked: Tell us about you'))?.message ??
      assert.fail('no answer line in the log');
    assert.match(line, /Your name = Grace; .*Size = Large; .*Tags = x, z; .*API token = \*\*\*; Code = \*\*\*/);
    assert.ok(line.endsWith(' (during prompt "form")'), line);
    assert.ok(!line.includes('tok-123456') && !line.includes('4711'), line);
    // The JSON-RPC trace (the answer going out, the server's reply echoing it) hides them too.
    assert.ok(
      log.lines.some(
        l => l.level === 'trace' && l.message.startsWith('-> ') && l.message.includes('"api_token":"***","pin":"***"'),
      ),
      'the traced answer',
    );
    // (What the server itself writes to its stderr is its own business: the fixture prints what it got.)
    assert.deepEqual(
      log.lines.filter(
        l => !l.message.startsWith('[stderr]') && (l.message.includes('tok-123456') || l.message.includes('4711')),
      ),
      [],
    );
  } finally {
    await connection.dispose();
  }
});

test('decline and cancel reach the server as such; no asker at all answers cancel (before: -32601)', async () => {
  for (const action of ['decline', 'cancel'] as const) {
    const { asker } = recording(() => ({ action }));
    const { connection } = await connect(asker);
    try {
      assert.equal(text(await connection.getPrompt('ask_name', {})), `ask_name: action=${action}`);
    } finally {
      await connection.dispose();
    }
  }
  const { connection, log } = await connect(undefined);
  try {
    assert.equal(text(await connection.getPrompt('ask_name', {})), 'ask_name: action=cancel');
    assert.ok(
      log.lines.some(l => l.level === 'warn' && /q asked a question, and nothing here can answer it/.test(l.message)),
    );
  } finally {
    await connection.dispose();
  }
});

test('an answer the schema refuses is never sent: the server gets cancel and the log says why', async () => {
  const { connection, log } = await connect(async () => ({ action: 'accept', values: { name: 'x' } }));
  try {
    assert.equal(text(await connection.getPrompt('ask_name', {})), 'ask_name: action=cancel');
    assert.ok(
      log.lines.some(l => /the answer was not sent: Name needs at least 2 characters/.test(l.message)),
      JSON.stringify(log.lines.slice(-3)),
    );
  } finally {
    await connection.dispose();
  }
});

const field = (f: Partial<Field> & Pick<Field, 'kind'>): Field => ({
  name: 'f',
  label: 'F',
  required: false,
  secret: false,
  ...f,
});

test('checkValue: each kind validates typed text without asking the server', () => {
  const problem = (f: Field, v: string | string[] | boolean) => {
    const r = checkValue(f, v);
    return 'problem' in r ? r.problem : undefined;
  };
  const ok = (f: Field, v: string | string[] | boolean) => {
    const r = checkValue(f, v);
    return 'ok' in r ? r.ok : assert.fail(r.problem);
  };
  const s = field({ kind: 'string', minLength: 2, maxLength: 4, required: true });
  assert.equal(problem(s, ''), 'F is required');
  assert.equal(problem(s, 'a'), 'F needs at least 2 characters');
  assert.equal(problem(s, 'abcde'), 'F takes at most 4 characters');
  assert.equal(ok(s, 'äöü'), 'äöü');
  assert.equal(problem(field({ kind: 'string', format: 'email' }), 'nope'), 'F must be an email address');
  assert.equal(problem(field({ kind: 'string', format: 'date' }), '2026-02-30'), 'F must be a date (YYYY-MM-DD)');
  assert.equal(ok(field({ kind: 'string', format: 'date-time' }), '2026-11-22T20:00:00Z'), '2026-11-22T20:00:00Z');
  assert.equal(problem(field({ kind: 'string', format: 'uri' }), 'no scheme'), 'F must be a URI (scheme:…)');
  assert.equal(ok(field({ kind: 'string' }), ''), undefined, 'an empty optional field is left out');
  const i = field({ kind: 'integer', minimum: 1, maximum: 10 });
  assert.equal(problem(i, '1.5'), 'F takes a whole number');
  assert.equal(problem(i, '0'), 'F is at least 1');
  assert.equal(problem(i, '11'), 'F is at most 10');
  assert.equal(problem(i, '0x10'), 'F takes a number');
  assert.equal(ok(i, ' 7 '), 7);
  assert.equal(ok(field({ kind: 'number' }), '-2.5e1'), -25);
  const b = field({ kind: 'boolean' });
  assert.equal(ok(b, 'yes'), true);
  assert.equal(ok(b, false), false);
  assert.equal(problem(b, 'maybe'), 'F takes yes or no');
  const e = field({ kind: 'enum', choices: [{ value: 's', label: 'Small' }] });
  assert.equal(ok(e, 'Small'), 's');
  assert.equal(problem(e, 'big'), '"big" is not one of the choices for F');
  const m = field({
    kind: 'multi',
    choices: [
      { value: 'x', label: 'X' },
      { value: 'y', label: 'Y' },
      { value: 'z', label: 'Z' },
    ],
    minItems: 1,
    maxItems: 2,
  });
  assert.deepEqual(ok(m, 'x, Y'), ['x', 'y']);
  assert.equal(problem(m, []), 'choose at least 1 for F');
  assert.equal(problem(m, ['x', 'y', 'z']), 'choose at most 2 for F');
  assert.deepEqual(checkAnswers([s, { ...i, name: 'n' }], { f: 'abc', n: 3 }), { ok: { f: 'abc', n: 3 } });
  assert.deepEqual(checkAnswers([s], {}), { problem: 'F is required' });
});

test('URL mode: https is asked with its host; command:, javascript:, file: and http: to another host are refused before the user sees them', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept' }));
  const { connection } = await connect(asker);
  try {
    assert.equal(text(await connection.getPrompt('open_url', {})), 'open_url: action=accept');
    const q = asked[0];
    assert.ok(q?.mode === 'url');
    assert.deepEqual(
      [q.url, q.host, q.elicitationId, q.message],
      ['https://example.com/connect?e=1', 'example.com', 'e-1', 'Connect your account'],
    );
    assert.equal(
      text(await connection.getPrompt('open_url', { url: 'http://127.0.0.1:9/x' })),
      'open_url: action=accept',
    );
    for (const url of [
      'command:workbench.action.terminal.new',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://example.com/',
      'https://user:pw@example.com/',
    ]) {
      const line = text(await connection.getPrompt('open_url', { url }));
      assert.match(line, /^open_url: error=MCP error -32602: q asked to open /, url);
    }
    assert.equal(asked.length, 2, 'refused URLs never reach the user');
  } finally {
    await connection.dispose();
  }
  assert.match(
    (checkUrl('s', 'https://xn--pypal-4ve.com/') as { ok: { warning?: string } }).ok.warning ?? '',
    /punycode xn--pypal-4ve\.com/,
  );
});

test('a question inside completion and inside prompts/list is asked, names its request, and its answer shapes the reply', async () => {
  const { asked, asker } = recording(q => ({
    action: 'accept',
    values: { [form(q).fields[0].name]: q.during.startsWith('completion') ? 'dark' : 'all' },
  }));
  const { fixtureCommand } = await launch();
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ restart: false, questions: asker }) });
  catalog.setServers(defs({ q: { ...fixtureCommand('questions'), env: { QUESTIONS_ON_LIST: '1' } } }));
  try {
    await catalog.ready();
    assert.equal(asked[0]?.during, 'listing prompts');
    const target = catalog.prompts.find(p => p.prompt.name === 'pick_color') ?? assert.fail('no pick_color');
    const result = await completeArgument(target, 'color', '', {});
    assert.deepEqual(result.values, ['black', 'navy']);
    assert.equal(asked[1]?.during, 'completion of "color"');
    assert.equal(form(asked[1]).message, 'Light or dark colours?');
  } finally {
    await catalog.dispose();
  }
});

test('hostile: a huge schema is refused (the server gets an error naming the cap); the user is not asked', async () => {
  const { asked, asker } = recording(() => ({ action: 'cancel' }));
  const { connection, log } = await connect(asker);
  try {
    assert.equal(
      text(await connection.getPrompt('huge', {})),
      `huge: error=MCP error -32602: q asked for 500 fields; at most ${MAX_FIELDS} are asked`,
    );
    assert.equal(asked.length, 0);
    assert.ok(log.lines.some(l => l.level === 'warn' && l.message.includes('at most')));
  } finally {
    await connection.dispose();
  }
});

test('hostile: markup in the message and titles is inert: one line, no icon syntax, escaped in markdown', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept', values: { x: '<script>' } }));
  const { connection } = await connect(asker);
  try {
    await connection.getPrompt('hostile', {});
    const q = form(asked[0]);
    assert.ok(
      !q.message.includes('\n') && !q.message.includes('$(') && !q.fields[0].label.includes('$('),
      JSON.stringify(q),
    );
    const md = describeAnswerMarkdown(q, { action: 'accept', values: { x: '<script>' } });
    // Each markup character is preceded by a backslash: none of these can start.
    for (const raw of ['<', '[', '](', '**', '$('])
      assert.ok(
        ![...md.matchAll(/[<[\]*$]/g)].some(m => md[m.index - 1] !== '\\' && md.startsWith(raw, m.index)),
        `unescaped ${raw} in ${md}`,
      );
    assert.match(md, /\\\*\\\*Bold\\\*\\\*/);
  } finally {
    await connection.dispose();
  }
});

test('hostile: a question after the request ended is cancelled without asking; a flood is answered one at a time (the rest cancelled at once)', async () => {
  let release!: () => void;
  const gate = new Promise<void>(resolve => {
    release = resolve;
  });
  const { asked, asker } = recording(async () => {
    await gate;
    return { action: 'accept', values: { v: 'first' } };
  });
  const turnedAway: string[] = [];
  const { connection, log } = await connect(oneAtATime(asker, line => turnedAway.push(line)));
  try {
    assert.equal(text(await connection.getPrompt('late', {})), 'late: answered');
    await waitFor(
      () => log.lines.some(l => /q asked a question while no request of ours was running: cancelled/.test(l.message)),
      'the late question',
    );
    assert.match(text(await connection.getPrompt('answers', {})), /^late: action=cancel$/m);
    assert.equal(asked.length, 0);
    const flood = connection.getPrompt('flood', {});
    // The first question stays open until all twenty have come: those within the request's limit meet it
    // open, the rest are over it. (Released at the first, a loaded machine's pipe can bring some after it
    // was answered: those would be asked.)
    const overLimit = () =>
      log.lines.filter(l => l.message.includes(`asked more than ${MAX_QUESTIONS_PER_REQUEST} questions during`)).length;
    await waitFor(
      () =>
        asked.length === 1 &&
        turnedAway.length === MAX_QUESTIONS_PER_REQUEST - 1 &&
        overLimit() === 20 - MAX_QUESTIONS_PER_REQUEST,
      'the first question, the rest turned away or over the limit',
    );
    release();
    const lines = text(await flood).split('\n');
    assert.equal(lines.filter(l => l.endsWith('action=accept content={"v":"first"}')).length, 1, lines.join('\n'));
    assert.equal(lines.filter(l => l.endsWith('action=cancel')).length, 19);
    assert.equal(asked.length, 1);
  } finally {
    await connection.dispose();
  }
});

test('the request does not time out while the user answers; a cancelled request closes its open question', async () => {
  const { connection } = await connect(async q => {
    await new Promise(r => setTimeout(r, 1500));
    return { action: 'accept', values: { name: 'slow ' + q.server } };
  });
  try {
    await connection.connect();
    // 700 ms for the request, 1.5 s for the user: the clock stops while the question is open.
    assert.equal(
      text(await connection.getPrompt('ask_name', {}, { timeoutMs: 700 })),
      'ask_name: action=accept content={"name":"slow q"}',
    );
  } finally {
    await connection.dispose();
  }

  let seen: FormQuestion | undefined;
  const { connection: c2 } = await connect(
    q =>
      new Promise(resolve => {
        seen = form(q);
        q.signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
      }),
  );
  try {
    const abort = new AbortController();
    const pending = c2.getPrompt('ask_name', {}, { signal: abort.signal });
    await waitFor(() => seen, 'the question');
    abort.abort();
    assert.equal((await rejection(pending)).kind, 'cancelled');
    await waitFor(() => seen?.signal.aborted, 'the question to close with its request');
  } finally {
    await c2.dispose();
  }
});

test('describeAnswer: the transcript line for each action', () => {
  const q: FormQuestion = {
    mode: 'form',
    server: 's',
    during: 'prompt "p"',
    message: 'Pick',
    signal: new AbortController().signal,
    fields: [
      field({ kind: 'enum', name: 'c', label: 'Color', choices: [{ value: '#f00', label: 'Red' }] }),
      field({ kind: 'string', name: 'password', label: 'Password', secret: true }),
    ],
  };
  assert.equal(
    describeAnswer(q, { action: 'accept', values: { c: '#f00', password: 'hunter2' } }),
    's asked: Pick — you answered: Color = Red; Password = ***',
  );
  assert.equal(describeAnswer(q, { action: 'decline' }), 's asked: Pick — you declined');
  assert.equal(describeAnswer(q, { action: 'cancel' }), 's asked: Pick — cancelled');
});

test("over Streamable HTTP too: the question arrives on the request's stream and the answer reaches the server", async () => {
  const { startHttpFixture } = await launch();
  const server = await startHttpFixture('questions');
  const [def] = defs({ web: { url: server.url } });
  const { asked, asker } = recording(() => ({ action: 'accept', values: { name: 'Http' } }));
  const connection = new ServerConnection(def, {
    log: new RecordingLog(),
    restart: false,
    timeoutMs: 20000,
    questions: asker,
  });
  try {
    assert.equal(text(await connection.getPrompt('ask_name', {})), 'ask_name: action=accept content={"name":"Http"}');
    assert.equal(asked[0]?.server, 'web');
  } finally {
    await connection.dispose();
    await server.close();
  }
});

test('2026-07-28 input_required: the question inside a prompts/get result goes through the same asker; the answer is sent on the retry, password-like values hidden in the trace', async () => {
  const { modernCommand } = await launch();
  const run = async (answer: QuestionAnswer, prompt = 'sign') => {
    const { asked, asker } = recording(() => answer);
    const log = new RecordingLog();
    const [def] = defs({ m: { ...modernCommand(), env: { MODERN_QUESTIONS: '1' } } });
    const connection = new ServerConnection(def, { log, restart: false, timeoutMs: 20000, questions: asker });
    try {
      return { text: text(await connection.getPrompt(prompt, {})), asked, log, era: connection.info?.era };
    } finally {
      await connection.dispose();
    }
  };
  const accepted = await run({ action: 'accept', values: { name: 'Ada', token: 'tok-98765' } });
  assert.equal(accepted.era, 'modern');
  const q = form(accepted.asked[0]);
  assert.equal(accepted.asked.length, 1);
  assert.deepEqual([q.server, q.during, q.message], ['m', 'prompt "sign"', 'Who signs?']);
  assert.deepEqual(
    q.fields.map(f => [f.name, f.required, f.secret]),
    [
      ['name', true, false],
      ['token', false, true],
    ],
  );
  assert.equal(accepted.text, 'signed by {"name":"Ada","token":"tok-98765"}');
  assert.ok(
    accepted.log.lines.some(
      l => l.level === 'trace' && l.message.startsWith('-> ') && l.message.includes('"token":"***"'),
    ),
    'the traced retry',
  );
  assert.deepEqual(
    accepted.log.lines.filter(l => !l.message.startsWith('[stderr]') && l.message.includes('tok-98765')),
    [],
  );
  assert.equal((await run({ action: 'decline' })).text, 'sign: decline');
  // A 2026-07-28 URL question has no elicitationId: it is asked all the same (before: refused with -32602).
  const site = await run({ action: 'accept' }, 'open_site');
  const u = site.asked[0]?.mode === 'url' ? site.asked[0] : assert.fail('expected a URL question');
  assert.deepEqual(
    [u.url, u.host, u.elicitationId, u.during],
    ['https://example.com/connect?m=1', 'example.com', undefined, 'prompt "open_site"'],
  );
  assert.equal(site.text, 'open_site: accept');
});

test('a completion that may show no question (the chat input): the question is cancelled without asking, the server hears cancel, the log says why', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept', values: { tone: 'warm' } }));
  const { connection, log } = await connect(asker);
  try {
    const quiet = await connection.complete('tone', 'tone', 'w', {}, { questions: false });
    assert.deepEqual(quiet.values, []);
    assert.equal(asked.length, 0, 'not asked');
    assert.ok(
      log.lines.some(
        l =>
          l.level === 'warn' &&
          l.message ===
            'q asked a question during completion of "tone" in the chat input: cancelled, as a question there would take the keyboard from what you type',
      ),
    );
    // The same completion elsewhere (the argument input) asks.
    const asking = await connection.complete('tone', 'tone', 'w', {});
    assert.deepEqual(asking.values, ['warm']);
    assert.equal(asked.length, 1);
    const answers = await connection.getPrompt('answers', {});
    assert.equal(text(answers), 'tone: action=cancel\ntone: action=accept content={"tone":"warm"}');
  } finally {
    await connection.dispose();
  }
});

test('a question during a listing nobody started (the window opens, list_changed) is cancelled with a log line; the listing goes on', async () => {
  const { asked, asker } = recording(() => ({ action: 'accept', values: { filter: 'all' } }));
  const { fixtureCommand } = await launch();
  const dir = tempDir();
  const pidFile = path.join(dir, 'pid');
  const record = path.join(dir, 'answers');
  const env = { QUESTIONS_PID_FILE: pidFile, QUESTIONS_RECORD: record };
  const logs = new Map<string, RecordingLog>();
  const connection = (def: { id: string }) => {
    const log = new RecordingLog();
    logs.set(def.id, log);
    return { restart: false as const, questions: asker, log };
  };
  // Eager: the window starts every server and lists it; nobody asked for that.
  const eager = new Catalog({ start: 'eager', startServers: 'onStartup', debounceMs: 50, connection });
  eager.setServers(defs({ q: { ...fixtureCommand('questions'), env: { ...env, QUESTIONS_ON_LIST: '1' } } }));
  const lazy = new Catalog({ start: 'lazy', debounceMs: 50, connection });
  lazy.setServers(defs({ r: { ...fixtureCommand('questions'), env: { ...env, QUESTIONS_ON_LIST: 'signal' } } }));
  const answers = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
  const cancelledLine = (id: string) =>
    logs
      .get(id)
      ?.lines.some(
        l =>
          l.level === 'warn' &&
          l.message === `${id} asked a question during listing prompts, which nothing you did started: cancelled`,
      );
  try {
    await waitFor(() => (eager.server('q')?.prompts.length ?? 0) > 0, 'the first listing');
    assert.equal(asked.length, 0, 'not asked');
    assert.deepEqual(answers(), ['list: action=cancel'], 'the server heard cancel');
    assert.ok(cancelledLine('q'), logs.get('q')?.text());
    // A list change: the re-list asks, and nobody started it either.
    await lazy.ready();
    process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGUSR2');
    await waitFor(() => answers().length === 2, 'the re-list');
    assert.equal(answers()[1], 'list: action=cancel');
    assert.equal(asked.length, 0);
    assert.ok(cancelledLine('r'), logs.get('r')?.text());
    // The re-list ends (the server heard the cancel before it answered the list): a Refresh while it
    // runs would share that listing, whose question is already cancelled.
    await lazy.ready();
    // A listing the person asked for (Refresh) may ask.
    await lazy.refresh('r');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].during, 'listing prompts');
    assert.equal(answers()[2], 'list: action=accept content={"filter":"all"}');
  } finally {
    await eager.dispose();
    await lazy.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test(`at most ${MAX_QUESTIONS_PER_MINUTE} questions a minute from one server: the rest are cancelled without asking`, async () => {
  const { asked, asker } = recording(() => ({ action: 'accept', values: { name: 'Ada' } }));
  const { connection, log } = await connect(asker);
  try {
    for (let i = 0; i < MAX_QUESTIONS_PER_MINUTE; i++)
      assert.equal(text(await connection.getPrompt('ask_name', {})), 'ask_name: action=accept content={"name":"Ada"}');
    assert.equal(text(await connection.getPrompt('ask_name', {})), 'ask_name: action=cancel');
    assert.equal(asked.length, MAX_QUESTIONS_PER_MINUTE);
    assert.ok(
      log.lines.some(
        l =>
          l.level === 'warn' &&
          l.message === `q asked more than ${MAX_QUESTIONS_PER_MINUTE} questions in a minute: cancelled without asking`,
      ),
    );
  } finally {
    await connection.dispose();
  }
});

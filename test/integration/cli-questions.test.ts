// The CLI answers servers' questions: on a terminal (a real pseudo-terminal through `script`), from
// `--answer FIELD=VALUE` flags, or not at all (exit 2 naming the server, the question and the fields).
// The `questions` fixture reports the action it received in the prompt's text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, launch, runCli, tempDir, waitFor } from './helpers';

let dir: string;
let config: string;

before(async () => {
  const L = await launch();
  dir = tempDir('mcp-prompts-cli-q-');
  config = path.join(dir, 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { q: L.fixtureCommand('questions') } }));
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('without a terminal and without --answer: exit 2 with one line naming the server, the question and the fields', async () => {
  const r = await runCli(['get', 'q.ask_name', '--config', config]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    'mcp-prompts: q asks "Which name shall I use?" (fields: name*); answer with --answer FIELD=VALUE or run in a terminal\n',
  );
  assert.equal(r.stdout, '', 'nothing printed: the run stopped at the question');
  const url = await runCli(['get', 'q.open_url', '--config', config]);
  assert.equal(url.code, 2);
  assert.equal(
    url.stderr,
    'mcp-prompts: q asks you to open https://example.com/connect?e=1; run in a terminal to answer\n',
  );
});

test('--answer FIELD=VALUE answers (defaults fill the rest); values are checked; a question inside completion too', async () => {
  const r = await runCli([
    'get',
    'q.form',
    '--config',
    config,
    '--answer',
    'email=a@b.co',
    '--answer',
    'tags=x,z',
    '--answer',
    'subscribe=no',
    '--answer',
    'size=Large',
    '--answer',
    'api_token=t0k',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /form: action=accept content=\{"name":"Ada","email":"a@b\.co","age":36,"subscribe":false,"color":"green","size":"l","tags":\["x","z"\],"api_token":"t0k"\}/,
  );
  const bad = await runCli(['get', 'q.form', '--config', config, '--answer', 'email=a@b.co', '--answer', 'age=200']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'mcp-prompts: q asks "Tell us about you": --answer age: Age is at most 150\n');
  const missing = await runCli(['get', 'q.form', '--config', config, '--answer', 'age=20']);
  assert.equal(missing.stderr, 'mcp-prompts: q asks "Tell us about you": no --answer for email\n');
  const completion = await runCli(['complete', 'q.pick_color', 'color', '--config', config, '--answer', 'shade=light']);
  assert.equal(completion.code, 0, completion.stderr);
  assert.equal(completion.stdout, 'white\nyellow\n');
  const malformed = await runCli(['get', 'q.ask_name', '--config', config, '--answer', 'name']);
  assert.equal(malformed.code, 2);
  assert.equal(malformed.stderr, 'mcp-prompts: expected --answer FIELD=VALUE, got "name"\n');
});

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The CLI on a pseudo-terminal: `expect` waits for text on the screen, `type` sends a line. */
function onTerminal(args: string[]) {
  const command = [process.execPath, CLI, ...args].map(a => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, TERM: 'dumb' },
  });
  let screen = '';
  let seen = 0;
  child.stdout.setEncoding('utf8').on('data', d => {
    screen += d;
  });
  const exited = new Promise<number | null>(resolve => child.once('close', code => resolve(code)));
  return {
    get screen() {
      return screen;
    },
    async expect(text: string) {
      const at = await waitFor(
        () => {
          const i = screen.indexOf(text, seen);
          return i >= 0 ? i + 1 : 0;
        },
        `"${text}" on the terminal (screen: ${JSON.stringify(screen)})`,
      );
      seen = at - 1 + text.length;
    },
    type(line: string) {
      child.stdin.write(`${line}\r`);
    },
    exited,
    kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    },
  };
}

test(
  'on a terminal: each field is asked, a wrong value is asked again, password-like input is not echoed; accept, decline and cancel reach the server',
  { skip: !hasScript && 'no `script` for a pseudo-terminal' },
  async () => {
    const t = onTerminal(['get', 'q.form', '--config', config]);
    try {
      await t.expect('q asks: Tell us about you');
      await t.expect('Your name * (2–20 characters) [Ada]: ');
      t.type('');
      await t.expect('Email * (an email address): ');
      t.type('nope');
      await t.expect('Email must be an email address');
      t.type('g@h.io');
      await t.expect('Day (a date (YYYY-MM-DD)): ');
      t.type('');
      await t.expect('Age * (whole number, 1–150) [36]: ');
      t.type('41');
      await t.expect('Ratio');
      t.type('');
      await t.expect('Subscribe y/n [true]: ');
      t.type('n');
      await t.expect('Color 1) red 2) green 3) blue [green]: ');
      t.type('3');
      await t.expect('Size 1) Small 2) Large: ');
      t.type('2');
      await t.expect('Legacy 1) Option A 2) Option B: ');
      t.type('');
      await t.expect('Tags (choose 1–2)');
      t.type('1,2');
      await t.expect('Toppings');
      t.type('Olives');
      await t.expect('API token: ');
      t.type('tok-secret');
      await t.expect('Code: ');
      t.type('');
      await t.expect('Send to q? [y]es / [d]ecline / [c]ancel: ');
      t.type('y');
      assert.equal(await t.exited, 0, t.screen);
      assert.match(
        t.screen,
        /form: action=accept content=\{"name":"Ada","email":"g@h\.io","age":41,"subscribe":false,"color":"blue","size":"l","tags":\["x","y"\],"toppings":\["ol"\],"api_token":"tok-secret"\}/,
      );
      assert.equal(
        t.screen.split('tok-secret').length,
        2,
        "the token shows only in the server's reply, never as typed",
      );
    } finally {
      t.kill();
    }

    const d = onTerminal(['get', 'q.ask_name', '--config', config]);
    try {
      await d.expect('Name * (≥ 2 characters): ');
      d.type('Zed');
      await d.expect('Send to q?');
      d.type('d');
      assert.equal(await d.exited, 0);
      assert.match(d.screen, /ask_name: action=decline/);
    } finally {
      d.kill();
    }

    const c = onTerminal(['get', 'q.open_url', '--config', config]);
    try {
      await c.expect('https://example.com/connect?e=1');
      await c.expect('host: example.com');
      await c.expect('Open it in your browser? [y]es / [d]ecline / [c]ancel: ');
      c.type('c');
      assert.equal(await c.exited, 0);
      assert.match(c.screen, /open_url: action=cancel/);
    } finally {
      c.kill();
    }
  },
);

test(
  '-32042 (URL elicitation required): without a terminal exit 2 naming the page; on a terminal the page is shown, Enter after finishing retries once, decline names the server',
  { skip: !hasScript && 'no `script` for a pseudo-terminal' },
  async () => {
    const r = await runCli(['get', 'q.connect_first', '--config', config]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'mcp-prompts: q asks you to open https://example.com/connect?c=1; run in a terminal to answer\n',
    );

    const t = onTerminal(['get', 'q.connect_first', '--config', config]);
    try {
      await t.expect('q asks: Connect your account first');
      await t.expect('host: example.com');
      await t.expect('Open it in your browser? [y]es / [d]ecline / [c]ancel: ');
      t.type('y');
      await t.expect('Open this address in your browser: https://example.com/connect?c=1');
      await t.expect('Press Enter when you have finished there (c to cancel): ');
      t.type('');
      assert.equal(await t.exited, 0, t.screen);
      assert.match(t.screen, /connect_first: connected after 1 required/);
    } finally {
      t.kill();
    }

    const d = onTerminal(['get', 'q.connect_first', '--config', config]);
    try {
      await d.expect('Open it in your browser? [y]es / [d]ecline / [c]ancel: ');
      d.type('d');
      assert.equal(await d.exited, 2, d.screen);
      assert.match(d.screen, /q needs you to open a page on example\.com before prompt "connect_first"; you declined/);
    } finally {
      d.kill();
    }
  },
);

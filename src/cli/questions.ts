// The CLI's answers to servers' questions: asked on the terminal when stdin is one, otherwise taken
// from `--answer FIELD=VALUE` flags (and the fields' defaults). When neither can answer, the run
// stops with exit code 2 and one line naming the server, the question and its fields.
import readline from 'node:readline';
import { Writable } from 'node:stream';
import {
  checkValue,
  fieldHint,
  type Asker,
  type Field,
  type FieldValue,
  type FormQuestion,
  type QuestionAnswer,
  type UrlQuestion,
} from '../core/protocol/questions/elicitation.js';
import { PromptError } from '../core/errors.js';
import { terminalLine } from '../core/render/terminal.js';

export class CliQuestions {
  /** Why the run must stop (exit 2): no way to answer, or an `--answer` the question refuses. */
  failure?: string;
  private readonly abort = new AbortController();
  /** Aborted on a failure: the request that asked ends at once. */
  readonly signal = this.abort.signal;

  constructor(
    private readonly answers: Record<string, string>,
    private readonly tty: boolean,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {}

  readonly ask: Asker = async question => {
    if (this.failure) return { action: 'cancel' };
    if (this.tty) return question.mode === 'url' ? this.askUrl(question) : this.askForm(question);
    if (question.mode === 'form' && Object.keys(this.answers).length) return this.fromFlags(question);
    const what =
      question.mode === 'url'
        ? `asks you to open ${question.url}; run in a terminal to answer`
        : `asks "${question.message}" (fields: ${question.fields.map(f => `${f.name}${f.required ? '*' : ''}`).join(', ')}); answer with --answer FIELD=VALUE or run in a terminal`;
    return this.fail(`${question.server} ${what}`);
  };

  private fail(line: string): QuestionAnswer {
    this.failure = terminalLine(line);
    this.abort.abort();
    return { action: 'cancel' };
  }

  private fromFlags(question: FormQuestion): QuestionAnswer {
    const values: Record<string, FieldValue> = {};
    const missing: string[] = [];
    for (const f of question.fields) {
      const given = this.answers[f.name];
      if (given === undefined) {
        if (f.default !== undefined) values[f.name] = f.default;
        else if (f.required) missing.push(f.name);
        continue;
      }
      const r = checkValue(f, given);
      if ('problem' in r)
        return this.fail(`${question.server} asks "${question.message}": --answer ${f.name}: ${r.problem}`);
      if (r.ok !== undefined) values[f.name] = r.ok;
    }
    if (missing.length)
      return this.fail(`${question.server} asks "${question.message}": no --answer for ${missing.join(', ')}`);
    return { action: 'accept', values };
  }

  /** A line from the terminal; undefined at end of input or when the question is withdrawn. */
  private line(rl: readline.Interface, prompt: string, signal: AbortSignal): Promise<string | undefined> {
    return new Promise(resolve => {
      const done = (v: string | undefined) => {
        rl.off('close', closed);
        signal.removeEventListener('abort', closed);
        resolve(v);
      };
      const closed = () => done(undefined);
      rl.once('close', closed);
      signal.addEventListener('abort', closed);
      rl.question(prompt, done);
    });
  }

  private open(): { rl: readline.Interface; mute: (on: boolean) => void } {
    let muted = false;
    const out = this.output;
    // Password-like fields are read without echo.
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (!muted) out.write(chunk);
        cb();
      },
    });
    const rl = readline.createInterface({ input: this.input, output: sink, terminal: this.tty });
    return {
      rl,
      mute: on => {
        muted = on;
      },
    };
  }

  private async askForm(q: FormQuestion): Promise<QuestionAnswer> {
    this.output.write(`${terminalLine(`${q.server} asks: ${q.message}`)}\n`);
    const { rl, mute } = this.open();
    try {
      const values: Record<string, FieldValue> = {};
      for (const f of q.fields) {
        for (;;) {
          // Readline writes the prompt at once; muting after it hides only what is typed.
          const pending = this.line(rl, terminalLine(promptFor(f)) + ': ', q.signal);
          mute(f.secret);
          const text = await pending;
          mute(false);
          if (f.secret) this.output.write('\n');
          if (text === undefined) return { action: 'cancel' };
          const r =
            text === '' && f.default !== undefined
              ? { ok: f.default }
              : checkValue(
                  f,
                  f.kind === 'multi' ? byNumber(f, text) : f.kind === 'enum' ? (byNumber(f, text)[0] ?? '') : text,
                );
          if ('problem' in r) {
            this.output.write(`${terminalLine(r.problem)}\n`);
            continue;
          }
          if (r.ok !== undefined) values[f.name] = r.ok;
          break;
        }
      }
      for (;;) {
        const choice = await this.line(
          rl,
          `Send to ${terminalLine(q.server)}? [y]es / [d]ecline / [c]ancel: `,
          q.signal,
        );
        if (choice === undefined || /^c/i.test(choice)) return { action: 'cancel' };
        if (/^d/i.test(choice)) return { action: 'decline' };
        if (/^y?$/i.test(choice.trim()) || /^y/i.test(choice)) return { action: 'accept', values };
      }
    } finally {
      rl.close();
    }
  }

  private async askUrl(q: UrlQuestion): Promise<QuestionAnswer> {
    this.output.write(
      `${terminalLine(`${q.server} asks: ${q.message}`)}\n  ${terminalLine(q.url)}\n  host: ${terminalLine(q.host)}${q.warning ? `\n  ${terminalLine(q.warning)}` : ''}\n`,
    );
    const { rl } = this.open();
    try {
      for (;;) {
        const choice = await this.line(rl, 'Open it in your browser? [y]es / [d]ecline / [c]ancel: ', q.signal);
        if (choice === undefined || /^c/i.test(choice)) return { action: 'cancel' };
        if (/^d/i.test(choice)) return { action: 'decline' };
        if (/^y/i.test(choice)) {
          // The CLI opens nothing itself: the address is for the user's browser.
          this.output.write(`Open this address in your browser: ${terminalLine(q.url)}\n`);
          if (!q.finished) return { action: 'accept' };
          // -32042: the request is retried when the user (or the server) says the page is done.
          const done = await Promise.race([
            this.line(rl, `Press Enter when you have finished there (c to cancel): `, q.signal),
            q.finished.then(() => ''),
          ]);
          return done === undefined || /^c/i.test(done) ? { action: 'cancel' } : { action: 'accept' };
        }
      }
    } finally {
      rl.close();
    }
  }
}

function promptFor(f: Field): string {
  const hint = fieldHint(f);
  const choices =
    f.kind === 'boolean'
      ? 'y/n'
      : f.choices
        ? f.choices.map((c, i) => `${i + 1}) ${c.label}`).join(' ') +
          (f.kind === 'multi' ? ', several with commas' : '')
        : '';
  const shownDefault =
    f.default === undefined
      ? ''
      : f.secret
        ? ' [***]'
        : ` [${Array.isArray(f.default) ? f.default.join(',') : String(f.default)}]`;
  return `  ${f.label}${f.required ? ' *' : ''}${hint ? ` (${hint})` : ''}${choices ? ` ${choices}` : ''}${f.description ? ` — ${f.description}` : ''}${shownDefault}`;
}

/** "2, 3" chooses the 2nd and 3rd choice; anything else is taken as values or labels. */
function byNumber(f: Field, text: string): string[] {
  return text
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
    .map(s => (/^\d+$/.test(s) && f.choices?.[Number(s) - 1] ? f.choices[Number(s) - 1].value : s));
}

/** `--answer FIELD=VALUE` flags as a map; a flag without `=` is bad input. */
export function parseAnswers(flags: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new PromptError(`expected --answer FIELD=VALUE, got "${flag}"`, 'input');
    out[flag.slice(0, eq)] = flag.slice(eq + 1);
  }
  return out;
}

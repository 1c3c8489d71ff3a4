// The walkthrough and the view's welcome content in package.json: each step completes on an event that
// really happens (a contributed command or view, a context key the code sets), its picture ships and
// follows the theme, every link leads to a command that exists, and each welcome case has one action.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; markdown?: string; altText?: string };
  completionEvents: string[];
}
const pkg = JSON.parse(read('package.json')) as {
  name: string;
  publisher: string;
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; when: string; contents: string }[];
    walkthroughs?: { id: string; steps: Step[] }[];
  };
};
const commands = new Set(pkg.contributes.commands.map(c => c.command));
const views = new Set(Object.values(pkg.contributes.views).flatMap(v => v.map(x => x.id)));
/** VS Code's own commands the texts link to. */
const WORKBENCH = new Set(['workbench.action.openSettings', 'workbench.action.chat.open', 'workbench.trust.manage']);
const nlsFiles = fs.readdirSync(root).filter(f => /^package\.nls(\..+)?\.json$/.test(f));
const nls = (file: string) => JSON.parse(read(file)) as Record<string, string>;
const key = (ref: string) => /^%(.+)%$/.exec(ref)?.[1] ?? assert.fail(`${ref} is not a %key%`);

function sourceText(dir = path.join(root, 'src')): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map(e => (e.isDirectory() ? sourceText(path.join(dir, e.name)) : fs.readFileSync(path.join(dir, e.name), 'utf8')))
    .join('\n');
}

test('the walkthrough has the four steps in order', () => {
  const walk = pkg.contributes.walkthroughs?.[0];
  assert.ok(walk, 'package.json contributes a walkthrough');
  assert.deepEqual(
    walk.steps.map(s => s.id),
    ['findServers', 'runPrompt', 'tryChat', 'browseSidebar'],
  );
});

test('each step completes on a real event: a contributed command or view, or a context key the code sets', () => {
  const src = sourceText();
  const steps = pkg.contributes.walkthroughs?.[0]?.steps ?? [];
  assert.equal(steps.length, 4);
  for (const step of steps) {
    assert.ok(step.completionEvents.length, `${step.id} has completion events`);
    for (const event of step.completionEvents) {
      const [, kind, arg] = /^(\w+):(.+)$/.exec(event) ?? assert.fail(`${step.id}: ${event}`);
      if (kind === 'onCommand') assert.ok(commands.has(arg), `${step.id}: ${arg} is a contributed command`);
      else if (kind === 'onView') assert.ok(views.has(arg), `${step.id}: ${arg} is a contributed view`);
      else if (kind === 'onContext') {
        // A single key: the code must set it with setContext (a constant holding it).
        assert.match(arg, /^mcpPrompts\.\w+$/, `${step.id}: one context key`);
        assert.ok(src.includes(`'${arg}'`), `${step.id}: the code spells ${arg}`);
        assert.ok(src.includes("'setContext'"), 'the code sets context keys');
      } else assert.fail(`${step.id}: unexpected completion event ${event}`);
    }
  }
});

/** The `!` lines of .vscodeignore (what ships, everything else being ignored) as path patterns. */
function shipped(ignore: string): RegExp[] {
  return ignore
    .split('\n')
    .filter(l => l.startsWith('!'))
    .map(l => {
      const glob = l.slice(1).trim();
      const pattern = glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*/g, '\0')
        .replace(/\*/g, '[^/]*');
      return new RegExp(`^${pattern.replace(/\0/g, '.*')}$`);
    });
}

test('each step has a small theme-aware picture that ships, with alt text', () => {
  const ignore = read('.vscodeignore');
  const steps = pkg.contributes.walkthroughs?.[0]?.steps ?? [];
  assert.equal(steps.length, 4);
  for (const step of steps) {
    const svg = step.media.svg ?? assert.fail(`${step.id} has an SVG picture`);
    const text = read(svg);
    assert.ok(text.length < 4096, `${svg} is small (${text.length} bytes)`);
    assert.match(text, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Every colour is a theme variable (a fallback inside var() is allowed), so light and dark themes work.
    const bare = [...text.matchAll(/(?:fill|stroke)="([^"]+)"/g)]
      .map(m => m[1])
      .filter(v => v !== 'none' && !v.startsWith('var(--vscode-'));
    assert.deepEqual(bare, [], `${svg}: colours outside theme variables`);
    assert.doesNotMatch(text, /<script|href=/i, `${svg}: no scripts or links`);
    assert.ok(step.media.altText, `${step.id} has alt text`);
    assert.ok(
      shipped(ignore).some(glob => glob.test(svg)),
      `${svg} is in the .vsix (.vscodeignore)`,
    );
  }
});

test('every link in the walkthrough and the welcome content, in every language, runs a command that exists', () => {
  const refs = [
    ...(pkg.contributes.walkthroughs?.[0]?.steps ?? []).map(s => s.description),
    ...pkg.contributes.viewsWelcome.map(w => w.contents),
  ].map(key);
  assert.ok(refs.length >= 7);
  for (const file of nlsFiles) {
    const strings = nls(file);
    for (const k of refs) {
      const text = strings[k] ?? assert.fail(`${file} has ${k}`);
      const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map(m => m[1]);
      assert.ok(links.length, `${file} ${k} has a link`);
      for (const link of links) {
        const id =
          /^command:([\w.]+)(\?.*)?$/.exec(link)?.[1] ?? assert.fail(`${file} ${k}: ${link} is not a command link`);
        assert.ok(commands.has(id) || WORKBENCH.has(id), `${file} ${k}: ${id} exists`);
        const args = /\?(.*)$/.exec(link)?.[1];
        // A malformed argument would make the link do nothing.
        const parsed: unknown = args ? JSON.parse(decodeURIComponent(args)) : undefined;
        if (id === 'mcpPrompts.walkthroughAction') {
          assert.ok(Array.isArray(parsed) && commands.has(parsed[0] as string), `${file} ${k}: ${link} runs a command`);
        }
      }
    }
  }
});

test('the view has welcome content for no servers, all failing and untrusted, each with its one action', () => {
  const welcome = pkg.contributes.viewsWelcome.filter(w => w.view === 'mcpPrompts.prompts');
  assert.deepEqual(
    welcome.map(w => w.when),
    ['mcpPrompts.welcome == noServers', 'mcpPrompts.welcome == allFailing', 'mcpPrompts.welcome == untrusted'],
  );
  const action: Record<string, string> = {
    noServers: 'mcpPrompts.addServer',
    allFailing: 'mcpPrompts.showLog',
    untrusted: 'workbench.trust.manage',
  };
  for (const file of nlsFiles) {
    for (const w of welcome) {
      const text = nls(file)[key(w.contents)];
      // A line that is only a link is a button: exactly one, the case's action.
      const buttons = text.split('\n').filter(line => /^\[[^\]]+\]\([^)]+\)$/.test(line.trim()));
      const expected = action[w.when.split(' == ')[1]];
      assert.deepEqual(
        buttons.map(b => /\(command:([\w.]+)/.exec(b)?.[1]),
        [expected],
        `${file} ${w.when}: one button, ${expected}`,
      );
    }
  }
});

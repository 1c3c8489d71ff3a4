// What the person confirms before the agent's get tool sends anything: the server, the prompt and every
// argument value exactly as it will be sent. The spec calls prompts user-controlled, so this is the only
// way a prompt reaches the agent. Server names, titles, the prompt's name and argument names go through
// the label rule; values are shown whole in code, with every character that hides text (tag characters,
// zero-width spaces, variation selectors, controls, bidi overrides: hidden-text.ts) written out as an
// escape and counted in a warning, so what is read is what is sent. A server whose name may imitate
// another, or reads as another configured server's does, is named with its id and where it is defined.
import * as l10n from '@vscode/l10n';
import type { ServerEntry } from '../catalog/catalog.js';
import { countHidden } from '../hidden-text.js';
import { labelText } from '../label.js';
import { codeSpan, escapeLabel } from '../render/markdown.js';
import { terminalText } from '../render/terminal.js';
import type { Prepared } from '../run/prompt-runner.js';
import { definedIn, lookAlikeWarning, namedAlike, serverNameWarning } from './names.js';

export interface Confirmation {
  /** Plain text. */
  title: string;
  /** Markdown, to be rendered untrusted (no HTML, no command links). */
  message: string;
}

/** A value short and plain enough to read inline; anything else is shown as a block. */
const INLINE = /^\S+(?: \S+)*$/;
const INLINE_CHARS = 80;

/** `servers`: every configured server, to name the ones whose names read alike. */
export function promptConfirmation(
  { prompt, args }: Prepared,
  servers: readonly ServerEntry[] = [prompt.server],
): Confirmation {
  const server = prompt.server.def.name;
  const name = labelText(prompt.prompt.name);
  const title = l10n.t('Get the prompt {0} from the MCP server {1}?', labelText(name, 80), labelText(server, 80));
  const shownTitle = prompt.prompt.title ? `**${escapeLabel(prompt.prompt.title)}** ` : '';
  const lines = [
    Object.keys(args).length
      ? l10n.t(
          'The agent asks for the prompt {0} of the MCP server {1}, with these arguments:',
          `${shownTitle}${codeSpan(name)}`,
          `**${escapeLabel(server)}**`,
        )
      : l10n.t(
          'The agent asks for the prompt {0} of the MCP server {1}, without arguments.',
          `${shownTitle}${codeSpan(name)}`,
          `**${escapeLabel(server)}**`,
        ),
    '',
  ];
  const warning = lookAlikeWarning(prompt);
  if (warning) lines.push(`⚠️ ${escapeLabel(warning)}`, '');
  lines.push(...serverLines(prompt.server, servers));
  const hidden = Object.values(args).reduce((sum, value) => sum + countHidden(value), 0);
  if (hidden)
    lines.push(
      `⚠️ ${escapeLabel(
        l10n.t(
          'The values hold {0} characters that do not show on screen. Each is written out below as its code (\\u200b, \\u{e0041}); the server receives the characters themselves.',
          hidden,
        ),
      )}`,
      '',
    );
  for (const [argument, value] of Object.entries(args)) lines.push(...argumentLines(argument, value), '');
  const left = (prompt.prompt.arguments ?? []).filter(a => !(a.name in args)).map(a => escapeLabel(a.name));
  if (left.length) lines.push(l10n.t('Not given: {0}', left.join(', ')), '');
  lines.push(
    l10n.t(
      'Nothing is sent to {0} before you allow it. What it returns goes to the agent, marked as text from {0}.',
      `**${escapeLabel(server)}**`,
    ),
  );
  return { title, message: lines.join('\n') };
}

/**
 * For a server whose name may imitate another, or reads as another's: its id and where it is defined,
 * then the same of each server named alike. Nothing for a plain name of its own.
 */
function serverLines(entry: ServerEntry, servers: readonly ServerEntry[]): string[] {
  const warning = serverNameWarning(entry.def.name);
  const alike = namedAlike(entry, servers);
  if (!warning && !alike.length) return [];
  const where = (s: ServerEntry) =>
    l10n.t(
      '{0} (id {1}) is defined in {2}.',
      `**${escapeLabel(s.def.name)}**`,
      codeSpan(s.id),
      escapeLabel(definedIn(s.def)),
    );
  const lines: string[] = [];
  if (warning)
    lines.push(`⚠️ ${escapeLabel(l10n.t('The name of the MCP server {0} {1}.', labelText(entry.def.name), warning))}`);
  lines.push(where(entry));
  for (const other of alike) lines.push(`${escapeLabel(l10n.t('Another server is named like it:'))} ${where(other)}`);
  return [lines.join('  \n'), ''];
}

/** `**name**: \`value\`` for a short plain value; else the name, then the whole value in a fence no line of it can close. */
function argumentLines(name: string, value: string): string[] {
  const label = `**${escapeLabel(name)}**`;
  if (INLINE.test(value) && value.length <= INLINE_CHARS && !countHidden(value))
    return [`${label}: ${codeSpan(value)}`];
  const shown = terminalText(value);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map(m => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${label}:`, '', fence, shown, fence];
}

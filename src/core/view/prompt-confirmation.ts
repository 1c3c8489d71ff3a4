// What the person confirms before the agent's get tool sends anything: the server, the prompt and every
// argument value exactly as it will be sent. The spec calls prompts user-controlled, so this is the only
// way a prompt reaches the agent. Server names, titles and argument names go through the label rule;
// values are shown whole in code (control characters and bidi overrides as visible escapes), so what is
// read is what is sent.
import * as l10n from '@vscode/l10n';
import { labelText } from '../label.js';
import { codeSpan, escapeLabel } from '../render/markdown.js';
import { terminalText } from '../render/terminal.js';
import type { Prepared } from '../run/prompt-runner.js';
import { lookAlikeWarning } from './names.js';

export interface Confirmation {
  /** Plain text. */
  title: string;
  /** Markdown, to be rendered untrusted (no HTML, no command links). */
  message: string;
}

/** A value short and plain enough to read inline; anything else is shown as a block. */
const INLINE = /^\S+(?: \S+)*$/;
const INLINE_CHARS = 80;

export function promptConfirmation({ prompt, args }: Prepared): Confirmation {
  const server = prompt.server.def.name;
  const name = prompt.prompt.name;
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

/** `**name**: \`value\`` for a short plain value; else the name, then the whole value in a fence no line of it can close. */
function argumentLines(name: string, value: string): string[] {
  const label = `**${escapeLabel(name)}**`;
  if (INLINE.test(value) && value.length <= INLINE_CHARS && !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(value))
    return [`${label}: ${codeSpan(value)}`];
  const shown = terminalText(value);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map(m => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${label}:`, '', fence, shown, fence];
}

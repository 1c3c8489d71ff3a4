// The rows of the prompt browser (the sidebar tree), as plain data: the edge (src/ui/tree.ts,
// src/ui/descriptors.ts) turns them into vscode.TreeItem and adds nothing of its own. Every server
// string (names, titles, descriptions, problems) goes through labelText() on its way in here. The
// picker's rows are in picker-rows.ts, the status bar's in status-summary.ts.
import * as l10n from '@vscode/l10n';
import type { CatalogPrompt } from '../catalog/catalog.js';
import { type CatalogSkill, requestedTools, skillCommand, skillFiles } from '../catalog/skills.js';
import { formatBytes } from '../render/content.js';
import { stateInfo } from '../protocol/connection/connection-state.js';
import { describeServerInfo } from '../protocol/connection/server-identity.js';
import { Command, Workbench, type CommandId, type WorkbenchId } from '../command-ids.js';
import { escapeLabel } from '../render/markdown.js';
import { labelText } from '../label.js';
import { safeIconSrc } from './icons.js';
import { definedIn, markLookAlike, promptLabel, serverNameWarning } from './names.js';
import { argumentsText } from './prompt-groups.js';
import {
  heldState,
  isRunning,
  lifecycleOf,
  problemOf,
  promptCount,
  serverState,
  shadowedText,
  unreachable,
  type HeldEntry,
  type LifecycleState,
  type ServerSnapshot,
} from './server-state.js';

/** A codicon (with a theme colour), or a server's image checked by safeIconSrc(). */
export type Icon = { codicon: string; color?: string } | { uri: string };
/** Tooltip pieces: our own markdown, or server text shown as plain text. */
export type TooltipPart = { markdown: string } | { text: string };
export interface CommandRef {
  command: CommandId | WorkbenchId;
  title: string;
  arguments?: unknown[];
}

export interface TreeItemView {
  id?: string;
  label: string;
  description?: string;
  tooltip?: string | TooltipPart[];
  icon: Icon;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: CommandRef;
}

/** A server's entry as the tree reads it: the state's inputs plus what its tooltip names. */
export interface ServerView extends ServerSnapshot {
  readonly prompts: readonly CatalogPrompt[];
  /** None for a server without the skills extension. */
  readonly skills?: readonly CatalogSkill[];
  readonly warnings: readonly string[];
}

const WARNING: Icon = { codicon: 'warning', color: 'problemsWarningIcon.foreground' };
/** Server text in a tooltip or a picker row's detail: room for a description, still one line. */
export const MAX_TOOLTIP_CHARS = 1000;

/** What a server row says first. `saved`: its prompts come from the saved list and it has not confirmed them. */
export function statusLabel(life: LifecycleState, saved = false): string {
  switch (life.kind) {
    case 'starting':
      return l10n.t('starting');
    case 'running':
      return l10n.t('running');
    case 'failed':
    case 'failedWithPrompts':
      return l10n.t('failed');
    case 'stopped':
      // No process now; the next run or completion starts it.
      return saved ? l10n.t('cached') : l10n.t('stopped (on demand)');
    case 'idle':
      return saved ? l10n.t('cached') : l10n.t('idle');
    default:
      return unreachable(life);
  }
}

function statusIcon(life: LifecycleState): Icon {
  switch (life.kind) {
    case 'starting':
      return { codicon: 'loading~spin' };
    case 'running':
      return life.problem !== undefined ? WARNING : { codicon: 'pass', color: 'testing.iconPassed' };
    case 'failed':
    case 'failedWithPrompts':
      return { codicon: 'error', color: 'problemsErrorIcon.foreground' };
    // Not 'debug-stop': VS Code paints that one red everywhere, and a server waiting to be needed is no fault.
    case 'stopped':
    case 'idle':
      return { codicon: 'circle-outline' };
    default:
      return unreachable(life);
  }
}

/**
 * A server row: its state, transport and prompt count; the tooltip says where it is defined and why.
 * `collapsible`: how it starts (src/ui/tree.ts decides, by tree-layout.ts's rule).
 */
export function serverItem(
  entry: ServerView,
  notes: readonly string[] = [],
  collapsible: TreeItemView['collapsible'] = 'expanded',
): TreeItemView {
  const state = serverState(entry);
  const life = lifecycleOf(state)!;
  const info = stateInfo(entry.connection.state);
  const transport = info?.transport ?? entry.def.transport.type;
  const problem = problemOf(state);
  const statusText = statusLabel(life, !!entry.cached);
  const tooltip: TooltipPart[] = [{ markdown: `**${escapeLabel(entry.def.name)}** — ${statusText}\n\n` }];
  const text = (t: string) => tooltip.push({ text: `${labelText(t, MAX_TOOLTIP_CHARS)}\n\n` });
  // Cleaned where it arrives (server-identity.ts); the latest a 2026 result named.
  if (info?.serverInfo) text(l10n.t('Server: {0}', describeServerInfo(info.serverInfo)));
  if (info?.protocolVersion) text(l10n.t('Protocol: {0}', info.protocolVersion));
  text(l10n.t('Transport: {0}', transport));
  if (problem !== undefined) text(l10n.t('Error: {0}', problem));
  text(l10n.t('Defined in: {0}', definedIn(entry.def)));
  for (const n of notes) text(n);
  for (const w of [serverNameWarning(entry.def.name), ...entry.warnings]) if (w) text(`⚠ ${w}`);
  const item: TreeItemView = {
    // A row without prompts has another id: VS Code keeps a row's first expand state per id, so the row
    // with prompts must be a new one to start as `collapsible` says (src/ui/tree.ts).
    id: collapsible === 'none' ? `server:${entry.id}:unlisted` : `server:${entry.id}`,
    label: labelText(entry.def.name),
    // A running server's listing problem is in the icon and tooltip; its row still says what runs.
    description: markLookAlike(
      entry.def.name,
      problem !== undefined && !isRunning(state)
        ? `${statusText}: ${labelText(problem)}`
        : [statusText, transport, promptCount(entry.prompts.length), ...skillCount(entry)].join(' · '),
      'description',
    ),
    tooltip,
    icon: statusIcon(life),
    // Menus key on the connection's own state (package.json `viewItem =~ /^server\.(running|starting)$/`);
    // a server waiting for a sign-in is down, as an error is.
    contextValue: `server.${entry.connection.state.kind === 'signIn' ? 'error' : entry.connection.state.kind}`,
    collapsible,
  };
  if (state.kind === 'signIn') {
    item.description = l10n.t('sign-in needed — click to sign in');
    item.command = { command: Command.signIn, title: l10n.t('Sign In'), arguments: [entry.id] };
  }
  return item;
}

type HeldBase = Omit<TreeItemView, 'icon'>;

/** A configured server that does not run: the reason, and the way out (trust, or decide again). */
export function heldItem(held: HeldEntry): TreeItemView {
  const { def } = held;
  const state = heldState(held);
  const base = {
    id: `held:${def.scope ?? def.source}:${def.id}`,
    label: markLookAlike(def.name, labelText(def.name)),
    tooltip: labelText(held.message, MAX_TOOLTIP_CHARS),
    contextValue: `held.${held.reason}`,
    collapsible: 'none' as const,
  };
  const way = heldWayOut(held);
  switch (state.kind) {
    case 'untrusted':
      return {
        ...base,
        description: l10n.t('not started: workspace not trusted'),
        tooltip: `${labelText(held.message, MAX_TOOLTIP_CHARS)}\n\n${l10n.t(
          'Servers that run commands from this workspace start only in a trusted workspace.',
        )}`,
        icon: { codicon: 'shield' },
        command: way,
      };
    case 'shadowed':
      return heldRow(base, shadowedText(held), 'circle-slash');
    case 'envFile':
      return heldRow(base, l10n.t('not started: its envFile is in the untrusted workspace'), 'shield', way);
    case 'workspaceFolder':
      return heldRow(base, l10n.t('not started: it uses the untrusted workspace folder'), 'shield', way);
    case 'consent':
      return heldRow(base, l10n.t('waiting for your consent — click to decide'), 'question', way);
    case 'declined':
      return heldRow(base, l10n.t('not started: you declined — click to allow'), 'debug-stop', way);
    // Enabling is in the row's context menu: a click on a server the user turned off does not undo that.
    case 'disabled':
      return heldRow(base, l10n.t('disabled'), 'circle-slash');
    default:
      return unreachable(state);
  }
}

/** The one action that lets a held server run: trust the workspace, decide on consent, or enable it. */
export function heldWayOut(held: HeldEntry): CommandRef | undefined {
  const state = heldState(held);
  switch (state.kind) {
    case 'untrusted':
    case 'envFile':
    case 'workspaceFolder':
      return { command: Workbench.manageTrust, title: l10n.t('Manage Workspace Trust') };
    case 'consent':
    case 'declined':
      return { command: Command.allowServer, title: l10n.t('Allow Server…'), arguments: [held.def.id] };
    case 'disabled':
      return { command: Command.enableServer, title: l10n.t('Enable Server'), arguments: [held.def.id] };
    case 'shadowed':
      return undefined;
    default:
      return unreachable(state);
  }
}

/** A held row: what it says, its codicon, and the way out if there is one. */
function heldRow(base: HeldBase, description: string, codicon: string, command?: CommandRef): TreeItemView {
  return { ...base, description, icon: { codicon }, ...(command ? { command } : {}) };
}

/** A configuration file or setting that could not be read. */
export function problemItem(origin: string, message: string): TreeItemView {
  return {
    label: labelText(origin),
    description: labelText(message),
    tooltip: labelText(message, MAX_TOOLTIP_CHARS),
    icon: WARNING,
    contextValue: 'problem',
    collapsible: 'none',
  };
}

/** Where a prompt row is: under its server, or in the pinned or recent group (with the values it ran with). */
export interface PromptRowPlace {
  group?: 'pinned' | 'recent';
  pinned?: boolean;
  args?: Record<string, string>;
}

/** A prompt row; the tree adds its own node as the run command's argument. */
export function promptItem(p: CatalogPrompt, where: PromptRowPlace = {}): TreeItemView {
  const label = labelText(promptLabel(p));
  const tooltip: TooltipPart[] = [{ markdown: `**${escapeLabel(label)}** \`/${p.invocationName}\`\n\n` }];
  if (p.prompt.description) tooltip.push({ text: labelText(p.prompt.description, MAX_TOOLTIP_CHARS) });
  const icon = safeIconSrc(p.prompt.icons);
  const description = where.args
    ? argumentsText(where.args)
    : where.group
      ? `${p.server.def.name} · ${p.prompt.name}`
      : p.prompt.title
        ? p.prompt.name
        : p.prompt.description;
  return {
    // One row per place: a prompt pinned and recent shows three times, each row with its own id.
    id: `${where.group ?? 'prompt'}:${p.invocationName}`,
    label,
    description: description === undefined ? undefined : labelText(description),
    tooltip,
    icon: icon ? { uri: icon } : { codicon: 'comment-discussion' },
    // package.json's menus: `prompt`, `prompt.pinned`, each with `.again` when the row can run again with its values.
    contextValue: `${where.pinned ? 'prompt.pinned' : 'prompt'}${where.args ? '.again' : ''}`,
    collapsible: p.prompt.arguments?.length ? 'collapsed' : 'none',
    command: { command: Command.runPrompt, title: l10n.t('Run Prompt') },
  };
}

/** `3 skills` beside the prompt count, for a server that has any. */
function skillCount(entry: ServerView): string[] {
  const n = entry.skills?.length ?? 0;
  return n === 0 ? [] : [n === 1 ? l10n.t('1 skill') : l10n.t('{0} skills', n)];
}

/** The Skills group under a server: its skills, apart from its prompts. */
export function skillGroupItem(entry: ServerView & { readonly skills: readonly CatalogSkill[] }): TreeItemView {
  return {
    id: `skills:${entry.id}`,
    label: l10n.t('Skills'),
    description: String(entry.skills.length),
    tooltip: l10n.t(
      'Skills of {0}: instructions and files it serves. Click one to inspect it; loading asks you first.',
      labelText(entry.def.name),
    ),
    icon: { codicon: 'library' },
    contextValue: 'skills',
    collapsible: 'expanded',
  };
}

/** A skill row: a click inspects it (a read-only preview); loading is its own action, and asks first. */
export function skillItem(k: CatalogSkill): TreeItemView {
  const files = skillFiles(k.skill);
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  const tools = requestedTools(k.skill);
  const tooltip: TooltipPart[] = [
    {
      markdown: `**${escapeLabel(k.name)}** \`/${skillCommand(k)}\` — ${escapeLabel(l10n.t('skill of {0}', k.server.def.name))}\n\n`,
    },
    { text: `${labelText(k.skill.frontmatter.description, MAX_TOOLTIP_CHARS)}\n\n` },
    { text: `${l10n.t('{0} files, {1}', files.length, formatBytes(bytes))}\n\n` },
  ];
  if (tools) tooltip.push({ text: l10n.t('Asks for tools (not granted): {0}', labelText(tools, MAX_TOOLTIP_CHARS)) });
  return {
    id: `skill:${JSON.stringify([k.server.id, k.skill.uri])}`,
    label: labelText(k.name),
    description: labelText(k.skill.frontmatter.description),
    tooltip,
    icon: { codicon: 'book' },
    contextValue: 'skill',
    collapsible: 'none',
    command: { command: Command.inspectSkill, title: l10n.t('Inspect Skill') },
  };
}

export function argumentItem(p: CatalogPrompt, index: number): TreeItemView {
  const a = p.prompt.arguments![index];
  const name = labelText(a.name);
  return {
    label: a.required ? `${name} *` : name,
    // Arguments are server data: two with the same name must not make two items with one id.
    id: `arg:${p.invocationName}:${index}:${a.name}`,
    description: [a.required ? l10n.t('required') : l10n.t('optional'), a.description && labelText(a.description)]
      .filter(Boolean)
      .join(' · '),
    tooltip: a.description && labelText(a.description, MAX_TOOLTIP_CHARS),
    icon: { codicon: a.required ? 'symbol-field' : 'symbol-variable' },
    contextValue: 'argument',
    collapsible: 'none',
  };
}

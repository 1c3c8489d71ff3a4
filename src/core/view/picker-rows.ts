// The rows of Run Prompt…: pinned prompts first, then the recently run ones (with their last values,
// its button runs it with them again), then every prompt and skill under its server. A row is one of a
// few kinds (PickerRow), each with only what it needs. A typed query is matched word by word
// against each prompt's title, name, description, server and argument names ("review python" finds a
// prompt whose description says "Reviews a Python module"), and the list VS Code gets is bounded: with
// 10,000 prompts it gets the first 150 (50 once words are typed) and a row saying how many more match.
// Every server string goes through labelText() on its way in here; src/ui/picker.ts only shows rows.
import * as l10n from '@vscode/l10n';
import { labelText } from '../label.js';
import type { CatalogPrompt, ServerEntry } from '../catalog/catalog.js';
import { type CatalogSkill, skillCommand } from '../catalog/skills.js';
import { stateInfo } from '../protocol/connection/connection-state.js';
import { argumentList } from '../run/invocation.js';
import type { PromptPlace } from '../run/records/prompt-usage.js';
import { safeIconSrc } from './icons.js';
import { lookAlikeWarning, markLookAlike, promptLabel, slashName } from './names.js';
import { argumentsText, type PromptGroups } from './prompt-groups.js';
import { lifecycleOf, problemOf, serverState, type HeldEntry, type ServerState } from './server-state.js';
import { heldItem, MAX_TOOLTIP_CHARS, type ServerView } from './tree-items.js';

/** What every row that can be chosen shows, and which row it is across catalog changes. */
interface ShownRow {
  label: string;
  description?: string;
  detail?: string;
  /** `prompt:`, `skill:`, `status:`, `pin:`, `recent:` and the server's (or the group's) id. */
  key: string;
  /** The id of the server (or of our own group) the row is under. */
  group?: string;
}

/** One row of the picker; `S`: what the catalog's servers are (a failed server's row opens its log). */
export type PickerRow<S extends ServerView = ServerView> =
  /** A server's (or our own group's) name above its rows. */
  | { kind: 'separator'; label: string; key: string; group: string }
  | (ShownRow & {
      kind: 'prompt';
      prompt: CatalogPrompt;
      /** A server icon that passed safeIconSrc(). */
      iconUri?: string;
      /** What a typed query is matched against: lower-case title, name, description, server and argument names. */
      search: string;
      /** The row's button unpins it. */
      pinned?: boolean;
      /** A recent run's values: the row's button runs the prompt with them again. */
      args?: Record<string, string>;
      /** Its server no longer offers it; kept in its place while the picker is open. */
      gone?: boolean;
    })
  /** Accepting it loads the skill; its button inspects it. */
  | (ShownRow & { kind: 'skill'; skill: CatalogSkill; search: string; gone?: boolean })
  /** A pinned prompt of a server that does not run (it lists nothing now): choosing it offers the way out; its button unpins it. */
  | (ShownRow & { kind: 'held'; held: HeldEntry; place: PromptPlace; search: string; pinned: boolean; stale?: boolean })
  /**
   * Why a server has no rows (starting, or failed: then choosing it opens `logOf`'s log), or that no
   * server is configured. Always shown; `stale`: no longer current, kept in its place while the picker is open.
   */
  | (ShownRow & { kind: 'status'; logOf?: S; stale?: boolean })
  /** How many more rows match than the list shows. */
  | { kind: 'more'; label: string; key: 'more' };

/** A row that runs a prompt or stands for a pinned one: its pin button applies. */
export type PinnableRow<S extends ServerView = ServerView> = Extract<PickerRow<S>, { kind: 'prompt' | 'held' }>;

/**
 * Prompt rows handed to VS Code at once: more than a person scrolls through, and about what a catalog
 * of 100 prompts shows, so 10,000 prompts cost VS Code no more per keystroke than 100 do.
 */
export const MAX_PICKER_ROWS = 150;
/** Once words are typed, fewer: the best-placed matches, and a count that says to type on. */
export const MAX_MATCHING_ROWS = 50;
/** Recent runs the picker's group shows. */
export const MAX_RECENT_ROWS = 10;
/** Group ids of our own groups: no server id holds a NUL. */
const PINNED = '\0pinned';
const RECENT = '\0recent';

/** Every row of the picker, in order (built when the catalog or the usage changed, not per keystroke). */
export function pickerRows(
  servers: readonly ServerEntry[],
  groups: Pick<PromptGroups, 'pinned' | 'recent'>,
): PickerRow<ServerEntry>[] {
  const rows: PickerRow<ServerEntry>[] = [];
  const pinned = new Set(groups.pinned.flatMap(p => ('prompt' in p ? [p.prompt] : [])));
  const icon = (s: ServerEntry) => safeIconSrc(stateInfo(s.connection.state)?.serverInfo?.icons);
  if (groups.pinned.length) {
    rows.push(separator(l10n.t('pinned'), PINNED));
    for (const p of groups.pinned) {
      if ('prompt' in p) {
        const row = promptRow(p.prompt, icon(p.prompt.server));
        rows.push({ ...row, key: `pin:${row.key}`, group: PINNED, pinned: true });
        continue;
      }
      const held = heldItem(p.held);
      rows.push({
        kind: 'held',
        label: `$(${'codicon' in held.icon ? held.icon.codicon : 'circle-slash'}) ${labelText(p.place.prompt)}`,
        description: `${held.label} — ${held.description ?? ''}`,
        detail: labelText(p.held.message, MAX_TOOLTIP_CHARS),
        held: p.held,
        place: p.place,
        pinned: true,
        key: `pin:held:${JSON.stringify([p.place.scope, p.place.server, p.place.prompt])}`,
        group: PINNED,
        search: `${p.place.prompt}\n${p.held.def.name}`.toLowerCase(),
      });
    }
  }
  const recent = groups.recent.slice(0, MAX_RECENT_ROWS);
  if (recent.length) {
    rows.push(separator(l10n.t('recently used'), RECENT));
    for (const r of recent) {
      const row = promptRow(r.prompt, icon(r.prompt.server));
      const values = r.args && labelText(argumentsText(r.args));
      rows.push({
        ...row,
        ...(values ? { description: `${row.description} ${values}`, args: r.args } : {}),
        key: `recent:${row.key}`,
        group: RECENT,
        pinned: pinned.has(r.prompt),
        search: values ? `${row.search}\n${values.toLowerCase()}` : row.search,
      });
    }
  }
  for (const row of pickerItems(servers))
    rows.push(row.kind === 'prompt' && pinned.has(row.prompt) ? { ...row, pinned: true } : row);
  return rows;
}

function separator(label: string, group: string): PickerRow<ServerEntry> {
  return { kind: 'separator', label, key: `server:${group}`, group };
}

/** The query's words, lower case: each must be found in a row for the row to match. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The rows matching `query` (all rows when it is empty), with their groups' separators, at most `limit`
 * of them; past that one last row says how many more match. Status rows (a server starting or failing)
 * always show.
 */
export function filterPickerRows<S extends ServerView>(
  rows: readonly PickerRow<S>[],
  query: string,
  limit?: number,
): PickerRow<S>[] {
  const words = queryWords(query);
  limit ??= words.length ? MAX_MATCHING_ROWS : MAX_PICKER_ROWS;
  const out: PickerRow<S>[] = [];
  let header: PickerRow<S> | undefined;
  let shown = 0;
  let more = 0;
  for (const row of rows) {
    if (row.kind === 'separator') {
      header = row;
      continue;
    }
    const always = row.kind === 'status';
    if (!always && !matches(row, words)) continue;
    if (!always && shown >= limit) {
      more++;
      continue;
    }
    if (header) out.push(header);
    header = undefined;
    out.push(row);
    if (!always) shown++;
  }
  if (more) out.push(moreRow(more));
  return out;
}

function matches(row: PickerRow, words: readonly string[]): boolean {
  if (!words.length) return true;
  const text = 'search' in row ? row.search : row.label.toLowerCase();
  return words.every(w => text.includes(w));
}

function moreRow<S extends ServerView>(count: number): PickerRow<S> {
  return {
    kind: 'more',
    label: `$(search) ${l10n.t('{0} more prompts: type words of a title, description, server or argument', count)}`,
    key: 'more',
  };
}

/**
 * The rows of an open picker after the catalog changed. VS Code maps the row a person accepts by its
 * index in the list the extension set last (extHostQuickOpen: handle = index), and a click lands on the
 * row drawn under the pointer, so no shown row may move: rows still there are updated in place, prompts
 * no longer offered stay, marked, and so do status rows that no longer apply; new rows go at the end,
 * under their server's name, while the list holds fewer than `maxRows` (then the last row counts the rest).
 * `next`: every row that matches now, unbounded (a row cut off by the bound is not gone).
 */
export function mergePickerRows<S extends ServerView>(
  shown: readonly PickerRow<S>[],
  next: readonly PickerRow<S>[],
  maxRows = Infinity,
): PickerRow<S>[] {
  const byKey = new Map<string, PickerRow<S>>();
  const separators = new Map<string, PickerRow<S>>();
  for (const row of next) {
    if (row.kind === 'separator') separators.set(row.key, row);
    else byKey.set(row.key, row);
  }
  const present = new Set<string>();
  // The count of more rows is last: dropped here, counted again below.
  const rows = shown
    .filter(row => row.kind !== 'more')
    .map((row): PickerRow<S> => {
      present.add(row.key);
      if (row.kind === 'separator') return separators.get(row.key) ?? row;
      return byKey.get(row.key) ?? keptInPlace(row);
    });
  const last = rows.at(-1);
  let group = last && last.kind !== 'more' ? last.group : undefined;
  let more = 0;
  for (const row of next) {
    if (row.kind === 'separator' || row.kind === 'more' || present.has(row.key)) continue;
    if (rows.length >= maxRows) {
      more++;
      continue;
    }
    if (row.group !== group) {
      const header = row.group !== undefined ? separators.get(`server:${row.group}`) : undefined;
      if (header) rows.push(header);
      group = row.group;
    }
    rows.push(row);
    present.add(row.key);
  }
  if (more) rows.push(moreRow(more));
  return rows;
}

/** A shown row the catalog no longer has, kept in its place and marked: a prompt or skill gone, a status or a pin no longer current. */
function keptInPlace<S extends ServerView>(row: PickerRow<S>): PickerRow<S> {
  switch (row.kind) {
    case 'prompt':
    case 'skill':
      return row.gone ? row : { ...row, gone: true, label: `${row.label} ${l10n.t('(no longer offered)')}` };
    case 'status':
    case 'held':
      return row.stale ? row : { ...row, stale: true, label: `${row.label} ${l10n.t('(no longer current)')}` };
    default:
      return row;
  }
}

/** Items for the picker, grouped by server; a plain function of the catalog so the benchmark can time it. */
export function pickerItems<S extends ServerView>(servers: readonly S[]): PickerRow<S>[] {
  const items: PickerRow<S>[] = [];
  for (const s of servers) {
    const label = markLookAlike(s.def.name, labelText(s.def.name));
    items.push({ kind: 'separator', label, key: `server:${s.id}`, group: s.id });
    if (!s.prompts.length && !s.skills?.length) {
      const row = emptyServerRow(s, serverState(s));
      if (row) items.push(row);
      continue;
    }
    const icon = safeIconSrc(stateInfo(s.connection.state)?.serverInfo?.icons);
    for (const p of s.prompts) items.push(promptRow(p, icon));
    for (const k of s.skills ?? []) items.push(skillRow(k, s.id));
  }
  return items;
}

/** A skill in the picker, marked as one: the book icon and "skill" beside its command. */
function skillRow<S extends ServerView>(k: CatalogSkill, group: string): PickerRow<S> {
  return {
    kind: 'skill',
    label: `$(book) ${labelText(k.name)}`,
    description: `/${labelText(skillCommand(k))} · ${l10n.t('skill')}`,
    detail: labelText(k.skill.frontmatter.description, MAX_TOOLTIP_CHARS),
    skill: k,
    search: [k.name, skillCommand(k), k.skill.frontmatter.description, k.server.def.name, l10n.t('skill')]
      .map(t => labelText(t, MAX_TOOLTIP_CHARS))
      .join('\n')
      .toLowerCase(),
    key: `skill:${JSON.stringify([group, k.skill.uri])}`,
    group,
  };
}

const searchTexts = new WeakMap<CatalogPrompt, string>();

/**
 * What a typed query is matched against (picker and tree filter alike): title, name, both names it is
 * typed by, description, server and argument names, lower case, under the label rule. Once per listing.
 */
export function promptSearchText(p: CatalogPrompt): string {
  let text = searchTexts.get(p);
  if (text === undefined) {
    text = [
      p.prompt.title,
      p.prompt.name,
      p.invocationName,
      p.prompt.description,
      p.server.def.name,
      (p.prompt.arguments ?? []).map(a => a.name).join(' '),
    ]
      .filter(Boolean)
      .map(t => labelText(t!, MAX_TOOLTIP_CHARS))
      .join('\n')
      .toLowerCase();
    searchTexts.set(p, text);
  }
  return text;
}

type PromptRow = Extract<PickerRow, { kind: 'prompt' }>;
const promptRows = new WeakMap<CatalogPrompt, { unique: boolean; icon?: string; row: PromptRow }>();

/**
 * A prompt's picker row, made once per listing of its server (a re-list makes new CatalogPrompts), so
 * opening the picker over 10,000 prompts does not format 10,000 descriptions again.
 */
export function promptRow(p: CatalogPrompt, icon: string | undefined): PromptRow {
  const made = promptRows.get(p);
  if (made && made.unique === p.unique && made.icon === icon) return made.row;
  const args = argumentList(p);
  const lookAlike = lookAlikeWarning(p);
  const label = labelText(promptLabel(p));
  const slash = labelText(slashName(p));
  const row: PromptRow = {
    kind: 'prompt',
    label: `${lookAlike ? '$(warning) ' : ''}${label}`,
    description: `/${slash}`,
    detail:
      [lookAlike, p.prompt.description, args ? l10n.t('arguments: {0}', args) : undefined]
        .filter(Boolean)
        .map(t => labelText(t!, MAX_TOOLTIP_CHARS))
        .join(' — ') || undefined,
    iconUri: icon,
    prompt: p,
    // JSON keeps the key unambiguous whatever characters the server puts in the names.
    key: `prompt:${JSON.stringify([p.server.id, p.prompt.name])}`,
    group: p.server.id,
    search: promptSearchText(p),
  };
  promptRows.set(p, { unique: p.unique, icon, row });
  return row;
}

/** A server without prompts says why: it is starting, or it failed (its log is one click away). */
function emptyServerRow<S extends ServerView>(s: S, state: ServerState): PickerRow<S> | undefined {
  const key = `status:${s.id}`;
  const group = s.id;
  if (lifecycleOf(state)?.kind === 'starting') {
    return {
      kind: 'status',
      label: `$(loading~spin) ${l10n.t('{0} is starting…', labelText(s.def.name))}`,
      key,
      group,
    };
  }
  const problem = problemOf(state);
  if (problem === undefined) return undefined;
  return {
    kind: 'status',
    label: `$(error) ${l10n.t('{0} failed', labelText(s.def.name))}`,
    description: labelText(problem),
    detail: l10n.t('Select to open its log'),
    logOf: s,
    key,
    group,
  };
}

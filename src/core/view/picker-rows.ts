// The rows of Run Prompt…: pinned prompts first, then the recently run ones (with their last values,
// its button runs it with them again), then every prompt and skill under its server. A typed query is matched word by word
// against each prompt's title, name, description, server and argument names ("review python" finds a
// prompt whose description says "Reviews a Python module"), and the list VS Code gets is bounded: with
// 10,000 prompts it gets the first 150 (50 once words are typed) and a row saying how many more match.
import * as l10n from '@vscode/l10n';
import { labelText } from '../label.js';
import { heldItem, pickerItems, promptRow, type PickerItemView, type ServerView } from './items.js';
import { argumentsText, type PromptGroups } from './prompt-groups.js';
import type { ServerEntry } from '../catalog/catalog.js';
import { safeIconSrc } from './icons.js';
import { stateInfo } from '../protocol/connection-state.js';

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
): PickerItemView<ServerEntry>[] {
  const rows: PickerItemView<ServerEntry>[] = [];
  const pinned = new Set(groups.pinned.flatMap(p => ('prompt' in p ? [p.prompt] : [])));
  const icon = (s: ServerEntry) => safeIconSrc(stateInfo(s.connection.state)?.serverInfo?.icons);
  if (groups.pinned.length) {
    rows.push(separator(l10n.t('pinned'), PINNED));
    for (const p of groups.pinned) {
      if ('prompt' in p) {
        const row = promptRow<ServerEntry>(p.prompt, icon(p.prompt.server));
        rows.push({ ...row, key: `pin:${row.key}`, group: PINNED, pinned: true });
        continue;
      }
      const held = heldItem(p.held);
      rows.push({
        label: `$(${'codicon' in held.icon ? held.icon.codicon : 'circle-slash'}) ${labelText(p.place.prompt)}`,
        description: `${held.label} — ${held.description ?? ''}`,
        detail: labelText(p.held.message, 1000),
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
      const row = promptRow<ServerEntry>(r.prompt, icon(r.prompt.server));
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
    rows.push(row.prompt && pinned.has(row.prompt) ? { ...row, pinned: true } : row);
  return rows;
}

function separator(label: string, group: string): PickerItemView<ServerEntry> {
  return { label, separator: true, key: `server:${group}`, group };
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
  rows: readonly PickerItemView<S>[],
  query: string,
  limit?: number,
): PickerItemView<S>[] {
  const words = queryWords(query);
  limit ??= words.length ? MAX_MATCHING_ROWS : MAX_PICKER_ROWS;
  const out: PickerItemView<S>[] = [];
  let header: PickerItemView<S> | undefined;
  let shown = 0;
  let more = 0;
  for (const row of rows) {
    if (row.separator) {
      header = row;
      continue;
    }
    const always = row.alwaysShow && !row.prompt;
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

function matches(row: PickerItemView, words: readonly string[]): boolean {
  if (!words.length) return true;
  const text = row.search ?? row.label.toLowerCase();
  return words.every(w => text.includes(w));
}

function moreRow<S extends ServerView>(count: number): PickerItemView<S> {
  return {
    label: `$(search) ${l10n.t('{0} more prompts: type words of a title, description, server or argument', count)}`,
    alwaysShow: true,
    more: true,
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
  shown: readonly PickerItemView<S>[],
  next: readonly PickerItemView<S>[],
  maxRows = Infinity,
): PickerItemView<S>[] {
  const byKey = new Map<string, PickerItemView<S>>();
  const separators = new Map<string, PickerItemView<S>>();
  for (const row of next) {
    if (row.key === undefined) continue;
    if (row.separator) separators.set(row.key, row);
    else byKey.set(row.key, row);
  }
  const present = new Set<string>();
  // The count of more rows is last: dropped here, counted again below.
  const rows = shown
    .filter(row => !row.more)
    .map(row => {
      if (row.key === undefined) return row;
      present.add(row.key);
      if (row.separator) return separators.get(row.key) ?? row;
      const now = byKey.get(row.key);
      if (now) return now;
      if (row.prompt || row.skill)
        return row.gone ? row : { ...row, gone: true, label: `${row.label} ${l10n.t('(no longer offered)')}` };
      return row.stale ? row : { ...row, stale: true, label: `${row.label} ${l10n.t('(no longer current)')}` };
    });
  let group = rows.length ? rows[rows.length - 1].group : undefined;
  let more = 0;
  for (const row of next) {
    if (row.separator || row.more || row.key === undefined || present.has(row.key)) continue;
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

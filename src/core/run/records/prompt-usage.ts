// The prompts a person uses: the ones they ran (newest first, with the values they typed) and the ones
// they pinned. Per user and across windows, kept where the argument history is (VS Code's globalState),
// bounded, and read back as untrusted data (another version, or another window, may have written it).
import type { CatalogPrompt } from '../../catalog/catalog.js';
import type { ServerDefinition } from '../../config/config.js';
import { Emitter } from '../../events.js';
import type { KeyValueStore } from './argument-history.js';
import { historyKey } from './history-key.js';
import { keptValues } from './kept-values.js';

/** Which prompt: where its server is defined (`user` or the workspace folder), the server's id and the prompt's name. */
export interface PromptPlace {
  readonly scope: string;
  readonly server: string;
  readonly prompt: string;
}

export interface RecentRun {
  readonly place: PromptPlace;
  /** When it last ran (ms since the epoch). */
  readonly at: number;
  readonly count: number;
  /** The values typed for it, kept only for the definition they were typed for (historyKey). */
  readonly args?: Record<string, string>;
  readonly definition?: string;
}

export interface Pin {
  readonly place: PromptPlace;
  readonly at: number;
}

/** Most recent runs kept; older ones drop off. */
export const MAX_RECENT = 200;
/** Pins kept; pinning one more drops the oldest. */
export const MAX_PINNED = 200;
const RECENT_KEY = 'prompts.recent';
const PINNED_KEY = 'prompts.pinned';
/** Stored names are server data: anything longer is not one we wrote. */
const MAX_NAME_CHARS = 1000;
const MAX_STORED_ARGS = 100;

export function placeOf(p: Pick<CatalogPrompt, 'server' | 'prompt'>): PromptPlace {
  return { scope: scopeOf(p.server.def), server: p.server.id, prompt: p.prompt.name };
}

/** `user`, or the workspace folder that defines the server: another repository's `api` is another place. */
export function scopeOf(def: Pick<ServerDefinition, 'scope' | 'source'>): string {
  return def.scope ?? def.source;
}

/** One string per place, for maps and sets. */
export function placeKey(place: PromptPlace): string {
  return JSON.stringify([place.scope, place.server, place.prompt]);
}

/** The same place: what comparing placeKey says, without writing a key for each of up to 200 kept runs. */
function samePlace(a: PromptPlace, b: PromptPlace): boolean {
  return a.prompt === b.prompt && a.server === b.server && a.scope === b.scope;
}

export class PromptUsage {
  private readonly changed = new Emitter<void>();
  /** Fires when this window ran, pinned or unpinned a prompt. */
  readonly onDidChange = this.changed.event;
  private parsed = new Map<string, { raw: unknown; list: readonly unknown[] }>();

  /**
   * `mayKeep`: whether runs of the server may be kept at all (the extension keeps none of a workspace's
   * servers while the workspace is not trusted).
   */
  constructor(
    private readonly memory: KeyValueStore,
    private readonly mayKeep: (def: ServerDefinition) => boolean = () => true,
  ) {}

  /** The runs kept, newest first. */
  recent(): readonly RecentRun[] {
    return this.read(RECENT_KEY, parseRecent);
  }

  pins(): readonly Pin[] {
    return this.read(PINNED_KEY, parsePin);
  }

  isPinned(target: Pick<CatalogPrompt, 'server' | 'prompt'> | PromptPlace): boolean {
    const place = 'scope' in target ? target : placeOf(target);
    return this.pins().some(pin => samePlace(pin.place, place));
  }

  /** A run of `prompt` with `args`; `sourced` names the arguments whose value came from the editor. */
  async ran(prompt: CatalogPrompt, args: Record<string, string>, sourced: Iterable<string> = []): Promise<void> {
    const place = placeOf(prompt);
    // A run a read would drop (a name past MAX_NAME_CHARS) is not kept.
    if (!this.mayKeep(prompt.server.def) || !readsBack(place)) return;
    const before = this.recent();
    const previous = before.find(r => samePlace(r.place, place));
    // The values as a read takes them back (parseArgs), so the list written is the list read.
    const kept = storedArgs(keptValues(args, sourced));
    const at = Date.now();
    const count = (previous?.count ?? 0) + 1;
    const run: RecentRun = kept
      ? { place, at, count, args: kept, definition: historyKey(prompt) }
      : { place, at, count };
    // It runs on every get: one list built, not a filtered copy and a slice of it.
    const list = [run];
    for (let i = 0; i < before.length && list.length < MAX_RECENT; i++)
      if (before[i] !== previous) list.push(before[i]);
    await this.write(RECENT_KEY, list);
  }

  /** Pins or unpins a prompt (or a place: a pinned prompt whose server is held back). */
  async setPinned(target: Pick<CatalogPrompt, 'server' | 'prompt'> | PromptPlace, pinned: boolean): Promise<void> {
    const place = 'scope' in target ? target : placeOf(target);
    // A pin a read would drop is not kept.
    if (pinned && !parsePlace(place)) return;
    const others = this.pins().filter(p => !samePlace(p.place, place));
    const list = pinned ? [...others, { place, at: Date.now() }].slice(-MAX_PINNED) : others;
    await this.write(PINNED_KEY, list);
  }

  /** Drops the recent runs of prompts their servers no longer offer. */
  async forget(places: readonly PromptPlace[]): Promise<void> {
    if (!places.length) return;
    const gone = new Set(places.map(placeKey));
    const before = this.recent();
    const list = before.filter(r => !gone.has(placeKey(r.place)));
    if (list.length !== before.length) await this.write(RECENT_KEY, list);
  }

  /** The values last typed for `prompt`, when they were typed for this definition of its server. */
  lastArguments(prompt: CatalogPrompt): Record<string, string> | undefined {
    const place = placeOf(prompt);
    const run = this.recent().find(r => samePlace(r.place, place));
    return run?.args && run.definition === historyKey(prompt) ? run.args : undefined;
  }

  private read<T>(key: string, parse: (value: unknown) => T | undefined): readonly T[] {
    const raw = this.memory.get<unknown>(key, []);
    const cached = this.parsed.get(key);
    if (cached && cached.raw === raw) return cached.list as T[];
    const items = Array.isArray(raw) ? raw : [];
    const list: T[] = [];
    for (const item of items.slice(0, Math.max(MAX_RECENT, MAX_PINNED))) {
      const value = parse(item);
      if (value) list.push(value);
    }
    this.parsed.set(key, { raw, list });
    return list;
  }

  private async write(key: string, list: readonly unknown[]): Promise<void> {
    const written = this.memory.update(key, list);
    // The store now holds this list (VS Code keeps a copy, the same object until the next change from
    // any window): read back as written, its items (checked as a read checks them) are not parsed again.
    this.parsed.set(key, { raw: this.memory.get<unknown>(key, []), list });
    await written;
    this.changed.fire();
  }
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_CHARS;
}

/** A place whose names a read takes back (each within MAX_NAME_CHARS). */
function readsBack(place: { scope?: unknown; server?: unknown; prompt?: unknown }): place is PromptPlace {
  return isName(place.scope) && isName(place.server) && isName(place.prompt);
}

function parsePlace(value: unknown): PromptPlace | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  return readsBack(v) ? { scope: v.scope, server: v.server, prompt: v.prompt } : undefined;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function parseRecent(value: unknown): RecentRun | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const place = parsePlace(v.place);
  if (!place || !isTime(v.at)) return undefined;
  const count = isTime(v.count) ? Math.max(1, Math.floor(v.count)) : 1;
  const args = parseArgs(v.args);
  return {
    place,
    at: v.at,
    count,
    ...(args && typeof v.definition === 'string' ? { args, definition: v.definition } : {}),
  };
}

function parseArgs(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_STORED_ARGS) return undefined;
  const args = entries.filter((e): e is [string, string] => isName(e[0]) && typeof e[1] === 'string');
  // Through the same rule as when they were kept: a value stored by something else is not trusted to obey it.
  const kept = keptValues(Object.fromEntries(args));
  return Object.keys(kept).length ? kept : undefined;
}

/**
 * What parseArgs makes of values keptValues already passed, in one pass: only the bounds of a read
 * (the number of values, the length of a name) are left to check.
 */
function storedArgs(kept: Record<string, string>): Record<string, string> | undefined {
  let n = 0;
  for (const name in kept) {
    if (++n > MAX_STORED_ARGS) return undefined;
    if (!isName(name)) return parseArgs(kept);
  }
  return n ? kept : undefined;
}

function parsePin(value: unknown): Pin | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const place = parsePlace(v.place);
  return place ? { place, at: isTime(v.at) ? v.at : 0 } : undefined;
}

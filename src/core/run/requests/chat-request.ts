// A chat request read once into what it asks for. A run a command handed to chat (ChatHandOff: the
// picker's, the tree's, Repeat's prepared run, or Send to Model's stored result) is claimed by the
// request of its line and taken as it is. Else the text is read: its references that are values are
// placed — `@mcp /review code=#selection` or `file=#file:src/a.ts` names the argument; a reference
// written alone (`#file:x`) or attached without text (a dragged file) fills the first required argument
// still missing — the rest is parsed as an invocation line, the catalog finds the prompt (or skill) it
// names, the line's values are bound to it, and the references, read by the edge
// (src/chat/reference-reader.ts), become values (value-sources.ts). From there on the run is that
// structured request.
import * as l10n from '@vscode/l10n';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogSkill } from '../../catalog/skills.js';
import { PromptError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { bindRequest, formatInvocation, parseInvocation, tokenize, type RunRequest } from '../invocation.js';
import type { Prepared } from '../prompt-runner.js';
import type { StoredResult } from '../records/result-store.js';
import { withReferenceValues, type ReferenceReads } from './value-sources.js';

/** What a command hands to chat: a run to get as prepared, or a result the server already sent, for the model. */
export type HandedToChat = { kind: 'run'; prepared: Prepared } | { kind: 'result'; stored: StoredResult };

/**
 * One slot: the hand-off waiting for the chat request of its line. The line is written for the person
 * (by the invocation rule) and is not read back; a request naming any other line drops the hand-off and runs
 * as typed, so a line the person edited before sending runs as they typed it.
 */
export class ChatHandOff {
  private waiting?: { handed: HandedToChat; line: string };

  /** Holds `handed` for the next chat request; returns the line that request is to be. */
  hold(handed: HandedToChat): string {
    const line =
      handed.kind === 'run'
        ? formatInvocation(handed.prepared.prompt.invocationName, handed.prepared.args)
        : handed.stored.invocation;
    this.waiting = { handed, line };
    return line;
  }

  /** Called for every chat request that names a prompt (`line`: chatLine() of its text): the hand-off when the request is its line, once. */
  claim(line: string): HandedToChat | undefined {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting?.line === line ? waiting.handed : undefined;
  }
}

/** A chat request's text as a line: trimmed, without the leading `/`. */
export function chatLine(text: string): string {
  return text.trim().replace(/^\//, '');
}

/** What a chat request asks for, read once. */
export type ChatAsk =
  /** A run request: a prepared run handed off (nothing left to ask), or the typed line's; `notes`: one transcript line per reference. */
  | { kind: 'run'; run: RunRequest; notes: string[] }
  /** Send to Model: the stored result handed off, for the model as it is (the server is not asked again). */
  | { kind: 'result'; stored: StoredResult }
  /** `server.skill request`: the skill to load, with what was written after its name. */
  | { kind: 'skill'; skill: CatalogSkill; ask: string };

/** A chat request as VS Code hands it to the participant (the parts read here). */
export interface ChatRequestText<R extends ReferenceInput = ReferenceInput> {
  /** Its text (the references' ranges are offsets in it). */
  prompt: string;
  references: readonly R[];
}

/** Reads what a plan's references hold (`references`: the request's own): the edge's I/O (editors, files). */
export type ReferenceReader<R extends ReferenceInput = ReferenceInput> = (
  plan: ReferencePlan,
  references: readonly R[],
) => Promise<ReferenceReads>;

/** What the surface lends the read: its reader of references, and a word while the name is looked up. */
export interface ChatEdge<R extends ReferenceInput> {
  read: ReferenceReader<R>;
  /** Told the name before the catalog looks it up, which may wait for servers still listing. */
  lookingUp?: (name: string) => void;
}

/**
 * What the request asks for: the hand-off of its line, else its text read into a run request (or a
 * skill). A text that names nothing, a name nothing has, a name the prompt does not declare, or a
 * reference that gives no value throws a PromptError saying so.
 */
export async function readChatRequest<R extends ReferenceInput>(
  request: ChatRequestText<R>,
  catalog: Pick<Catalog, 'findCommand'>,
  handOff: ChatHandOff,
  edge: ChatEdge<R>,
): Promise<ChatAsk> {
  const handed = handOff.claim(chatLine(request.prompt));
  if (handed?.kind === 'result') return handed;
  if (handed) {
    const { prompt, args, sourced } = handed.prepared;
    return { kind: 'run', run: { prompt, values: args, sourced }, notes: [] };
  }
  const plan = planReferences(request.prompt, request.references);
  const parsed = parseInvocation(plan.text);
  if (!parsed) throw new PromptError(l10n.t('Name a prompt, e.g. server.prompt'), 'input');
  edge.lookingUp?.(parsed.name);
  const found = await catalog.findCommand(parsed.name);
  if ('skill' in found) return { kind: 'skill', skill: found.skill, ask: parsed.rest };
  const reads = await edge.read(plan, request.references);
  const named = plan.named.map(n => n.name);
  return { kind: 'run', ...withReferenceValues(bindRequest(found.prompt, parsed), named, reads) };
}

/** A reference as VS Code passes it: its kind (`id`) and where it sits in the prompt (UTF-16 offsets). */
export interface ReferenceInput {
  id: string;
  range?: readonly [number, number];
}

/**
 * Where a value comes from: VS Code's reference number `index`, or text VS Code left as typed
 * (`#selection`, `#file:path` written out without taking its suggestion).
 */
export type ReferenceSource =
  | { kind: 'reference'; index: number }
  | { kind: 'selection' }
  | { kind: 'file'; path: string; /** `#file:a.ts:3-5`: 1-based, inclusive. */ lines?: [number, number] };

export interface PlacedReference {
  source: ReferenceSource;
  /** As written in the prompt, or the reference's id when attached without text. */ written: string;
}

export interface ReferencePlan {
  /** The prompt without the references (a named one without its `name=` too): what is parsed as usual. */
  text: string;
  /** `name=#…`: the argument it names. */
  named: { name: string; ref: PlacedReference }[];
  /** Written alone or attached without text, in prompt order: each fills the next missing required argument. */
  unnamed: PlacedReference[];
}

const NAME_EQ = /^([\p{L}_][\p{L}\p{M}\p{N}_.-]*)=$/u;
const LITERAL = /^(?:([\p{L}_][\p{L}\p{M}\p{N}_.-]*)=)?#(selection|file:(\S+))$/u;

/**
 * Which references the user meant as values. VS Code attaches context of its own without any text in
 * the prompt (the active editor, instruction files: ids `vscode.implicit…`, `vscode.prompt…`): those
 * are never values. A reference inside a longer word (`a#file:x`) or a quoted one stays text.
 */
export function planReferences(prompt: string, refs: readonly ReferenceInput[]): ReferencePlan {
  const named: ReferencePlan['named'] = [];
  const inText: { start: number; ref: PlacedReference }[] = [];
  const removed: [number, number][] = [];
  const ranges = refs.map(r => r.range && locate(prompt, r.range));
  for (const token of tokenize(prompt)) {
    const end = token.start + token.raw.length;
    const index = ranges.findIndex(r => r && r[0] >= token.start && r[1] <= end && r[1] > r[0]);
    let name: string | undefined;
    let ref: PlacedReference | undefined;
    if (index >= 0) {
      const [s, e] = ranges[index]!;
      const before = prompt.slice(token.start, s);
      const m = NAME_EQ.exec(before);
      if (e !== end || (before !== '' && !m)) continue;
      name = m?.[1];
      ref = { source: { kind: 'reference', index }, written: prompt.slice(s, e) };
    } else if (!token.quoted) {
      const m = LITERAL.exec(token.raw);
      if (!m) continue;
      name = m[1];
      ref = {
        source: m[3] !== undefined ? fileSource(m[3]) : { kind: 'selection' },
        written: token.raw.slice(name ? name.length + 1 : 0),
      };
    } else continue;
    removed.push([token.start, end]);
    if (name !== undefined) named.push({ name, ref });
    else inText.push({ start: token.start, ref });
  }
  let text = '';
  let at = 0;
  for (const [s, e] of removed) {
    text += prompt.slice(at, s);
    at = e;
  }
  text += prompt.slice(at);
  const attached = refs.flatMap((r, index) =>
    !r.range && usableAttachment(r.id) ? [{ source: { kind: 'reference', index } as const, written: r.id }] : [],
  );
  return {
    text: text.trim(),
    named,
    unnamed: [...inText.sort((a, b) => a.start - b.start).map(t => t.ref), ...attached],
  };
}

/** `path:3` or `path:3-5` (what VS Code writes for a selection) as a path and 1-based lines. */
function fileSource(written: string): ReferenceSource {
  const m = /^(.+?):(\d+)(?:-(\d+))?$/.exec(written);
  if (!m) return { kind: 'file', path: written };
  const start = Number(m[2]);
  return { kind: 'file', path: m[1], lines: [start, m[3] ? Number(m[3]) : start] };
}

/** Where a written `#file:` path points: a full path, or path segments under the first workspace folder. */
export type FileTarget = { absolute: string } | { relative: string[] };

/**
 * A `#file:` path by the rules of the platform the files are on: on Windows `C:\src\x.py`, `c:/x` and
 * `\\server\share\x.py` are full paths and `\` separates folders; elsewhere only `/…` is a full path and a
 * backslash is part of a name.
 */
export function fileTarget(written: string, platform: Platform): FileTarget {
  if (platform.path.isAbsolute(written)) return { absolute: written };
  const separators = platform.os === 'win32' ? /[\\/]+/ : /\/+/;
  return { relative: written.split(separators).filter(s => s && s !== '.') };
}

/**
 * The reference's range in the prompt. VS Code computes it against its own copy of the text; should
 * that be shifted (a trimmed prefix), the `#…` of the same length nearest to it is the reference.
 */
function locate(prompt: string, range: readonly [number, number]): [number, number] | undefined {
  const [s, e] = range;
  if (prompt[s] === '#') return [s, e];
  let best: number | undefined;
  for (let i = prompt.indexOf('#'); i >= 0; i = prompt.indexOf('#', i + 1)) {
    const after = prompt[i + e - s];
    if (
      (after === undefined || /\s/.test(after)) &&
      !/\s/.test(prompt.slice(i, i + e - s)) &&
      (best === undefined || Math.abs(i - s) < Math.abs(best - s))
    )
      best = i;
  }
  return best === undefined ? undefined : [best, best + e - s];
}

/** An attachment without text is a value only when the user attached it (a file, a selection), not VS Code's own context. */
export function usableAttachment(id: string): boolean {
  return !/^vscode\.(implicit|prompt|instructions|customizations?)\b/i.test(id) && !id.startsWith('copilot');
}

// Chat references as argument values: `@mcp /review code=#selection` or `file=#file:src/a.ts` names
// the argument; a reference written alone (`#file:x`) or attached without text (a dragged file) fills
// the first required argument still missing. This file only finds them in the prompt; the edge
// (src/chat/reference-reader.ts) reads each one and core/run/value-sources.ts makes it a value.
import type { Platform } from '../platform.js';
import { tokenize } from './invocation.js';

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

// The rows of one argument step (src/ui/argument-input.ts), built so that what the user typed or
// clicked is what runs, and so that no row moves under the pointer after a keystroke or a server answer.
import { labelText } from '../label.js';

/** A quick-pick row: the QuickPickItem fields we set, plus what the row stands for. */
export interface ValueRow<S extends string = string> {
  label: string;
  description?: string;
  alwaysShow?: boolean;
  /** The value the row gives (absent on row 0: the text in the box). */
  value?: string;
  /** A fixed row that reads its value from somewhere (the selection, a file…). */
  source?: S;
  /** Why that source cannot be used now. */
  problem?: string;
}

/**
 * VS Code's extension host maps the row the window accepted to an item by its index in the item list
 * it holds now, and the window may still show an older list (every keystroke and every server answer
 * replaces it). So an index never changes meaning: row 0 is always "the text in the box" (read when
 * Enter arrives, after every keystroke that came before it), rows 1..n the fixed source rows, and each
 * value keeps the index it first got. The window must not sort a suggestion above row 0 while its label
 * still shows the previous text: sortByLabel is off.
 *
 * And rows must not move. The window filters its rows by label at once on each keystroke; our list for
 * that keystroke arrives a round trip later. So the list leaves showing and hiding to that filter:
 * source rows and values carry `alwaysShow` only for a current suggestion the filter would hide (a
 * server's fuzzy match), and our list for a keystroke shows what the window already shows.
 */
export class ValueRows<S extends string = string> {
  private readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private signature = '';

  /** `fixed` rows (the sources) keep rows 1..n for the whole step. */
  constructor(private readonly fixed: readonly ValueRow<S>[] = []) {}

  /**
   * Row 0 `box`, the fixed rows, then every value seen so far; `current` (value → description) are the
   * suggestions for `typed`. Undefined if nothing changed.
   */
  items(box: ValueRow<S>, current: ReadonlyMap<string, string>, typed: string): ValueRow<S>[] | undefined {
    for (const v of current.keys())
      if (!this.index.has(v)) {
        this.index.set(v, this.values.length);
        this.values.push(v);
      }
    const items: ValueRow<S>[] = [
      { ...box, alwaysShow: true },
      ...this.fixed.map(f => ({ ...f, alwaysShow: false })),
      // A value is server text (or the user's history of it): its label follows the label rule, the value stays whole.
      ...this.values.map(v => {
        const label = labelText(v);
        return {
          label,
          value: v,
          description: current.get(v),
          alwaysShow: current.has(v) && !filterShows(label, typed),
        };
      }),
    ];
    const signature = JSON.stringify(items.map(i => [i.label, i.description, i.alwaysShow]));
    if (signature === this.signature) return undefined;
    this.signature = signature;
    return items;
  }
}

/**
 * Whether VS Code's quick pick shows a row with this label for the typed text. Its label filter is a
 * case-insensitive substring match (plus camel-case matches, which only show more: a row we mark
 * alwaysShow that the filter shows anyway changes nothing).
 */
export function filterShows(label: string, typed: string): boolean {
  const query = typed.trim().toLowerCase();
  return !query || label.toLowerCase().includes(query);
}

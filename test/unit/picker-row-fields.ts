// What a test reads of a picker row whatever its kind: each kind's fields, undefined where the row's
// kind has none (src/core/view/picker-rows.ts keeps them apart; a test only checks what is there).
import type { PickerRow } from '../../src/core/view/picker-rows';
import type { ServerView } from '../../src/core/view/tree-items';

type Fields<S extends ServerView, K extends PickerRow['kind']> = Omit<Extract<PickerRow<S>, { kind: K }>, 'kind'>;

export type RowFields<S extends ServerView = ServerView> = Partial<
  Fields<S, 'prompt'> & Fields<S, 'skill'> & Fields<S, 'held'> & Fields<S, 'status'>
> &
  Pick<PickerRow<S>, 'kind' | 'label' | 'key'>;

export function fieldsOf<S extends ServerView>(row: PickerRow<S>): RowFields<S> {
  return row;
}

export function allFields<S extends ServerView>(rows: readonly PickerRow<S>[]): RowFields<S>[] {
  return rows.map(fieldsOf);
}

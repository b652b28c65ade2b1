/** The inspector's tables of records (users, cards, verifications): one component, so every table reads alike. */
import type { ComponentChildren, JSX } from 'preact';

/**
 * One column. The heading is also each cell's `data-label`, which a narrow screen shows beside the value (the
 * stylesheet lays each row out as a card there), so heading and label cannot disagree.
 */
export interface Column<T> {
  heading: string;
  cell: (row: T) => ComponentChildren;
}

/**
 * A table with a row per record: the columns, then (with `actions`) a last column of buttons whose heading only a
 * screen reader announces ("Actions"). `actions` is a component, so that it may use hooks (`useActions`).
 */
export function RecordTable<T>({
  rows,
  columns,
  rowKey,
  rowData,
  actions: Actions,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** The row's `data-*` attributes, by which the tests and the page's scripts find a record's row. */
  rowData?: (row: T) => Record<`data-${string}`, string>;
  actions?: (props: { row: T }) => JSX.Element;
}) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.heading}>{column.heading}</th>
            ))}
            {Actions && (
              <th>
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              {columns.map((column) => (
                <td key={column.heading} data-label={column.heading}>
                  {column.cell(row)}
                </td>
              ))}
              {Actions && (
                <td data-label="" class="actions">
                  <Actions row={row} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

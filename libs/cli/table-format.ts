/** Plain-text rendering of API objects for humans; `-o json` bypasses all of this. */

export type Row = Record<string, unknown>;

/** A table column: the header and the field of each row it shows. */
export interface Column {
  header: string;
  field: string;
}

/** Columns named after their fields, headers upper-cased: `columns('id', 'name')`. */
export function columns(...fields: string[]): Column[] {
  return fields.map((field) => ({ field, header: field.toUpperCase() }));
}

/** One value as a single table cell. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(formatCell).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\s*\n\s*/g, ' ');
}

/** Left-aligned columns separated by two spaces; trailing blanks trimmed. An empty list prints a note. */
export function formatTable(rows: readonly Row[], tableColumns: readonly Column[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = [
    tableColumns.map((column) => column.header),
    ...rows.map((row) => tableColumns.map((column) => formatCell(row[column.field]))),
  ];
  const widths = tableColumns.map((_, index) => Math.max(...cells.map((line) => line[index].length)));
  return cells
    .map(
      (line) =>
        `${line
          .map((cell, index) => cell.padEnd(widths[index]))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

/**
 * One object as aligned `field: value` lines. Multi-line strings (PEM blocks) follow their field
 * name on lines of their own so they stay copy-pasteable.
 */
export function formatRecord(record: Row): string {
  const width = Math.max(0, ...Object.keys(record).map((field) => field.length));
  let text = '';
  for (const [field, value] of Object.entries(record)) {
    if (typeof value === 'string' && value.includes('\n')) {
      text += `${field}:\n${value.endsWith('\n') ? value : `${value}\n`}`;
    } else {
      text += `${`${field}:`.padEnd(width + 1)} ${formatCell(value)}`.trimEnd() + '\n';
    }
  }
  return text;
}

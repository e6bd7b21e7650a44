import { parse as parseCsv } from 'csv-parse/sync';
import type { Workbook } from 'exceljs';

/**
 * Spreadsheet attachments: CSV (csv-parse) and XLSX (exceljs), each read as rows of cell texts, and
 * rows under a header read as records keyed by the header's lowercased headings.
 */

/** The rows of a CSV text (a byte-order mark and blank lines dropped, ragged rows allowed). */
export function csvRows(content: Buffer | string): string[][] {
  const text = (Buffer.isBuffer(content) ? content.toString('utf8') : content).replace(/^\uFEFF/, '');
  return parseCsv(text, { relax_column_count: true, skip_empty_lines: true, relax_quotes: true, trim: true }) as string[][];
}

/** The rows of every worksheet of an XLSX file, cells as text (dates as ISO 8601 UTC). */
export async function xlsxRows(content: Buffer): Promise<string[][][]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- exceljs is heavy; loaded for the first spreadsheet only
  const { Workbook: WorkbookClass } = require('exceljs') as { Workbook: new () => Workbook };
  const workbook = new WorkbookClass();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cellText(cell.value);
      });
      rows.push(Array.from(cells, (cell) => cell ?? ''));
    });
    return rows;
  });
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const rich = value as { richText?: Array<{ text: string }>; text?: string; result?: unknown };
    if (rich.richText)
      return rich.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if (rich.text !== undefined) return String(rich.text).trim();
    if (rich.result !== undefined) return cellText(rich.result);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean).trim();
}

/** The rows after the first row that has every `wanted` heading (case-insensitive), keyed by lowercased heading. */
export function rowRecords(rows: readonly string[][], wanted: readonly string[]): Array<Map<string, string>> | null {
  const key = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const keys = wanted.map(key);
  const header = rows.findIndex((cells) => keys.every((wantedKey) => cells.some((cell) => key(cell) === wantedKey)));
  if (header < 0) return null;
  const headings = rows[header].map(key);
  return rows
    .slice(header + 1)
    .filter((cells) => cells.some((cell) => cell.trim() !== ''))
    .map((cells) => new Map(headings.map((heading, column) => [heading, (cells[column] ?? '').trim()])));
}

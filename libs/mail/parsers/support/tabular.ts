import { parse as parseCsv } from 'csv-parse/sync';
import type { Workbook } from 'exceljs';
import { MailParseError } from '../../parsed-maintenance';

/**
 * Spreadsheet attachments: CSV (csv-parse) and XLSX (exceljs), each read as rows of cell texts, and
 * rows under a header read as records keyed by the header's lowercased headings.
 */

/** A CSV file's text: UTF-16 when it starts with a UTF-16 byte-order mark (spreadsheet exports), else UTF-8. */
export function csvText(content: Buffer | string): string {
  if (!Buffer.isBuffer(content)) return content.replace(/^\uFEFF/, '');
  if (content[0] === 0xff && content[1] === 0xfe) return content.subarray(2).toString('utf16le');
  if (content[0] === 0xfe && content[1] === 0xff) return Buffer.from(content.subarray(2)).swap16().toString('utf16le');
  return content.toString('utf8').replace(/^\uFEFF/, '');
}

/** The rows of a CSV file (blank lines dropped, ragged rows allowed); `delimiter` defaults to a comma, or a tab when the first line has tabs and no commas. */
export function csvRows(content: Buffer | string, options: { delimiter?: string } = {}): string[][] {
  bounded(content, 'CSV');
  const text = csvText(content);
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = options.delimiter ?? (firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',');
  return parseCsv(text, { delimiter, relax_column_count: true, skip_empty_lines: true, relax_quotes: true, trim: true }) as string[][];
}

/**
 * Spreadsheets larger than this are not read: a carrier's notice lists a few dozen services, and an
 * XLSX is a zip whose inflated size is a multiple of its own (an attachment is hostile input).
 */
export const SPREADSHEET_MAX_BYTES = 5 * 1024 * 1024;

const bounded = (content: Buffer | string, kind: string) => {
  const size = Buffer.byteLength(content);
  if (size > SPREADSHEET_MAX_BYTES) {
    throw new MailParseError('unsupported_format', `a ${kind} attachment of ${size} bytes is over the ${SPREADSHEET_MAX_BYTES}-byte limit`);
  }
};

/** The rows of every worksheet of an XLSX file, cells as text (dates as ISO 8601 UTC). */
export async function xlsxRows(content: Buffer): Promise<string[][][]> {
  bounded(content, 'XLSX');
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

import { MailParseError } from '../parsed-maintenance';

/** Helpers the carrier parsers share: HTML table rows, "Label: value" lines, and UTC date-time reading. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

/** Every table row of the HTML as its cells' text, in document order. */
export function htmlTableRows(html: string): string[][] {
  const rows: string[][] = [];
  for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells = [...row[1].matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((cell) => htmlToText(cell[1]));
    if (cells.length) rows.push(cells);
  }
  return rows;
}

const normaliseLabel = (label: string) => label.toLowerCase().replace(/[:#]/g, '').replace(/\s+/g, ' ').trim();

/** Two-cell rows (label, value) of the HTML tables, keyed by the lowercased label without ':' or '#'. */
export function htmlLabelledCells(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const cells of htmlTableRows(html)) {
    if (cells.length === 2 && !fields.has(normaliseLabel(cells[0]))) fields.set(normaliseLabel(cells[0]), cells[1]);
  }
  return fields;
}

/** "Label: value" lines of a text body, keyed like htmlLabelledCells; the first occurrence wins. */
export function labelledLines(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^:]{2,60}?)\s*:\s*(.+?)\s*$/.exec(line);
    if (match && !fields.has(normaliseLabel(match[1]))) fields.set(normaliseLabel(match[1]), match[2]);
  }
  return fields;
}

export function required(fields: Map<string, string>, label: string, parser: string): string {
  const value = fields.get(label);
  if (!value) throw new MailParseError('unsupported_format', `${parser}: no "${label}" field in the email`);
  return value;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads a carrier's date-time as UTC, returning epoch seconds. Accepted shapes: ISO 8601 with Z or an
 * offset; "2026-12-03 01:00[:00] [UTC|GMT]"; "03-Dec-2026 01:00 [GMT]" / "03 Dec 2026 01:00"; US
 * "12/03/2026 01:00 [GMT]". A trailing "UTC"/"GMT" (or none, when the label says the zone) means UTC.
 */
export function parseUtc(value: string, parser: string): number {
  const text = value.trim().replace(/\s*\(?\b(UTC|GMT)\b\)?\s*$/i, '');
  let match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (match) {
    const [, y, mo, d, h, mi, s, zone] = match;
    const offset = zoneOffsetMinutes(zone);
    return Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0)) / 1000 - offset * 60;
  }
  match = /^(\d{1,2})[- ]([A-Za-z]{3})[a-z]*[- ](\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (match && MONTHS.includes(match[2].toLowerCase())) {
    const [, d, mon, y, h, mi, s] = match;
    return Date.UTC(+y, MONTHS.indexOf(mon.toLowerCase()), +d, +h, +mi, +(s ?? 0)) / 1000;
  }
  match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (match) {
    const [, mo, d, y, h, mi, s] = match;
    return Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0)) / 1000;
  }
  throw new MailParseError('unsupported_format', `${parser}: unreadable date-time "${value}"`);
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = +digits.slice(1, 3) * 60 + +digits.slice(3, 5);
  return digits.startsWith('-') ? -minutes : minutes;
}

/** The email's Date header as epoch seconds: the stamp of formats that carry none of their own. */
export function stampOf(date: Date | null, parser: string): number {
  if (!date) throw new MailParseError('unsupported_format', `${parser}: the email has no Date header to order it by`);
  return Math.floor(date.getTime() / 1000);
}

import { load, type CheerioAPI } from 'cheerio';

/**
 * HTML reading for carrier notices (cheerio): the text of a body as lines, "Label: value" pairs in
 * running text (`<b>Maintenance Ticket #:</b> <span>TTN-…</span>`) or two-cell rows, and tables as
 * rows of cell texts.
 */

const BLOCK = new Set([
  'address',
  'article',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
const CELL = new Set(['td', 'th']);
/** Marks written into a copy of the tree: a line break, a cell's end (private-use characters no email holds). */
const LINE = '\uE000';
const CELL_END = '\uE001';

export const loadHtml = (html: string): CheerioAPI => load(html);

/** Collapses white space (including no-break spaces) to single spaces and trims. */
export const squash = (text: string): string => text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();

/**
 * The visible text of an HTML fragment, one line per block (paragraph, `<br>`, table row); the cells of
 * a row end with a tab, so a "Label:" cell and its value cell read as one line. White space is squashed
 * to single spaces, or with `keepSpacing` only trimmed at the line's ends (its text as written).
 */
export function htmlLines(html: string | CheerioAPI, options: { keepSpacing?: boolean } = {}): string[] {
  // A copy: the line marks written into the tree must not reach the caller's document.
  const $ = load(typeof html === 'string' ? html : html.html());
  $('script, style, head, title').remove();
  $('br').replaceWith(LINE);
  $([...CELL].join(', ')).append(CELL_END);
  $([...BLOCK].filter((name) => name !== 'br' && !CELL.has(name)).join(', '))
    .before(LINE)
    .after(LINE);
  return $.root()
    .text()
    .split(LINE)
    .map((line) => {
      const cells = line.replace(/\s*\uE001\s*/g, CELL_END);
      return (options.keepSpacing ? cells.replace(/^[\s\u00a0]+|[\s\u00a0]+$/g, '') : squash(cells)).replace(/\uE001/g, '\t');
    })
    .filter((line) => line.replace(/\t/g, '').trim() !== '');
}

/**
 * `<b>Label:</b> value` pairs (also `<strong>`): the label's text keyed by labelKey, the value the text
 * of the node right after the bold element, trimmed (its inner spacing and line breaks as written). The first occurrence wins.
 */
export function boldLabelledValues(html: string | CheerioAPI): Map<string, string> {
  const $ = typeof html === 'string' ? load(html) : html;
  const fields = new Map<string, string>();
  for (const bold of $('b, strong').toArray()) {
    const label = squash($(bold).text());
    if (!label.endsWith(':') && !/:\s*$/.test(label)) continue;
    const key = labelKey(label);
    if (!key || fields.has(key)) continue;
    const next = bold.nextSibling;
    const value = next
      ? $(next)
          .text()
          .replace(/^[\s\u00a0]+|[\s\u00a0]+$/g, '')
      : '';
    fields.set(key, value);
  }
  return fields;
}

/** The visible text of an HTML body: its lines joined by newlines. */
export const htmlText = (html: string | CheerioAPI): string => htmlLines(html).join('\n');

/** A label as a key: lowercased, without ':' and '#', single-spaced. */
export const labelKey = (label: string): string => label.toLowerCase().replace(/[:#*]/g, '').replace(/\s+/g, ' ').trim();

/**
 * "Label: value" pairs of text lines, keyed by labelKey; the first occurrence wins. A label alone on
 * its line takes the next line as its value. Table cells (tab-separated in htmlLines) count as text.
 */
export function labelledValues(lines: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].replace(/\t+/g, ' ').trim();
    const match = /^([^:]{2,80}?)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = labelKey(match[1]);
    if (!key || fields.has(key)) continue;
    let value = squash(match[2]);
    if (!value && index + 1 < lines.length && !/^[^:]{2,80}:/.test(lines[index + 1])) value = squash(lines[index + 1]);
    fields.set(key, value);
  }
  return fields;
}

/** labelledValues of an HTML body. */
export const htmlLabelledValues = (html: string | CheerioAPI): Map<string, string> => labelledValues(htmlLines(html));

/** labelledValues of a plain-text body. */
export const textLabelledValues = (text: string): Map<string, string> => labelledValues(text.split(/\r?\n/));

/** One table: its rows, each the squashed text of its cells (nested tables are tables of their own). */
export type TableRows = string[][];

/**
 * Every table of the HTML, in document order, as rows of cell texts; empty rows left out. A cell's text
 * is squashed to single spaces, or with `raw` only trimmed (carriers whose ids hold runs of spaces).
 */
export function htmlTables(html: string | CheerioAPI, options: { raw?: boolean } = {}): TableRows[] {
  const $ = typeof html === 'string' ? load(html) : html;
  const cellText = (text: string) => (options.raw ? text.replace(/^[\s\u00a0]+|[\s\u00a0]+$/g, '') : squash(text));
  return $('table')
    .toArray()
    .map((table) =>
      $(table)
        .find('tr')
        .toArray()
        .filter((row) => $(row).closest('table').get(0) === table)
        .map((row) =>
          $(row)
            .children('td,th')
            .toArray()
            .map((cell) => cellText($(cell).text())),
        )
        .filter((cells) => cells.some((cell) => cell !== '')),
    );
}

/**
 * The rows under the first header row (in any table) whose cells include every `wanted` heading
 * (compared as labelKey), as records keyed by labelKey of each heading; rows with fewer cells than
 * the header end the table's records.
 */
export function tableRecords(tables: readonly TableRows[], wanted: readonly string[]): Array<Map<string, string>> | null {
  const keys = wanted.map(labelKey);
  for (const rows of tables) {
    const header = rows.findIndex((cells) => keys.every((key) => cells.some((cell) => labelKey(cell) === key)));
    if (header < 0) continue;
    const headings = rows[header].map(labelKey);
    const records: Array<Map<string, string>> = [];
    for (const cells of rows.slice(header + 1)) {
      if (cells.length < headings.length) break;
      records.push(new Map(headings.map((heading, column) => [heading, cells[column] ?? ''])));
    }
    return records;
  }
  return null;
}

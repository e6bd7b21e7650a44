import type { TemplateFilters } from '../../platform/plugin-api';

/**
 * The Jinja filters of notification templates, loaded by the platform's template render process
 * (the renderer's `filterModules`, like peering's): `ical_datetime` (a time as UTC
 * `YYYYMMDDTHHMMSSZ`) and `markdown` (a small, HTML-escaping subset: headings, paragraphs, lists,
 * emphasis, code, http(s) links). Self-contained: the render process may read only this file of the plugin.
 */

/** This module, as the renderer's `filterModules` entry. */
export const NOTICES_TEMPLATE_FILTERS_MODULE = __filename;

function icalDatetime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value as string | number | Date);
  if (isNaN(date.getTime())) throw new Error(`ical_datetime: not a date: ${String(value)}`);
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>');
}

function markdown(value: unknown): string {
  const blocks = String(value === null || value === undefined ? '' : value)
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/);
  const out: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
    if (heading && lines.length === 1) out.push(`<h${heading[1].length}>${inline(heading[2])}</h${heading[1].length}>`);
    else if (lines.every((line) => /^\s*[-*]\s+/.test(line)))
      out.push('<ul>' + lines.map((line) => '<li>' + inline(line.replace(/^\s*[-*]\s+/, '')) + '</li>').join('') + '</ul>');
    else if (lines.every((line) => /^\s*\d+\.\s+/.test(line)))
      out.push('<ol>' + lines.map((line) => '<li>' + inline(line.replace(/^\s*\d+\.\s+/, '')) + '</li>').join('') + '</ol>');
    else out.push('<p>' + lines.map(inline).join('<br>\n') + '</p>');
  }
  return out.join('\n');
}

export const TEMPLATE_FILTERS: TemplateFilters = {
  ical_datetime: { args: ['value'], fn: icalDatetime },
  markdown: { args: ['value'], fn: markdown },
};

/**
 * The Jinja filters of notification templates, as JavaScript source evaluated inside the platform's
 * template sandbox worker (like peering's): `ical_datetime` (a time as UTC `YYYYMMDDTHHMMSSZ`) and
 * `markdown` (a small, HTML-escaping subset: headings, paragraphs, lists, emphasis, code, http(s) links).
 */
export const NOTICES_TEMPLATE_FILTERS_SOURCE = String.raw`(function () {
  'use strict';
  function icalDatetime(value) {
    if (value === null || value === undefined || value === '') return '';
    const date = new Date(value);
    if (isNaN(date.getTime())) throw new Error('ical_datetime: not a date: ' + String(value));
    return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  }
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  function inline(text) {
    return escape(text)
      .replace(/\x60([^\x60]+)\x60/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>')
      .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>');
  }
  function markdown(value) {
    const blocks = String(value === null || value === undefined ? '' : value).replace(/\r\n/g, '\n').split(/\n{2,}/);
    const out = [];
    for (const block of blocks) {
      const lines = block.split('\n').filter((line) => line.trim() !== '');
      if (lines.length === 0) continue;
      const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
      if (heading && lines.length === 1) out.push('<h' + heading[1].length + '>' + inline(heading[2]) + '</h' + heading[1].length + '>');
      else if (lines.every((line) => /^\s*[-*]\s+/.test(line)))
        out.push('<ul>' + lines.map((line) => '<li>' + inline(line.replace(/^\s*[-*]\s+/, '')) + '</li>').join('') + '</ul>');
      else if (lines.every((line) => /^\s*\d+\.\s+/.test(line)))
        out.push('<ol>' + lines.map((line) => '<li>' + inline(line.replace(/^\s*\d+\.\s+/, '')) + '</li>').join('') + '</ol>');
      else out.push('<p>' + lines.map(inline).join('<br>\n') + '</p>');
    }
    return out.join('\n');
  }
  return { ical_datetime: { args: ['value'], fn: icalDatetime }, markdown: { args: ['value'], fn: markdown } };
})()`;

import ICAL from 'ical.js';

/**
 * Lenient iCalendar reading (ical.js after a repair pass). Carriers' calendar generators break RFC 5545
 * in two ways seen in real notices: free text continued on lines without the leading space of a fold,
 * and stray lines that are no content line at all. The repair pass joins a non-content line to the
 * free-text property before it (DESCRIPTION, SUMMARY, COMMENT, LOCATION, CONTACT), drops any other
 * unreadable line with a warning, and drops a content line ical.js cannot read with a warning, so one
 * bad line costs that line, not the email.
 */

const CONTENT_LINE = /^[A-Za-z0-9-]+(?:;(?:[^":;]+=(?:"[^"]*"|[^":;,]*)(?:,(?:"[^"]*"|[^":;,]*))*))*:/;
const FREE_TEXT = new Set(['DESCRIPTION', 'SUMMARY', 'COMMENT', 'LOCATION', 'CONTACT']);

export interface LenientCalendar {
  root: ICAL.Component;
  /** Free-text continuations joined to their property: the text is whole, nothing was guessed. */
  joined: string[];
  /** Lines dropped: what they were and why (a reader cannot know what they meant). */
  warnings: string[];
}

/** Reads one text/calendar part leniently; throws (with the ical.js message) only when nothing readable is left. */
export function readCalendar(text: string): LenientCalendar {
  const joined: string[] = [];
  const warnings: string[] = [];
  const lines: string[] = [];
  let lastName = '';
  for (const physical of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^[ \t]/.test(physical)) {
      if (lines.length) lines[lines.length - 1] += physical.slice(1);
      continue;
    }
    if (!physical.trim()) continue;
    if (CONTENT_LINE.test(physical)) {
      lines.push(physical);
      lastName = physical.split(/[;:]/, 1)[0].toUpperCase();
      continue;
    }
    if (lines.length && FREE_TEXT.has(lastName)) {
      lines[lines.length - 1] += `\\n${physical}`;
      joined.push(`line "${excerpt(physical)}" continues ${lastName} without the leading space of a fold: joined to it`);
    } else {
      warnings.push(`line "${excerpt(physical)}" is not an iCalendar content line: skipped`);
    }
  }
  const readable = lines.filter((line) => {
    if (/^(BEGIN|END):/i.test(line)) return true;
    try {
      const [name, , type, value] = ICAL.parse.property(line) as [string, unknown, string, unknown];
      if ((type === 'date-time' || type === 'date') && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z?)?$/.test(String(value)))
        throw new Error(`${name.toUpperCase()} is no ${type}`);
      return true;
    } catch (error) {
      warnings.push(`line "${excerpt(line)}" does not parse (${(error as Error).message}): skipped`);
      return false;
    }
  });
  const root = new ICAL.Component(ICAL.parse(readable.join('\r\n')) as unknown[]);
  return { root, joined, warnings };
}

const excerpt = (line: string) => (line.length > 60 ? `${line.slice(0, 57)}…` : line);

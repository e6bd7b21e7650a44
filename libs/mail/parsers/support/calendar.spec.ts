import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { parseMaintenanceEmail } from '../..';
import { readCalendar } from './calendar';

const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'UID:1@example.net',
  'DTSTART:20270316T230000Z',
  'DTEND:20270317T050000Z',
  'DESCRIPTION:First line of the description',
  'continued without the leading space',
  'X-MAINTNOTE-OBJECT-ID;SR=1:AB-12-',
  'ELE',
  'LAST-MODIFIED:2027-03-02 12:00',
  'SUMMARY:Re-splice',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

describe('readCalendar: lenient iCalendar', () => {
  it('the strict reader refuses this calendar', () => {
    expect(() => ICAL.parse(CALENDAR)).toThrow();
  });

  it('joins free-text continuations, drops a stray line after a non-text property and an unreadable value, each with a note', () => {
    const { root, joined, warnings } = readCalendar(CALENDAR);
    const event = root.getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('description')).toBe('First line of the description\ncontinued without the leading space');
    expect(event.getFirstPropertyValue('x-maintnote-object-id')).toBe('AB-12-');
    expect(event.hasProperty('last-modified')).toBe(false);
    expect(event.getFirstPropertyValue('summary')).toBe('Re-splice');
    expect(joined).toEqual([expect.stringContaining('continues DESCRIPTION')]);
    expect(warnings).toEqual([expect.stringContaining('"ELE" is not an iCalendar content line'), expect.stringContaining('LAST-MODIFIED')]);
  });

  it('a BCOP email whose calendar has unfolded continuation lines and one malformed line still yields its maintenance, with lowered confidence', async () => {
    const raw = readFileSync(join(__dirname, '../../../../test/fixtures/mail/bcop/lenient-calendar.eml'));
    const result = await parseMaintenanceEmail(raw);
    expect(result.maintenances.map((maintenance) => maintenance.maintenanceId)).toEqual(['MF-CHG-7781']);
    expect(result.uncertainties).toEqual([expect.stringContaining('LAST-MODIFIED')]);
    expect(result.reasons).toEqual(expect.arrayContaining([expect.stringContaining('continues DESCRIPTION')]));
    expect(result.confidence).toBeLessThan(1);
  });
});

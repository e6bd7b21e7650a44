import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { parseBcopCalendars } from './bcop-ical';

/**
 * Arelion (formerly Telia Carrier): BCOP iCalendar, one VEVENT per service window, from a generator
 * that continues DESCRIPTION text on lines without the leading space of a fold (read leniently,
 * support/calendar.ts). The calendar's X-MAINTNOTE-PROVIDER must name Arelion or Telia; "Disturbance
 * Information" emails report outages, not maintenance.
 */
const OWN_NAMES = /^(arelion|telia|teliacarrier|arelion\.com|teliacarrier\.com|teliacompany\.com|telia carrier)$/i;

function parseArelion(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  if (/disturbance information/i.test(email.subject)) {
    throw new MailParseError('no_maintenance_data', 'arelion: a "Disturbance Information" email reports an outage, not a maintenance');
  }
  return parseBcopCalendars(email, 'arelion', notes).map((maintenance) => {
    if (!OWN_NAMES.test(maintenance.provider.trim())) {
      throw new MailParseError('provider_mismatch', `arelion: the calendar names provider "${maintenance.provider}", not Arelion`);
    }
    return { ...maintenance, provider: 'arelion' };
  });
}

export const arelionParser: CarrierParser = {
  name: 'arelion',
  label: 'Arelion (Telia Carrier)',
  senderDomains: ['arelion.com', 'teliacompany.com', 'teliacarrier.com'],
  reads: ['calendar', 'subject'],
  parse: parseArelion,
};

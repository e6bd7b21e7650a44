import type { CarrierParser } from '../carrier-parser';
import { MailParseError } from '../parsed-maintenance';
import { hasBcopCalendar, parseBcopCalendars } from './bcop-ical';

/**
 * euNetworks: BCOP iCalendar attachments ("X-<ticket>.ics", X-MAINTNOTE-PROVIDER euNetworks.com);
 * the HTML and text parts repeat the notice in prose. A cancellation's calendar lists no objects.
 */
export const euNetworksParser: CarrierParser = {
  name: 'eunetworks',
  label: 'euNetworks',
  senderDomains: ['eunetworks.com'],
  reads: ['calendar'],
  parse: (email, notes) => {
    if (!hasBcopCalendar(email)) throw new MailParseError('unsupported_format', 'eunetworks: no BCOP iCalendar attachment');
    // The calendars name the provider by its domain, euNetworks.com: the records are the sender's, eunetworks.
    return parseBcopCalendars(email, 'eunetworks', notes).map((maintenance) =>
      /^eunetworks(\.com)?$/i.test(maintenance.provider.trim()) ? { ...maintenance, provider: 'eunetworks' } : maintenance,
    );
  },
};

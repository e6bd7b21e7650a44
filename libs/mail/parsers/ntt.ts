import type { CarrierParser } from '../carrier-parser';
import { parseBcopCalendars } from './bcop-ical';

/**
 * NTT (AS2914, Global IP Network): BCOP iCalendar notices (X-MAINTNOTE-* properties, the provider
 * "NTT Communications (AS2914)"), one VEVENT per maintenance; the email text repeats the calendar.
 */
export const nttParser: CarrierParser = {
  name: 'ntt',
  label: 'NTT',
  senderDomains: ['ntt.net'],
  reads: ['calendar'],
  parse: (email, notes) => parseBcopCalendars(email, 'ntt', notes),
};

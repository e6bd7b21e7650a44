import type { CarrierParser } from '../carrier-parser';
import { carrierCalendars } from './support/carrier-calendar-mail-c';

/**
 * NTT (AS2914, Global IP Network): BCOP iCalendar notices (X-MAINTNOTE-* properties, the provider
 * "NTT Communications (AS2914)", recorded as ntt), one VEVENT per maintenance; the email text repeats
 * the calendar.
 */
export const nttParser: CarrierParser = {
  name: 'ntt',
  label: 'NTT',
  senderDomains: ['ntt.net'],
  reads: ['calendar'],
  parse: (email, notes) => carrierCalendars(email, 'ntt', /\bNTT\b|\bAS2914\b|\bntt\.net\b/i, notes),
};

import ICAL from 'ical.js';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import {
  isBcopImpact,
  isBcopStatus,
  MailParseError,
  type ParsedCircuit,
  type ParsedEmail,
  type ParsedMaintenance,
} from '../parsed-maintenance';
import { readCalendar } from './support/calendar';

/**
 * The BCOP maintenance-notification format: VEVENTs of a text/calendar part carrying X-MAINTNOTE-*
 * properties, read leniently (support/calendar.ts). STATUS absent → NO-CHANGE, SEQUENCE absent → -1;
 * each OBJECT-ID's impact is its X-MAINTNOTE-OBJECT-IMPACT parameter, falling back to the event's
 * X-MAINTNOTE-IMPACT, then OUTAGE. The provider is the calendar's X-MAINTNOTE-PROVIDER.
 */
export function parseBcopCalendars(email: ParsedEmail, parser: string, notes?: ParseNotes): ParsedMaintenance[] {
  const maintenances: ParsedMaintenance[] = [];
  for (const calendar of email.calendars) {
    let root: ICAL.Component;
    try {
      const read = readCalendar(calendar);
      root = read.root;
      for (const repair of read.joined) notes?.reason(`iCalendar: ${repair}`);
      for (const warning of read.warnings) notes?.uncertain(`iCalendar: ${warning}`);
    } catch (error) {
      throw new MailParseError('unsupported_format', `${parser}: the iCalendar part does not parse: ${(error as Error).message}`);
    }
    for (const event of root.getAllSubcomponents('vevent')) {
      if (!event.hasProperty('x-maintnote-maintenance-id')) continue;
      maintenances.push(readEvent(event, parser, notes));
    }
  }
  if (!maintenances.length) {
    throw new MailParseError('unsupported_format', `${parser}: no VEVENT with X-MAINTNOTE-MAINTENANCE-ID in the email`);
  }
  notes?.reason(`BCOP iCalendar: ${maintenances.length} VEVENT(s) with X-MAINTNOTE-MAINTENANCE-ID`);
  return maintenances;
}

function readEvent(event: ICAL.Component, parser: string, notes?: ParseNotes): ParsedMaintenance {
  const text = (name: string) => {
    const value = event.getFirstPropertyValue(name);
    return value === null || value === undefined ? '' : String(value).trim();
  };
  const time = (name: string) => {
    const value = event.getFirstPropertyValue(name);
    if (!(value instanceof ICAL.Time)) throw new MailParseError('unsupported_format', `${parser}: the VEVENT has no ${name.toUpperCase()}`);
    return value.toUnixTime();
  };
  const status = text('x-maintnote-status').toUpperCase() || 'NO-CHANGE';
  if (status !== 'NO-CHANGE' && !isBcopStatus(status)) {
    throw new MailParseError('unsupported_format', `${parser}: unknown X-MAINTNOTE-STATUS "${status}"`);
  }
  if (status === 'NO-CHANGE') notes?.reason('no X-MAINTNOTE-STATUS: the status is kept (NO-CHANGE)');
  const eventImpact = text('x-maintnote-impact').toUpperCase();
  const circuits: ParsedCircuit[] = event.getAllProperties('x-maintnote-object-id').map((property) => {
    const impact = (String(property.getParameter('x-maintnote-object-impact') ?? '') || eventImpact || 'OUTAGE').toUpperCase();
    if (!isBcopImpact(impact)) throw new MailParseError('unsupported_format', `${parser}: unknown impact "${impact}"`);
    return { circuitId: String(property.getFirstValue()).trim(), impact };
  });
  if (!eventImpact && circuits.length) notes?.uncertain('no X-MAINTNOTE-IMPACT: objects without their own impact read as OUTAGE');
  const sequence = event.getFirstPropertyValue('sequence');
  const provider = text('x-maintnote-provider');
  const maintenanceId = text('x-maintnote-maintenance-id');
  if (!provider) throw new MailParseError('unsupported_format', `${parser}: the VEVENT has no X-MAINTNOTE-PROVIDER`);
  return {
    provider,
    account: text('x-maintnote-account'),
    maintenanceId,
    status: status as ParsedMaintenance['status'],
    circuits,
    start: time('dtstart'),
    end: time('dtend'),
    stamp: time('dtstamp'),
    sequence: typeof sequence === 'number' ? sequence : 1,
    summary: text('summary'),
  };
}

/** Whether the email has a BCOP calendar (a VEVENT with X-MAINTNOTE-MAINTENANCE-ID). */
export const hasBcopCalendar = (email: ParsedEmail): boolean =>
  email.calendars.some((calendar) => /X-MAINTNOTE-MAINTENANCE-ID/i.test(calendar));

/** The generic BCOP provider: any sender whose notices are BCOP calendars; the records name the calendar's provider. */
export const bcopParser: CarrierParser = {
  name: 'bcop',
  label: 'BCOP iCalendar (any provider)',
  senderDomains: [],
  reads: ['calendar'],
  parse: (email, notes) => parseBcopCalendars(email, 'bcop', notes),
};

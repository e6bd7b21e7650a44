import ICAL from 'ical.js';
import {
  isBcopImpact,
  isBcopStatus,
  MailParseError,
  type ParsedCircuit,
  type ParsedEmail,
  type ParsedMaintenance,
} from '../parsed-maintenance';

/**
 * The BCOP maintenance-notification format: VEVENTs of a text/calendar part carrying X-MAINTNOTE-*
 * properties. STATUS absent → NO-CHANGE, SEQUENCE absent → -1; each OBJECT-ID's impact is its
 * X-MAINTNOTE-OBJECT-IMPACT parameter, falling back to the event's X-MAINTNOTE-IMPACT.
 */
export function parseBcopCalendars(email: ParsedEmail, parser = 'bcop'): ParsedMaintenance[] {
  const maintenances: ParsedMaintenance[] = [];
  for (const calendar of email.calendars) {
    let root: ICAL.Component;
    try {
      root = new ICAL.Component(ICAL.parse(calendar) as unknown[]);
    } catch (error) {
      throw new MailParseError('unsupported_format', `${parser}: the iCalendar part does not parse: ${(error as Error).message}`);
    }
    for (const event of root.getAllSubcomponents('vevent')) {
      if (!event.hasProperty('x-maintnote-maintenance-id')) continue;
      maintenances.push(readEvent(event, parser));
    }
  }
  if (!maintenances.length) {
    throw new MailParseError('unsupported_format', `${parser}: no VEVENT with X-MAINTNOTE-MAINTENANCE-ID in the email`);
  }
  return maintenances;
}

function readEvent(event: ICAL.Component, parser: string): ParsedMaintenance {
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
  const eventImpact = text('x-maintnote-impact').toUpperCase();
  const circuits: ParsedCircuit[] = event.getAllProperties('x-maintnote-object-id').map((property) => {
    const impact = (String(property.getParameter('x-maintnote-object-impact') ?? '') || eventImpact || 'OUTAGE').toUpperCase();
    if (!isBcopImpact(impact)) throw new MailParseError('unsupported_format', `${parser}: unknown impact "${impact}"`);
    return { circuitId: String(property.getFirstValue()).trim(), impact };
  });
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
    sequence: typeof sequence === 'number' ? sequence : -1,
    summary: text('summary'),
  };
}

import type { ParseNotes } from '../../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../../parsed-maintenance';
import { parseBcopCalendars } from '../bcop-ical';

/**
 * A carrier's own BCOP calendars. Their X-MAINTNOTE-PROVIDER is the carrier's display name ("NTT
 * Communications (AS2914)"), which names no platform provider; the records take the carrier's parser
 * name instead, so they speak for the sender's carrier only. A calendar naming another provider is
 * refused (provider_mismatch).
 */
export function carrierCalendars(email: ParsedEmail, parser: string, names: RegExp, notes: ParseNotes): ParsedMaintenance[] {
  return parseBcopCalendars(email, parser, notes).map((maintenance) => {
    if (!names.test(maintenance.provider)) {
      throw new MailParseError('provider_mismatch', `${parser}: the calendar names provider "${maintenance.provider}", not ${parser}`);
    }
    if (maintenance.provider !== parser) notes.reason(`${parser}: X-MAINTNOTE-PROVIDER "${maintenance.provider}" is ${parser}'s name`);
    return { ...maintenance, provider: parser };
  });
}

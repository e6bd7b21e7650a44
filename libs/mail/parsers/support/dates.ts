import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { MailParseError } from '../../parsed-maintenance';

/**
 * Carrier date-times (luxon): a written time in many shapes, with an IANA zone name, a numeric offset,
 * or a zone abbreviation (GMT, EST, CEST, HKT …), read as an instant in epoch seconds. Abbreviations
 * are ambiguous in general; the table holds the meaning the carriers use.
 */

const ABBREVIATIONS: Record<string, string> = {
  UTC: 'UTC',
  GMT: 'UTC',
  Z: 'UTC',
  UT: 'UTC',
  EST: 'UTC-5',
  EDT: 'UTC-4',
  CST: 'UTC-6',
  CDT: 'UTC-5',
  MST: 'UTC-7',
  MDT: 'UTC-6',
  PST: 'UTC-8',
  PDT: 'UTC-7',
  AKST: 'UTC-9',
  AKDT: 'UTC-8',
  HST: 'UTC-10',
  WET: 'UTC',
  WEST: 'UTC+1',
  BST: 'UTC+1',
  IST: 'UTC+5:30',
  CET: 'UTC+1',
  CEST: 'UTC+2',
  MET: 'UTC+1',
  MEST: 'UTC+2',
  EET: 'UTC+2',
  EEST: 'UTC+3',
  MSK: 'UTC+3',
  TRT: 'UTC+3',
  SGT: 'UTC+8',
  HKT: 'UTC+8',
  AWST: 'UTC+8',
  JST: 'UTC+9',
  KST: 'UTC+9',
  ACST: 'UTC+9:30',
  ACDT: 'UTC+10:30',
  AEST: 'UTC+10',
  AEDT: 'UTC+11',
  NZST: 'UTC+12',
  NZDT: 'UTC+13',
};

/** North American zone words without a season: the zone's rule decides standard or daylight time. */
const REGIONAL: Record<string, string> = {
  ET: 'America/New_York',
  EASTERN: 'America/New_York',
  CT: 'America/Chicago',
  CENTRAL: 'America/Chicago',
  MT: 'America/Denver',
  MOUNTAIN: 'America/Denver',
  PT: 'America/Los_Angeles',
  PACIFIC: 'America/Los_Angeles',
};

/** A zone from a name ("Europe/London"), an abbreviation ("CEST"), or an offset ("+02:00", "GMT+8", "UTC-05:00"). */
export function zoneFrom(text: string): Zone | null {
  const value = text.trim().replace(/^\(|\)$/g, '');
  const abbreviation = ABBREVIATIONS[value.toUpperCase()];
  if (abbreviation) return FixedOffsetZone.parseSpecifier(abbreviation) ?? FixedOffsetZone.utcInstance;
  const regional = REGIONAL[value.toUpperCase()];
  if (regional) return IANAZone.create(regional);
  const offset = /^(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(value);
  if (offset) {
    const minutes = (+offset[2] * 60 + +(offset[3] ?? 0)) * (offset[1] === '-' ? -1 : 1);
    return FixedOffsetZone.instance(minutes);
  }
  if (value.includes('/') && IANAZone.isValidZone(value)) return IANAZone.create(value);
  return null;
}

/** Written shapes tried in order (luxon tokens); the zone is split off first. */
const FORMATS = [
  "yyyy-MM-dd'T'HH:mm:ss",
  "yyyy-MM-dd'T'HH:mm",
  'yyyy-MM-dd HH:mm:ss',
  'yyyy-MM-dd HH:mm',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy/MM/dd HH:mm',
  'yyyy-MM-dd h:mm a',
  'yyyy-MM-dd',
  'dd-MMM-yyyy HH:mm:ss',
  'dd-MMM-yyyy HH:mm',
  'd-MMM-yyyy H:mm',
  'dd-MMM-yy HH:mm',
  'd MMM yyyy HH:mm:ss',
  'd MMM yyyy HH:mm',
  'd MMM yyyy H:mm',
  'd MMMM yyyy HH:mm:ss',
  'd MMMM yyyy HH:mm',
  'd MMMM yyyy H:mm',
  'MMM d yyyy HH:mm:ss',
  'MMM d yyyy HH:mm',
  'MMM d yyyy H:mm',
  'MMM d yyyy h:mm a',
  'MMMM d yyyy HH:mm',
  'MMMM d yyyy h:mm a',
  'EEE MMM d yyyy HH:mm',
  'EEE d MMM yyyy HH:mm:ss',
  'EEE d MMM yyyy HH:mm',
  'EEEE d MMMM yyyy HH:mm',
  'EEEE MMMM d yyyy HH:mm',
  'EEEE MMMM d yyyy h:mm a',
  'EEE MMM d yyyy h:mm a',
  'MM/dd/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm',
  'M/d/yyyy H:mm',
  'M/d/yyyy h:mm a',
  'M/d/yyyy h:mm:ss a',
  'M/d/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'dd.MM.yyyy HH:mm',
  'yyyyMMdd HHmm',
  'dd-MMM-yyyy',
  'd MMM yyyy',
  'MMM d yyyy',
  'MMMM d yyyy',
  'MM/dd/yyyy',
  'yyyy/MM/dd',
];

export interface DateOptions {
  /** The zone when the text names none (default UTC). */
  zone?: string;
  /** Shapes to try before the common ones (luxon tokens). */
  formats?: readonly string[];
  /** Read slash dates as day/month (default month/day, the US form). */
  dayFirst?: boolean;
}

/** Splits a trailing or leading zone word ("GMT", "UTC+8", "(CEST)", "Europe/Paris", "+0200") off a date-time. */
function splitZone(text: string): { rest: string; zone: Zone | null } {
  const trailing =
    /^(.*?)(?:[\s,]+\(?|\()((?:UTC|GMT)\s*[+-]\s*\d{1,2}(?::?\d{2})?|[+-]\d{2}:?\d{2}|[A-Za-z]{1,8}|[A-Za-z]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)\)?\.?$/.exec(
      text,
    );
  if (trailing) {
    const zone = zoneFrom(trailing[2]);
    if (zone && !/^(AM|PM)$/i.test(trailing[2])) return { rest: trailing[1], zone };
  }
  const leading = /^\(?([A-Z]{2,5})\)?\s+(.*)$/.exec(text);
  if (leading) {
    const zone = zoneFrom(leading[1]);
    if (zone) return { rest: leading[2], zone };
  }
  return { rest: text, zone: null };
}

/** Normalises punctuation carriers scatter in dates: "Aug 16, 2021 @ 23:01 hrs" → "Aug 16 2021 23:01". */
const normalise = (text: string): string =>
  text
    .replace(/[\u00a0\s]+/g, ' ')
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/\s*@\s*|\s+at\s+/gi, ' ')
    .replace(/\b(hrs|hours|h)\b\.?/gi, '')
    .replace(/,/g, ' ')
    .replace(/\b(\d{1,2})\.(\d{2})\b(?=\s*(?:$|[AaPp][Mm]))/, '$1:$2')
    .replace(/(\d)\s*([ap])\.?m\.?(?=[\s)]|$)/gi, (_, digit: string, letter: string) => `${digit} ${letter.toUpperCase()}M`)
    .replace(/\s+/g, ' ')
    .trim();

/** The instant a carrier's date-time names, in epoch seconds, or null when no known shape reads it. */
export function readDateTime(text: string, options: DateOptions = {}): number | null {
  const cleaned = normalise(text);
  if (!cleaned) return null;
  const iso = DateTime.fromISO(cleaned, { setZone: true, zone: options.zone ?? 'UTC' });
  if (iso.isValid && /\d{4}-\d{2}-\d{2}T/.test(cleaned)) return Math.floor(iso.toSeconds());
  const { rest, zone } = splitZone(cleaned);
  const fallback = options.zone ? zoneFrom(options.zone) : FixedOffsetZone.utcInstance;
  const inZone = zone ?? fallback ?? FixedOffsetZone.utcInstance;
  const formats = [...(options.formats ?? []), ...FORMATS].map((format) =>
    options.dayFirst ? format.replace('MM/dd/yyyy', 'dd/MM/yyyy').replace('M/d/yyyy', 'd/M/yyyy') : format,
  );
  for (const format of formats) {
    const parsed = DateTime.fromFormat(rest, format, { zone: inZone, locale: 'en-US' });
    if (parsed.isValid) return Math.floor(parsed.toSeconds());
  }
  const rfc = DateTime.fromRFC2822(cleaned, { zone: inZone });
  if (rfc.isValid) return Math.floor(rfc.toSeconds());
  return null;
}

/** readDateTime, or a MailParseError naming the parser and the text it could not read. */
export function dateTime(text: string, parser: string, options: DateOptions = {}): number {
  const seconds = readDateTime(text, options);
  if (seconds === null) throw new MailParseError('unsupported_format', `${parser}: unreadable date-time "${text.trim()}"`);
  return seconds;
}

/** The email's Date header as epoch seconds: the stamp of formats that carry none of their own. */
export function stampOf(date: Date | null, parser: string): number {
  if (!date) throw new MailParseError('unsupported_format', `${parser}: the email has no Date header to order it by`);
  return Math.floor(date.getTime() / 1000);
}

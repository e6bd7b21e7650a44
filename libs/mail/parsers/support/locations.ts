/**
 * The time zone of a place a notice names in "City, ST" form (a US state or Canadian province code, or
 * an ISO country code), for carriers that write windows in "local time". States and countries that
 * span several zones take the zone most of their population lives in; the parser marks such a reading
 * uncertain (see zoneOfPlace's `exact`).
 */

const US_STATES: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
  PR: 'America/Puerto_Rico',
};
/** US states split between two zones (the map holds the larger part). */
const SPLIT_STATES = new Set(['FL', 'ID', 'IN', 'KS', 'KY', 'MI', 'NE', 'ND', 'OR', 'SD', 'TN', 'TX']);

const CANADIAN_PROVINCES: Record<string, string> = {
  ON: 'America/Toronto',
  QC: 'America/Toronto',
  BC: 'America/Vancouver',
  AB: 'America/Edmonton',
  MB: 'America/Winnipeg',
  SK: 'America/Regina',
  NS: 'America/Halifax',
  NB: 'America/Moncton',
  NL: 'America/St_Johns',
  PE: 'America/Halifax',
};

const COUNTRIES: Record<string, string> = {
  GB: 'Europe/London',
  UK: 'Europe/London',
  IE: 'Europe/Dublin',
  FR: 'Europe/Paris',
  DE: 'Europe/Berlin',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  LU: 'Europe/Luxembourg',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  IT: 'Europe/Rome',
  CH: 'Europe/Zurich',
  AT: 'Europe/Vienna',
  DK: 'Europe/Copenhagen',
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  FI: 'Europe/Helsinki',
  PL: 'Europe/Warsaw',
  CZ: 'Europe/Prague',
  HU: 'Europe/Budapest',
  RO: 'Europe/Bucharest',
  BG: 'Europe/Sofia',
  GR: 'Europe/Athens',
  TR: 'Europe/Istanbul',
  SG: 'Asia/Singapore',
  HK: 'Asia/Hong_Kong',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  IN: 'Asia/Kolkata',
  AE: 'Asia/Dubai',
  ZA: 'Africa/Johannesburg',
  MX: 'America/Mexico_City',
};

export interface PlaceZone {
  zone: string;
  /** False when the region spans several zones and the larger one was taken. */
  exact: boolean;
}

/**
 * The zone of "City, ST" (the code after the last comma): a US state first (Cogent and Lumen write
 * US places so), then a Canadian province, then a country code; null for an unknown code.
 */
export function zoneOfPlace(place: string): PlaceZone | null {
  const code = /,\s*([A-Za-z]{2})\b[^,]*$/.exec(place)?.[1]?.toUpperCase();
  if (!code) return null;
  if (US_STATES[code]) return { zone: US_STATES[code], exact: !SPLIT_STATES.has(code) };
  if (CANADIAN_PROVINCES[code]) return { zone: CANADIAN_PROVINCES[code], exact: true };
  if (COUNTRIES[code]) return { zone: COUNTRIES[code], exact: true };
  return null;
}

import { MailParseError } from '../../parsed-maintenance';
import { dateTime, readDateTime } from './dates';

const epoch = (iso: string) => Date.parse(iso) / 1000;

describe('readDateTime: carriers’ date-time shapes with their zones', () => {
  it.each([
    ['2026-12-03T02:00:00+01:00', {}, '2026-12-03T01:00:00Z'],
    ['2026-12-03 01:00 UTC', {}, '2026-12-03T01:00:00Z'],
    ['03-Dec-2026 01:00 GMT', {}, '2026-12-03T01:00:00Z'],
    ['Aug 16 2021 23:01 GMT', {}, '2021-08-16T23:01:00Z'],
    ['16-Aug-2021 23:00 CEST', {}, '2021-08-16T21:00:00Z'],
    ['Monday, August 16, 2021 11:00 PM EDT', {}, '2021-08-17T03:00:00Z'],
    ['20 Aug 2021 04:00 (GMT+8)', {}, '2021-08-19T20:00:00Z'],
    // A zone word without a season follows the zone's rule: CT is CST in March before the change, CDT in July.
    ['3/9/2027 10:00pm CT', {}, '2027-03-10T04:00:00Z'],
    ['7/9/2027 10:00pm CT', {}, '2027-07-10T03:00:00Z'],
    ['12/03/2026 01:00', {}, '2026-12-03T01:00:00Z'],
    ['12/03/2026 01:00', { dayFirst: true }, '2026-03-12T01:00:00Z'],
    ['07/17/2027 12:00 AM', { zone: 'America/Denver' }, '2027-07-17T06:00:00Z'],
    ['07-Sep-2020', {}, '2020-09-07T00:00:00Z'],
  ])('%s %j', (text, options, iso) => expect(readDateTime(text, options)).toBe(epoch(iso)));

  it('an unreadable date-time is an unsupported format naming the parser', () => {
    expect(readDateTime('next Tuesday')).toBeNull();
    expect(() => dateTime('next Tuesday', 'zayo')).toThrow(MailParseError);
    expect(() => dateTime('next Tuesday', 'zayo')).toThrow(/zayo: unreadable date-time "next Tuesday"/);
  });
});

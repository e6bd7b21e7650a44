import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail } from '..';

const scheduled = readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail', 'tata', 'scheduled.eml'), 'utf8');

describe('tata', () => {
  it('reads only "Planned Work Notification" subjects', async () => {
    const other = scheduled.replace(/^Subject: .*\n .*$/m, 'Subject: TCL TT: "CHGP0418822" / Customer satisfaction survey');
    await expect(parseMaintenanceEmail(other)).rejects.toMatchObject({
      reason: 'unsupported_format',
      message: expect.stringContaining('Planned Work Notification'),
    });
  });

  it('takes the revised window of a reschedule', async () => {
    const rescheduled = scheduled
      .replace(
        /^Subject: .*\n .*$/m,
        'Subject: Reschedule Notification  /TCL TT: "CHGP0418822" / "Normal" / "Scheduled" / Planned Work Notification',
      )
      .replace('Activity Window (GMT)', 'Revised Activity Window (GMT)')
      .replace('2027-02-10 00:00:00 GMT to 2027-02-10 04:00:00 GMT', '2027-02-17 00:00:00 GMT to 2027-02-17 04:00:00 GMT');
    const { maintenances } = await parseMaintenanceEmail(rescheduled);
    expect(maintenances.map(({ status, start, end }) => ({ status, start, end }))).toEqual([
      { status: 'RE-SCHEDULED', start: Date.UTC(2027, 1, 17, 0) / 1000, end: Date.UTC(2027, 1, 17, 4) / 1000 },
    ]);
  });
});

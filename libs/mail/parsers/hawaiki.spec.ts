import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MailParseError, parseMaintenanceEmail } from '..';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail', 'hawaiki');

describe('hawaiki', () => {
  it('reads a ticket follow-up without a maintenance window (completion) as no maintenance data', async () => {
    const reading = parseMaintenanceEmail(readFileSync(join(FIXTURES, 'completion.eml')));
    await expect(reading).rejects.toBeInstanceOf(MailParseError);
    await expect(reading).rejects.toMatchObject({ reason: 'no_maintenance_data', message: expect.stringContaining('2027020890000417') });
  });
});

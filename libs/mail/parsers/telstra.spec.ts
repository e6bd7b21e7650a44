import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail, parseRawEmail, readMaintenanceEmail } from '..';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail', 'telstra');

describe('telstra', () => {
  it('reads a notice whose HTML arrives still quoted-printable encoded (declared 8bit)', async () => {
    const relabelled = readFileSync(join(FIXTURES, 'scheduled.eml'), 'utf8').replace(
      'Content-Transfer-Encoding: quoted-printable',
      'Content-Transfer-Encoding: 8bit',
    );
    const expected: unknown = JSON.parse(readFileSync(join(FIXTURES, 'scheduled.json'), 'utf8'));
    expect((await parseMaintenanceEmail(relabelled)).maintenances).toEqual(expected);
  });

  it.each([
    ['Planned Maintenance has been withdrawn - .', 'CANCELLED'],
    ['Planned Maintenance has been completed - Successful', 'COMPLETED'],
    ['This is a reminder notification to notify that a planned maintenance has been scheduled that will impact your service.', 'CONFIRMED'],
  ])('reads the lead sentence "%s" as %s', async (lead, status) => {
    const email = await parseRawEmail(readFileSync(join(FIXTURES, 'scheduled.eml')));
    email.html = email.html.replace('Planned Maintenance has been scheduled that will impact your service.', lead);
    const { maintenances } = await readMaintenanceEmail(email);
    expect(maintenances[0].status).toBe(status);
  });
});

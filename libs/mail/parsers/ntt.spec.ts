import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail } from '..';

const scheduled = readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail', 'ntt', 'scheduled.eml'), 'utf8');

describe('ntt', () => {
  it('refuses a calendar from NTT that names another provider', async () => {
    const foreign = scheduled.replace('X-MAINTNOTE-PROVIDER:NTT Communications (AS2914)', 'X-MAINTNOTE-PROVIDER:zayo');
    await expect(parseMaintenanceEmail(foreign)).rejects.toMatchObject({
      reason: 'provider_mismatch',
      message: expect.stringContaining('"zayo"'),
    });
  });

  it('keeps each object impact and the calendar sequence', async () => {
    const { maintenances, parser } = await parseMaintenanceEmail(scheduled.replace('SEQUENCE:1', 'SEQUENCE:4'));
    expect(parser).toBe('ntt');
    expect(maintenances.map(({ provider, sequence, circuits }) => ({ provider, sequence, circuits }))).toEqual([
      {
        provider: 'ntt',
        sequence: 4,
        circuits: [
          { circuitId: '702118', impact: 'NO-IMPACT' },
          { circuitId: '702119', impact: 'OUTAGE' },
        ],
      },
    ]);
  });
});

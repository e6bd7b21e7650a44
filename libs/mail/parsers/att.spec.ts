import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail } from '..';

const fixture = (name: string) =>
  readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail', 'att', `${name}.eml`), 'latin1');

describe('att: the circuit sheet is an attachment', () => {
  it('without the XLSX the event still reads, with no account or circuits and a lowered confidence', async () => {
    const raw = fixture('planned-named-sheet');
    const withoutSheet = raw.replace(/--att-mixed-7719388\r\nContent-Type: application\/vnd[\s\S]*?(?=--att-mixed-7719388--)/, '');
    expect(withoutSheet).not.toBe(raw);
    const complete = await parseMaintenanceEmail(raw);
    const result = await parseMaintenanceEmail(withoutSheet);
    expect(result.maintenances).toEqual([{ ...complete.maintenances[0], account: '', circuits: [] }]);
    expect(complete.confidence).toBe(1);
    expect(result.confidence).toBeLessThan(1);
    expect(result.uncertainties).toEqual([expect.stringContaining('no XLSX attachment')]);
  });
});

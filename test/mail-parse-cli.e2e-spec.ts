import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** `npm run mail:parse`: the built CLI (dist/src/bin/mail-parse.js) over fixture emails, as an operator runs it. */
const CLI = join(__dirname, '..', 'dist', 'src', 'bin', 'mail-parse.js');
const FIXTURES = join(__dirname, 'fixtures', 'mail');

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run mail:parse', () => {
  it('prints the records of a carrier email, its parser, confidence and reasons', async () => {
    const { code, stdout } = await run(join(FIXTURES, 'zayo', 'scheduled.eml'));
    expect(code).toBe(0);
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ parser: 'zayo', confidence: 1, uncertainties: [] });
    expect(printed.reasons).toEqual(expect.arrayContaining([expect.stringContaining('zayo.com → zayo')]));
    expect(printed.maintenances).toEqual(JSON.parse(readFileSync(join(FIXTURES, 'zayo', 'scheduled.json'), 'utf8')));
  });

  it("--shape cmp prints the records in circuit-maintenance-parser's snake_case; a lenient calendar's dropped line is an uncertainty", async () => {
    const { code, stdout } = await run(join(FIXTURES, 'pccw', 'planned.eml'), '--shape', 'cmp');
    expect(code).toBe(0);
    const printed = JSON.parse(stdout);
    expect(printed.confidence).toBeLessThan(1);
    expect(printed.uncertainties).toEqual([expect.stringContaining('"ELE"'), expect.stringContaining('"ELE"')]);
    expect(printed.maintenances[0]).toMatchObject({
      provider: 'pccw',
      maintenance_id: 'INC0009173344CD',
      status: 'CONFIRMED',
      circuits: [
        { circuit_id: 'HKG(TKO)-SIN(TUA) EP0917:BBBBBB-770012-', impact: 'OUTAGE' },
        { circuit_id: 'HKG(TKO)-TYO(OTE) EP0918:BBBBBB-770013-', impact: 'OUTAGE' },
      ],
    });
  });

  it('--provider names the parser; when it does not read the email, exit 1 with the reason and the closest parser', async () => {
    const { code, stdout } = await run(join(FIXTURES, 'verizon', 'scheduled.eml'), '--provider', 'zayo');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ reason: 'unsupported_format', closest_parser: 'verizon' });
    const unknown = await run(join(FIXTURES, 'unknown-sender.eml'));
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({
      reason: 'unknown_provider',
      detail: expect.stringContaining('news@unknown-carrier.example'),
    });
  });

  it('a missing file or a bad option is a usage error (exit 64)', async () => {
    expect((await run()).code).toBe(64);
    expect((await run(join(FIXTURES, 'nothing-here.eml'))).code).toBe(64);
    const bad = await run(join(FIXTURES, 'zayo', 'scheduled.eml'), '--shape', 'xml');
    expect(bad).toMatchObject({ code: 64, stderr: expect.stringContaining('--shape takes cmp or records') });
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail } from '..';

/**
 * Every case of test/fixtures/mail/<parser>/: <case>.eml read through the registry (the default
 * provider map picks the parser from the sender) gives exactly the records of <case>.json.
 */
const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mail');

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'reports')
  .flatMap((directory) =>
    readdirSync(join(FIXTURES, directory.name))
      .filter((file) => file.endsWith('.eml') && existsSync(join(FIXTURES, directory.name, file.replace(/\.eml$/, '.json'))))
      .map((file) => [directory.name, file.replace(/\.eml$/, '')] as const),
  );

describe('carrier fixtures: each email gives exactly its expected records', () => {
  it('finds fixture cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s/%s', async (parser, name) => {
    const raw = readFileSync(join(FIXTURES, parser, `${name}.eml`));
    const expected: unknown = JSON.parse(readFileSync(join(FIXTURES, parser, `${name}.json`), 'utf8'));
    const result = await parseMaintenanceEmail(raw);
    expect(result.parser).toBe(parser);
    expect(result.maintenances).toEqual(expected);
  });
});

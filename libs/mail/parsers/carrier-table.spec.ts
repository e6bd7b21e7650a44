import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROVIDER_MAP } from '../provider-map';
import { bcopParser } from './bcop-ical';
import { CARRIER_PARSERS } from '.';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'mail');
const DOC = join(ROOT, 'docs', 'mail-integration.md');

const cases = (name: string) =>
  existsSync(join(FIXTURES, name)) ? readdirSync(join(FIXTURES, name)).filter((file) => file.endsWith('.json')).length : 0;

/** The carrier table of docs/mail-integration.md as the registry and the fixtures say it. */
function carrierTable(): string {
  const rows = [...CARRIER_PARSERS]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (parser) =>
        `| \`${parser.name}\` | ${parser.label} | ${parser.senderDomains.join(', ')} | ${parser.reads.join(', ')} | ${cases(parser.name)} |`,
    );
  const bcop = `| \`${bcopParser.name}\` | ${bcopParser.label} | any sender in no map entry (own domain only) | ${bcopParser.reads.join(', ')} | ${cases(bcopParser.name)} |`;
  return ['| Parser | Carrier | Sender domains (default map) | Reads | Fixture cases |', '|---|---|---|---|---|', ...rows, bcop].join('\n');
}

describe('the carrier table of docs/mail-integration.md', () => {
  it('lists every registered parser with its sender domains, the parts it reads and its fixture count', () => {
    const doc = readFileSync(DOC, 'utf8');
    const table = /<!-- carrier-table:start -->\n([\s\S]*?)\n?<!-- carrier-table:end -->/.exec(doc)?.[1]?.trim();
    const expected = carrierTable();
    if (table !== expected) process.stdout.write(`docs/mail-integration.md carrier table:\n${expected}\n`);
    expect(table).toBe(expected);
  });

  it('every registered carrier has fixture cases, and its sender domains are in the default provider map', () => {
    for (const parser of CARRIER_PARSERS) {
      expect({ parser: parser.name, cases: cases(parser.name) > 0 }).toEqual({ parser: parser.name, cases: true });
      for (const domain of parser.senderDomains) expect(DEFAULT_PROVIDER_MAP).toContainEqual([domain, parser.name]);
    }
  });
});

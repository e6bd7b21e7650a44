import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROVIDER_MAP, MailParseError, parseMaintenanceEmail, parseProviderMap, parserNameFor, ProviderMapError } from './index';

const fixture = (name: string) => readFileSync(join(__dirname, '../../test/fixtures/mail', name));
const epoch = (iso: string) => Date.parse(iso) / 1000;

describe('parseMaintenanceEmail: each provider fixture', () => {
  it('BCOP iCalendar: X-MAINTNOTE fields, per-object impact with the event impact as fallback, stamp and sequence', async () => {
    const { parser, maintenances } = await parseMaintenanceEmail(fixture('arelion-bcop-confirmed.eml'));
    expect(parser).toBe('arelion');
    expect(maintenances).toEqual([
      {
        provider: 'arelion',
        account: 'EXAMPLE-NET',
        maintenanceId: 'PWIC-2026-001122',
        status: 'CONFIRMED',
        circuits: [
          { circuitId: 'IC-300123', impact: 'OUTAGE' },
          { circuitId: 'IC-300124', impact: 'DEGRADED' },
          { circuitId: 'IC-999999', impact: 'OUTAGE' },
        ],
        start: epoch('2026-12-14T23:00:00Z'),
        end: epoch('2026-12-15T03:00:00Z'),
        stamp: epoch('2026-11-29T10:00:00Z'),
        sequence: 1,
        summary: 'Fibre maintenance between Stockholm and Copenhagen',
      },
    ]);
  });

  it('BCOP iCalendar without X-MAINTNOTE-STATUS reads NO-CHANGE', async () => {
    const { maintenances } = await parseMaintenanceEmail(fixture('arelion-bcop-nochange.eml'));
    expect(maintenances[0]).toMatchObject({ status: 'NO-CHANGE', sequence: 2, start: epoch('2026-12-15T00:00:00Z') });
  });
});

const reasonOf = async (raw: Buffer | string, map = DEFAULT_PROVIDER_MAP) => {
  try {
    await parseMaintenanceEmail(raw, map);
  } catch (error) {
    if (error instanceof MailParseError) return error.reason;
    throw error;
  }
  return 'parsed';
};

describe('parseMaintenanceEmail: emails that give no records', () => {
  it('an unknown sender domain → unknown_provider', async () => {
    expect(await reasonOf(fixture('unknown-sender.eml'))).toBe('unknown_provider');
  });

  it('a known sender in a format the parser does not read → unsupported_format', async () => {
    const raw = fixture('zayo/scheduled.eml')
      .toString()
      .replace(/Activity Date/g, 'Date');
    expect(await reasonOf(raw)).toBe('unsupported_format');
    const noParser = fixture('unknown-sender.eml').toString().replace('news@unknown-carrier.example', 'noc@amazon.com');
    expect(await reasonOf(noParser)).toBe('unsupported_format');
  });

  it('a parser name that is a property of every object (__proto__, constructor) names no parser → unsupported_format', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect({ name, reason: await reasonOf(fixture('unknown-sender.eml'), [['', name]]) }).toEqual({ name, reason: 'unsupported_format' });
    }
  });

  it('a map entry routes a sender to a parser; PROVIDER_MAP replaces the default', async () => {
    const map = parseProviderMap('{"unknown-carrier.example":"zayo"}');
    expect(parserNameFor('news@unknown-carrier.example', map)).toBe('zayo');
    expect(parserNameFor('mr@zayo.com', map)).toBeNull();
    expect(await reasonOf(fixture('zayo/scheduled.eml'), map)).toBe('unknown_provider');
  });
});

describe('provider matching on the sender domain', () => {
  it('a sender whose address only contains a mapped domain is not that provider', async () => {
    for (const sender of ['x@zayo.com.attacker.example', 'mr@notzayo.com', 'zayo.com@attacker.example', 'mr@attacker.example']) {
      expect(parserNameFor(sender, DEFAULT_PROVIDER_MAP)).toBeNull();
    }
    expect(parserNameFor('noc@maint.zayo.com', DEFAULT_PROVIDER_MAP)).toBe('zayo');
    expect(parserNameFor('MR@ZAYO.COM', DEFAULT_PROVIDER_MAP)).toBe('zayo');
    const forged = fixture('zayo/scheduled.eml')
      .toString()
      .replace(/mr@zayo\.com/g, 'x@zayo.com.attacker.example');
    expect(await reasonOf(forged)).toBe('unknown_provider');
  });

  it("a BCOP calendar naming another provider than the sender's → provider_mismatch", async () => {
    const raw = fixture('arelion-bcop-confirmed.eml').toString().replace('X-MAINTNOTE-PROVIDER:arelion', 'X-MAINTNOTE-PROVIDER:zayo');
    expect(await reasonOf(raw)).toBe('provider_mismatch');
    const domainForm = fixture('arelion-bcop-confirmed.eml')
      .toString()
      .replace('X-MAINTNOTE-PROVIDER:arelion', 'X-MAINTNOTE-PROVIDER:arelion.com');
    // The arelion parser names its records by the carrier, whichever of its names the calendar uses.
    expect((await parseMaintenanceEmail(domainForm)).maintenances[0].provider).toBe('arelion');
  });

  describe('a BCOP email from a sender in no map entry', () => {
    const unmapped = (sender: string, provider: string) =>
      fixture('arelion-bcop-confirmed.eml')
        .toString()
        .replace(/ncm@arelion\.com/g, sender)
        .replace('X-MAINTNOTE-PROVIDER:arelion', `X-MAINTNOTE-PROVIDER:${provider}`);

    it('is read as BCOP when its calendar names the sender domain or its registrable parent', async () => {
      const own = await parseMaintenanceEmail(unmapped('noc@newcarrier.example', 'newcarrier.example'));
      expect(own.parser).toBe('bcop');
      expect(own.maintenances).toEqual([
        expect.objectContaining({ provider: 'newcarrier.example', maintenanceId: 'PWIC-2026-001122', status: 'CONFIRMED' }),
      ]);
      const parent = await parseMaintenanceEmail(unmapped('noc@maint.newcarrier.co.uk', 'NewCarrier.co.uk'));
      expect(parent.maintenances[0].provider).toBe('NewCarrier.co.uk');
      // The worker posts `?parser=` empty (an empty map) when no entry matched: the same rule applies.
      expect((await parseMaintenanceEmail(unmapped('noc@newcarrier.example', 'newcarrier.example'), [])).parser).toBe('bcop');
    });

    it('naming a mapped provider, another domain or a public suffix → provider_mismatch', async () => {
      for (const provider of ['zayo', 'zayo.com', 'arelion', 'othercarrier.example', 'co.uk', 'uk', 'example', 'Newcarrier']) {
        expect(await reasonOf(unmapped('noc@maint.newcarrier.co.uk', provider))).toBe('provider_mismatch');
      }
      expect(await reasonOf(unmapped('noc@newcarrier.example', 'noc.newcarrier.example'))).toBe('provider_mismatch');
      // A PROVIDER_MAP parser name is the map's, even when it looks like the sender's domain.
      const map = parseProviderMap('{"zayo.com":"newcarrier.example"}');
      expect(await reasonOf(unmapped('noc@newcarrier.example', 'newcarrier.example'), map)).toBe('provider_mismatch');
    });
  });

  it('PROVIDER_MAP keys must be domain names', () => {
    expect(() => parseProviderMap('{"zayo":"zayo"}')).toThrow(/key "zayo" must be a domain name/);
    expect(() => parseProviderMap('{"@zayo.com":"zayo"}')).toThrow(/must be a domain name/);
    expect(parseProviderMap('{"Zayo.COM":"zayo"}')).toEqual([['zayo.com', 'zayo']]);
  });
});

describe('parseProviderMap', () => {
  it('refuses invalid JSON and non-object values with a message naming PROVIDER_MAP', () => {
    expect(() => parseProviderMap('{zayo.com: zayo}')).toThrow(/PROVIDER_MAP is not valid JSON/);
    expect(() => parseProviderMap('["zayo"]')).toThrow(ProviderMapError);
    expect(() => parseProviderMap('{"zayo.com": 3}')).toThrow(/"zayo.com" must map/);
  });
});

import { readFileSync } from 'node:fs';
import {
  closestParser,
  DEFAULT_PROVIDER_MAP,
  MailParseError,
  parseRawEmail,
  readMaintenanceEmail,
  type MaintenanceEmail,
  type ParsedMaintenance,
  type ProviderMap,
} from '../../libs/mail';

/**
 * `npm run mail:parse -- <file.eml> [--provider <name>] [--shape cmp]`: reads one raw email with the
 * parsers of this build (no platform, no database) and prints what they read as JSON — the parser,
 * its confidence, reasons and uncertainties, and the records. `--provider` names the parser (else the
 * default provider map picks it from the sender); `--shape cmp` prints the records as
 * circuit-maintenance-parser does (snake_case, `circuit_id`), to compare with its output.
 * Exit status: 0 records, 1 no records (the reason and the closest parser printed), 64 usage.
 */
const USAGE = 'usage: npm run mail:parse -- <file.eml> [--provider <name>] [--shape cmp]';

interface Options {
  file: string;
  provider?: string;
  shape: 'records' | 'cmp';
}

function options(argv: readonly string[]): Options | string {
  const rest = [...argv];
  const found: Partial<Options> = { shape: 'records' };
  while (rest.length) {
    const argument = rest.shift()!;
    if (argument === '--provider') found.provider = rest.shift();
    else if (argument === '--shape') {
      const shape = rest.shift();
      if (shape !== 'cmp' && shape !== 'records') return `--shape takes cmp or records\n${USAGE}`;
      found.shape = shape;
    } else if (argument.startsWith('--')) return `unknown option ${argument}\n${USAGE}`;
    else if (found.file === undefined) found.file = argument;
    else return USAGE;
  }
  if (!found.file || (argv.includes('--provider') && !found.provider)) return USAGE;
  return found as Options;
}

/** A record as circuit-maintenance-parser's Maintenance JSON names its fields. */
const cmpShape = (record: ParsedMaintenance) => ({
  provider: record.provider,
  account: record.account,
  maintenance_id: record.maintenanceId,
  status: record.status,
  start: record.start,
  end: record.end,
  stamp: record.stamp,
  sequence: record.sequence,
  summary: record.summary,
  circuits: record.circuits.map((circuit) => ({ circuit_id: circuit.circuitId, impact: circuit.impact })),
});

function describe(result: MaintenanceEmail, shape: Options['shape']) {
  return {
    parser: result.parser,
    confidence: result.confidence,
    reasons: result.reasons,
    uncertainties: result.uncertainties,
    maintenances: shape === 'cmp' ? result.maintenances.map(cmpShape) : result.maintenances,
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const chosen = options(argv);
  if (typeof chosen === 'string') {
    process.stderr.write(`${chosen}\n`);
    return 64;
  }
  let raw: Buffer;
  try {
    raw = readFileSync(chosen.file);
  } catch (error) {
    process.stderr.write(`cannot read ${chosen.file}: ${(error as Error).message}\n`);
    return 64;
  }
  const map: ProviderMap = chosen.provider ? [['', chosen.provider.trim().toLowerCase()]] : DEFAULT_PROVIDER_MAP;
  try {
    const email = await parseRawEmail(raw);
    try {
      process.stdout.write(`${JSON.stringify(describe(await readMaintenanceEmail(email, map), chosen.shape), null, 2)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof MailParseError)) throw error;
      const closest = await closestParser(email, chosen.provider);
      const answer = {
        reason: error.reason,
        detail: error.message,
        ...(closest ? { closest_parser: closest.parser, closest: closest.detail } : {}),
      };
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return 1;
    }
  } catch (error) {
    if (!(error instanceof MailParseError)) throw error;
    process.stdout.write(`${JSON.stringify({ reason: error.reason, detail: error.message }, null, 2)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(70);
  },
);

import { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { CliContext } from '../cli-context';
import {
  addPaginationOptions,
  collectString,
  definedFields,
  ForceOptions,
  forceOption,
  idArgument,
  keySizeOption,
  keySizeWithDefault,
  keyTypeOption,
  OutputOptions,
  outputOption,
  PaginationOptions,
  parseNonNegativeInteger,
  parsePositiveInteger,
  PrivateKeyOptions,
  showPrivateKeyOption,
} from '../command-options';
import { columns } from '../table-format';
import { confirmDestructive } from '../terminal-prompt';
import { CA_SELECTOR_HELP, caIdFor, isId } from '../ca-selector';
import { UsageError } from '../cli-errors';

const CERTIFICATE_COLUMNS = columns('id', 'common_name', 'certificate_type', 'status', 'issuer_id', 'serial_number', 'not_after');

interface SubjectOptions {
  cn?: string;
  subjectDn?: string;
  type: string;
  sanDns?: string[];
  sanIp?: string[];
  sanEmail?: string[];
  validDays?: number;
}

interface IssueOptions extends SubjectOptions, OutputOptions, PrivateKeyOptions {
  ca: string;
  cn: string;
  keyType?: string;
  keySize?: number;
  storePrivateKey: boolean;
  pathLength?: number;
}

interface SignCsrOptions extends SubjectOptions, OutputOptions {
  ca: string;
}

const SIGNED_CSR_TYPES = ['server', 'client', 'dual_purpose'];

/** --type, --san-dns/--san-ip/--san-email (repeatable), --valid-days: shared by create and sign-csr. */
function addSubjectOptions(command: Command, certificateTypes: string[]): Command {
  return command
    .addOption(new Option('--type <type>', 'certificate type').choices(certificateTypes).makeOptionMandatory())
    .option('--san-dns <name>', 'DNS subject alternative name (repeatable)', collectString)
    .option('--san-ip <address>', 'IP subject alternative name (repeatable)', collectString)
    .option('--san-email <address>', 'e-mail subject alternative name (repeatable)', collectString)
    .option('--valid-days <days>', 'validity in days (default: defaults.cert_valid_days, else the server setting)', parsePositiveInteger);
}

function sanFields(options: SubjectOptions): Record<string, unknown> {
  return { san_dns_names: options.sanDns, san_ip_addresses: options.sanIp, san_email_addresses: options.sanEmail };
}

/** The RFC 5280 reason names the server puts in the CRL entry (snake_case works too). */
const REVOCATION_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'privilegeWithdrawn',
  'aACompromise',
];

const ISSUING_CA_HELP = `issuing CA: ${CA_SELECTOR_HELP}`;

function readInputFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

export function registerCertificateCommands(program: Command, context: CliContext): void {
  const cert = program.command('cert').description('certificates (/certificates)');

  addPaginationOptions(cert.command('list').description('list certificates (GET /certificates)'))
    .option('--ca <ca_id>', 'only certificates issued by this CA', parsePositiveInteger)
    .addOption(outputOption())
    .action(async (options: PaginationOptions & OutputOptions & { ca?: number }) => {
      const body = await context
        .apiClient()
        .call('listCertificates', { query: { ca_id: options.ca, skip: options.skip, limit: options.limit } });
      context.printList(body, CERTIFICATE_COLUMNS, options.output);
    });

  cert
    .command('show')
    .description('show a certificate (GET /certificates/{id})')
    .addArgument(idArgument('id', 'certificate ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getCertificate', { params: { cert_id: id } }), options.output),
    );

  addSubjectOptions(
    cert
      .command('create')
      .description('issue a certificate with a server-generated key (POST /certificates?ca_id=…)')
      .requiredOption('--ca <ca>', ISSUING_CA_HELP)
      .requiredOption('--cn <common_name>', 'common name')
      .option('--subject-dn <dn>', 'distinguished name; its CN is replaced by --cn (default: CN=<common name>)'),
    [...SIGNED_CSR_TYPES, 'ca'],
  )
    .option('--path-length <n>', "with --type ca: the sub-CA's path length (default: one less than the issuer's)", parseNonNegativeInteger)
    .addOption(keyTypeOption())
    .addOption(keySizeOption('defaults.cert_key_size'))
    .option('--no-store-private-key', 'do not keep the private key on the server (it is shown only in this answer)')
    .addOption(showPrivateKeyOption())
    .addOption(outputOption())
    .action(async (options: IssueOptions) => {
      // Hiding a key the server does not keep would lose it.
      if (!options.storePrivateKey && !options.showPrivateKey && context.outputFormat(options.output) === 'table') {
        throw new UsageError('--no-store-private-key returns the key only once: add --show-private-key, or use -o json');
      }
      const caId = await caIdFor(context, options.ca);
      const body = definedFields({
        common_name: options.cn,
        subject_dn: options.subjectDn ?? `CN=${options.cn}`,
        certificate_type: options.type,
        path_length: options.pathLength,
        ...sanFields(options),
        valid_days: options.validDays ?? context.config.getNumber('defaults.cert_valid_days'),
        key_type: options.keyType,
        key_size: keySizeWithDefault(context, options.keyType, options.keySize, 'defaults.cert_key_size'),
        include_private_key: options.storePrivateKey ? undefined : false,
      });
      context.printObject(
        await context.apiClient().call('issueCertificate', { query: { ca_id: caId }, json: body }),
        options.output,
        options,
      );
    });

  addSubjectOptions(
    cert
      .command('sign-csr')
      .description('sign a PEM certificate signing request (POST /certificates/sign-csr; audit-logged)')
      .argument('<csr-file>', 'PEM file holding the CSR')
      .requiredOption('--ca <ca>', ISSUING_CA_HELP)
      .option('--cn <common_name>', 'override the CSR common name')
      .option('--subject-dn <dn>', "override the CSR's distinguished name"),
    SIGNED_CSR_TYPES,
  )
    .addOption(outputOption())
    .action(async (csrFile: string, options: SignCsrOptions) => {
      const caSelector = isId(options.ca) ? { ca_id: Number(options.ca) } : { ca_name: options.ca };
      const body = definedFields({
        csr: readInputFile(csrFile, 'CSR file'),
        ...caSelector,
        certificate_type: options.type,
        common_name: options.cn,
        subject_dn: options.subjectDn,
        ...sanFields(options),
        valid_days: options.validDays ?? context.config.getNumber('defaults.cert_valid_days'),
      });
      context.printObject(await context.apiClient().call('signCsr', { json: body }), options.output);
    });

  cert
    .command('revoke')
    .description('revoke a certificate (POST /certificates/{id}/revoke; audit-logged)')
    .addArgument(idArgument('id', 'certificate ID'))
    .option(
      '-r, --reason <reason>',
      "revocation reason to record, free text; one of those below also sets the CRL entry's reason code (default: none)",
    )
    .addHelpText('after', `\nReasons that set the CRL entry's reason code:\n  ${REVOCATION_REASONS.join('\n  ')}`)
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (id: number, options: ForceOptions & OutputOptions & { reason?: string }) => {
      await confirmDestructive(`revoke certificate ${id}`, options.force);
      const body = await context
        .apiClient()
        .call('revokeCertificate', { params: { cert_id: id }, json: definedFields({ reason: options.reason }) });
      context.printObject(body, options.output);
    });

  cert
    .command('private-key')
    .description('show a certificate with its private key (GET /certificates/{id}/private-key; audit-logged)')
    .addArgument(idArgument('id', 'certificate ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getCertificatePrivateKey', { params: { cert_id: id } }), options.output, {
        showPrivateKey: true,
      }),
    );

  cert
    .command('renew')
    .description('issue a successor certificate (POST /certificates/{id}/renew; audit-logged)')
    .addArgument(idArgument('id', 'certificate ID'))
    .option('--csr <file>', 'new CSR (required for certificates that were signed from a CSR)')
    .addOption(showPrivateKeyOption())
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions & PrivateKeyOptions & { csr?: string }) => {
      const body = definedFields({ csr: options.csr === undefined ? undefined : readInputFile(options.csr, 'CSR file') });
      context.printObject(
        await context.apiClient().call('renewCertificate', { params: { cert_id: id }, json: body }),
        options.output,
        options,
      );
    });

  cert
    .command('by-serial')
    .description('show a certificate by serial number (GET /certificates/by-serial/{serial})')
    .argument('<serial>', 'serial number as the API shows it')
    .addOption(outputOption())
    .action(async (serial: string, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getCertificateBySerial', { params: { serial } }), options.output),
    );
}

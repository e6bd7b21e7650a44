import { Command } from 'commander';
import { CliContext } from '../cli-context';
import {
  definedFields,
  ForceOptions,
  forceOption,
  idArgument,
  keySizeOption,
  keySizeWithDefault,
  keyTypeOption,
  OutputOptions,
  outputOption,
  parseNonNegativeInteger,
  parsePositiveInteger,
  PrivateKeyOptions,
  showPrivateKeyOption,
} from '../command-options';
import { UsageError } from '../cli-errors';
import { columns } from '../table-format';
import { confirmDestructive } from '../terminal-prompt';

const CA_COLUMNS = columns('id', 'name', 'subject_dn', 'key_type', 'is_root', 'parent_ca_id', 'organization_id', 'not_after');

interface CaCreateOptions extends OutputOptions, PrivateKeyOptions {
  name: string;
  subjectDn: string;
  description?: string;
  parent?: number;
  keyType?: string;
  keySize?: number;
  validDays?: number;
  pathLength?: number;
  allowLeafCerts?: boolean;
}

interface CaUpdateOptions extends OutputOptions {
  org?: number;
  cascade?: boolean;
  allowLeafCerts?: boolean;
}

export function registerCaCommands(program: Command, context: CliContext): void {
  const ca = program.command('ca').description('certificate authorities (/cas)');

  ca.command('list')
    .description('list CAs (GET /cas)')
    .addOption(outputOption())
    .action(async (options: OutputOptions) => context.printList(await context.apiClient().call('listCas', {}), CA_COLUMNS, options.output));

  ca.command('show')
    .description('show a CA (GET /cas/{id})')
    .addArgument(idArgument('id', 'CA ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getCa', { params: { ca_id: id } }), options.output),
    );

  ca.command('create')
    .description('create a root CA, or an intermediate one with --parent (POST /cas)')
    .requiredOption('--name <name>', 'CA name')
    .requiredOption('--subject-dn <dn>', 'distinguished name, e.g. "CN=Example Root,O=Example"')
    .option('--description <text>', 'description')
    .option('--parent <ca_id>', 'parent CA: creates an intermediate CA', parsePositiveInteger)
    .addOption(keyTypeOption())
    .addOption(keySizeOption('defaults.ca_key_size'))
    .option('--valid-days <days>', 'validity in days (default: defaults.ca_valid_days, else the server setting)', parsePositiveInteger)
    .option('--path-length <n>', 'BasicConstraints path length', parseNonNegativeInteger)
    .option('--allow-leaf-certs', 'allow issuing leaf certificates')
    .option('--no-allow-leaf-certs', 'forbid issuing leaf certificates')
    .addOption(showPrivateKeyOption())
    .addOption(outputOption())
    .action(async (options: CaCreateOptions) => {
      const body = definedFields({
        name: options.name,
        subject_dn: options.subjectDn,
        description: options.description,
        parent_ca_id: options.parent,
        key_type: options.keyType,
        key_size: keySizeWithDefault(context, options.keyType, options.keySize, 'defaults.ca_key_size'),
        valid_days: options.validDays ?? context.config.getNumber('defaults.ca_valid_days'),
        path_length: options.pathLength,
        allow_leaf_certs: options.allowLeafCerts,
      });
      context.printObject(await context.apiClient().call('createCa', { json: body }), options.output, options);
    });

  ca.command('private-key')
    .description('show a CA with its private key (GET /cas/{id}/private-key; audit-logged)')
    .addArgument(idArgument('id', 'CA ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getCaPrivateKey', { params: { ca_id: id } }), options.output, {
        showPrivateKey: true,
      }),
    );

  ca.command('chain')
    .description('list the chain from a CA up to its root (GET /cas/{id}/chain)')
    .addArgument(idArgument('id', 'CA ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printList(await context.apiClient().call('getCaChain', { params: { ca_id: id } }), CA_COLUMNS, options.output),
    );

  ca.command('children')
    .description('list the direct child CAs (GET /cas/{id}/children)')
    .addArgument(idArgument('id', 'CA ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printList(await context.apiClient().call('listCaChildren', { params: { ca_id: id } }), CA_COLUMNS, options.output),
    );

  ca.command('update')
    .alias('assign-org')
    .description('change a CA (PATCH /cas/{id}; audit-logged); --org assigns it to an organization (superuser)')
    .addArgument(idArgument('id', 'CA ID'))
    .option('--org <organization_id>', 'assign the CA to this organization', parsePositiveInteger)
    .option('--cascade', 'with --org: also adopt unassigned descendant CAs and certificates')
    .option('--allow-leaf-certs', 'allow issuing leaf certificates')
    .option('--no-allow-leaf-certs', 'forbid issuing leaf certificates')
    .addOption(outputOption())
    .action(async (id: number, options: CaUpdateOptions) => {
      if (options.cascade && options.org === undefined) throw new UsageError('--cascade needs --org');
      const body = definedFields({ organization_id: options.org, cascade: options.cascade, allow_leaf_certs: options.allowLeafCerts });
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --org or --allow-leaf-certs/--no-allow-leaf-certs');
      context.printObject(await context.apiClient().call('updateCa', { params: { ca_id: id }, json: body }), options.output);
    });

  ca.command('delete')
    .description('delete a CA and its certificates (DELETE /cas/{id}; audit-logged)')
    .addArgument(idArgument('id', 'CA ID'))
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (id: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`delete CA ${id} and all its certificates`, options.force);
      await context.apiClient().call('deleteCa', { params: { ca_id: id } });
      context.printDone(`Deleted CA ${id}.`, options.output);
    });
}

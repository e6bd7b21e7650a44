import { Command, Option } from 'commander';
import { CliContext } from '../cli-context';
import {
  addCapabilityOptions,
  capabilityFields,
  collectPositiveInteger,
  collectString,
  definedFields,
  ForceOptions,
  forceOption,
  idArgument,
  OutputOptions,
  outputOption,
  parsePositiveInteger,
} from '../command-options';
import { columns } from '../table-format';
import { confirmDestructive } from '../terminal-prompt';

const SERVICE_ACCOUNT_COLUMNS = columns('id', 'name', 'organization_id', 'disabled', 'description', 'created_at');
const TOKEN_COLUMNS = columns('id', 'public_id', 'name', 'expires_at', 'last_used_at', 'revoked');

interface AccountFieldOptions extends OutputOptions {
  name?: string;
  description?: string;
  org?: number;
}

interface PolicyOptions extends OutputOptions {
  cnPattern?: string[];
  sanDnsPattern?: string[];
  sanIpCidr?: string[];
  sanEmailDomain?: string[];
  allowedCa?: number[];
  allowedType?: string[];
  maxValidityDays: number;
}

export function registerServiceAccountCommands(program: Command, context: CliContext): void {
  const account = program
    .command('service-account')
    .description('service accounts, their tokens and issuance policies (/service-accounts)');

  account
    .command('list')
    .description('list service accounts (GET /service-accounts)')
    .addOption(outputOption())
    .action(async (options: OutputOptions) =>
      context.printList(await context.apiClient().call('listServiceAccounts', {}), SERVICE_ACCOUNT_COLUMNS, options.output),
    );

  account
    .command('show')
    .description('show a service account (GET /service-accounts/{id})')
    .addArgument(idArgument('id', 'service account ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getServiceAccount', { params: { id } }), options.output),
    );

  addCapabilityOptions(
    account
      .command('create')
      .description('create a service account (POST /service-accounts)')
      .requiredOption('--name <name>', 'name, unique within the organization')
      .option('--description <text>', 'description')
      .option('--org <organization_id>', 'organization (superusers only)', parsePositiveInteger),
  )
    .addOption(outputOption())
    .action(async (options: AccountFieldOptions) => {
      const body = definedFields({
        name: options.name,
        description: options.description,
        organization_id: options.org,
        ...capabilityFields(options as unknown as Record<string, unknown>),
      });
      context.printObject(await context.apiClient().call('createServiceAccount', { json: body }), options.output);
    });

  addCapabilityOptions(
    account
      .command('update')
      .description('change a service account (PATCH /service-accounts/{id}); only the given fields change')
      .addArgument(idArgument('id', 'service account ID'))
      .option('--name <name>', 'new name')
      .option('--description <text>', 'new description')
      .addOption(new Option('--disable', 'disable the account').conflicts('enable'))
      .option('--enable', 'enable the account'),
  )
    .addOption(outputOption())
    .action(async (id: number, options: AccountFieldOptions & { disable?: boolean; enable?: boolean }) => {
      const body = definedFields({
        name: options.name,
        description: options.description,
        disabled: options.disable ? true : options.enable ? false : undefined,
        ...capabilityFields(options as unknown as Record<string, unknown>),
      });
      context.printObject(await context.apiClient().call('updateServiceAccount', { params: { id }, json: body }), options.output);
    });

  account
    .command('delete')
    .description('delete a service account and revoke its tokens (DELETE /service-accounts/{id})')
    .addArgument(idArgument('id', 'service account ID'))
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (id: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`delete service account ${id}`, options.force);
      await context.apiClient().call('deleteServiceAccount', { params: { id } });
      context.printDone(`Deleted service account ${id}.`, options.output);
    });

  const token = account.command('token').description('API tokens of a service account');

  token
    .command('create')
    .description('create a token (POST /service-accounts/{id}/tokens); the secret is shown only once')
    .addArgument(idArgument('account_id', 'service account ID'))
    .requiredOption('--name <name>', 'token name')
    .option('--expires-at <datetime>', 'expiry (ISO 8601)')
    .addOption(outputOption())
    .action(async (accountId: number, options: OutputOptions & { name: string; expiresAt?: string }) => {
      const body = definedFields({ name: options.name, expires_at: options.expiresAt });
      context.printObject(
        await context.apiClient().call('createServiceAccountToken', { params: { id: accountId }, json: body }),
        options.output,
      );
    });

  token
    .command('list')
    .description('list token metadata (GET /service-accounts/{id}/tokens)')
    .addArgument(idArgument('account_id', 'service account ID'))
    .addOption(outputOption())
    .action(async (accountId: number, options: OutputOptions) =>
      context.printList(
        await context.apiClient().call('listServiceAccountTokens', { params: { id: accountId } }),
        TOKEN_COLUMNS,
        options.output,
      ),
    );

  token
    .command('revoke')
    .description('revoke a token (DELETE /service-accounts/{id}/tokens/{token_id})')
    .addArgument(idArgument('account_id', 'service account ID'))
    .addArgument(idArgument('token_id', 'token ID'))
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (accountId: number, tokenId: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`revoke token ${tokenId} of service account ${accountId}`, options.force);
      await context.apiClient().call('revokeServiceAccountToken', { params: { id: accountId, token_id: tokenId } });
      context.printDone(`Revoked token ${tokenId}.`, options.output);
    });

  const policy = account.command('policy').description('issuance policy of a service account (none means deny-all)');

  policy
    .command('set')
    .description('create or replace the policy (PUT /service-accounts/{id}/policy)')
    .addArgument(idArgument('account_id', 'service account ID'))
    .requiredOption('--max-validity-days <days>', 'longest validity the account may request', parsePositiveInteger)
    .option('--cn-pattern <pattern>', 'allowed common-name pattern (repeatable)', collectString)
    .option('--san-dns-pattern <pattern>', 'allowed DNS SAN pattern (repeatable)', collectString)
    .option('--san-ip-cidr <cidr>', 'allowed IP SAN range (repeatable)', collectString)
    .option('--san-email-domain <domain>', 'allowed e-mail SAN domain (repeatable)', collectString)
    .option('--allowed-ca <ca_id>', 'CA the account may issue from (repeatable)', collectPositiveInteger)
    .option('--allowed-type <type>', 'certificate type the account may request (repeatable)', collectString)
    .addOption(outputOption())
    .action(async (accountId: number, options: PolicyOptions) => {
      const body = definedFields({
        cn_patterns: options.cnPattern,
        san_dns_patterns: options.sanDnsPattern,
        san_ip_cidrs: options.sanIpCidr,
        san_email_domains: options.sanEmailDomain,
        allowed_ca_ids: options.allowedCa,
        allowed_certificate_types: options.allowedType,
        max_validity_days: options.maxValidityDays,
      });
      context.printObject(
        await context.apiClient().call('putServiceAccountPolicy', { params: { id: accountId }, json: body }),
        options.output,
      );
    });

  policy
    .command('show')
    .description('show the policy (GET /service-accounts/{id}/policy)')
    .addArgument(idArgument('account_id', 'service account ID'))
    .addOption(outputOption())
    .action(async (accountId: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getServiceAccountPolicy', { params: { id: accountId } }), options.output),
    );

  policy
    .command('clear')
    .description('remove the policy, making the account deny-all (DELETE /service-accounts/{id}/policy)')
    .addArgument(idArgument('account_id', 'service account ID'))
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (accountId: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`clear the issuance policy of service account ${accountId}`, options.force);
      await context.apiClient().call('deleteServiceAccountPolicy', { params: { id: accountId } });
      context.printDone(`Cleared the policy of service account ${accountId}.`, options.output);
    });
}

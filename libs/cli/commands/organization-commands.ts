import { Command } from 'commander';
import { CliContext } from '../cli-context';
import {
  addPaginationOptions,
  definedFields,
  ForceOptions,
  forceOption,
  idArgument,
  OutputOptions,
  PaginationOptions,
  outputOption,
} from '../command-options';
import { columns } from '../table-format';
import { confirmDestructive } from '../terminal-prompt';
import { USER_COLUMNS } from './user-commands';

const ORGANIZATION_COLUMNS = columns('id', 'name', 'description', 'created_at');

interface OrganizationFieldOptions extends OutputOptions {
  name?: string;
  description?: string;
}

export function registerOrganizationCommands(program: Command, context: CliContext): void {
  const org = program.command('org').description('organizations (/organizations)');

  addPaginationOptions(org.command('list').description('list organizations (GET /organizations)'))
    .addOption(outputOption())
    .action(async (options: PaginationOptions & OutputOptions) => {
      const body = await context.apiClient().call('listOrganizations', { query: { skip: options.skip, limit: options.limit } });
      context.printList(body, ORGANIZATION_COLUMNS, options.output);
    });

  org
    .command('show')
    .description('show an organization (GET /organizations/{id})')
    .addArgument(idArgument('id', 'organization ID'))
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      context.printObject(await context.apiClient().call('getOrganization', { params: { organization_id: id } }), options.output),
    );

  org
    .command('create')
    .description('create an organization (POST /organizations)')
    .requiredOption('--name <name>', 'unique name')
    .option('--description <text>', 'description')
    .addOption(outputOption())
    .action(async (options: OrganizationFieldOptions) => {
      const body = definedFields({ name: options.name, description: options.description });
      context.printObject(await context.apiClient().call('createOrganization', { json: body }), options.output);
    });

  org
    .command('update')
    .description('change an organization (PUT /organizations/{id}); only the given fields change')
    .addArgument(idArgument('id', 'organization ID'))
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .addOption(outputOption())
    .action(async (id: number, options: OrganizationFieldOptions) => {
      const body = definedFields({ name: options.name, description: options.description });
      context.printObject(
        await context.apiClient().call('updateOrganization', { params: { organization_id: id }, json: body }),
        options.output,
      );
    });

  org
    .command('delete')
    .description('delete an organization without users (DELETE /organizations/{id})')
    .addArgument(idArgument('id', 'organization ID'))
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (id: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`delete organization ${id}`, options.force);
      await context.apiClient().call('deleteOrganization', { params: { organization_id: id } });
      context.printDone(`Deleted organization ${id}.`, options.output);
    });

  org
    .command('add-user')
    .description('put a user into an organization (POST /organizations/{org_id}/users/{user_id})')
    .addArgument(idArgument('org_id', 'organization ID'))
    .addArgument(idArgument('user_id', 'user ID'))
    .addOption(outputOption())
    .action(async (orgId: number, userId: number, options: OutputOptions) => {
      const body = await context.apiClient().call('addOrganizationUser', { params: { organization_id: orgId, user_id: userId } });
      context.printObject(body, options.output);
    });

  org
    .command('remove-user')
    .description('take a user out of an organization (DELETE /organizations/{org_id}/users/{user_id})')
    .addArgument(idArgument('org_id', 'organization ID'))
    .addArgument(idArgument('user_id', 'user ID'))
    .addOption(outputOption())
    .action(async (orgId: number, userId: number, options: OutputOptions) => {
      const body = await context.apiClient().call('removeOrganizationUser', { params: { organization_id: orgId, user_id: userId } });
      context.printObject(body, options.output);
    });

  addPaginationOptions(org.command('users').description("list an organization's users (GET /organizations/{id}/users)"))
    .addArgument(idArgument('id', 'organization ID'))
    .addOption(outputOption())
    .action(async (id: number, options: PaginationOptions & OutputOptions) => {
      const body = await context.apiClient().call('listOrganizationUsers', {
        params: { organization_id: id },
        query: { skip: options.skip, limit: options.limit },
      });
      context.printList(body, USER_COLUMNS, options.output);
    });
}

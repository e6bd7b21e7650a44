import { Command, Option } from 'commander';
import { CliContext } from '../cli-context';
import {
  addCapabilityOptions,
  addPaginationOptions,
  capabilityFields,
  definedFields,
  ForceOptions,
  forceOption,
  idArgument,
  OutputOptions,
  outputOption,
  PaginationOptions,
  parsePositiveInteger,
  withEffectiveCapabilities,
} from '../command-options';
import { columns } from '../table-format';
import { confirmDestructive, TerminalPrompt } from '../terminal-prompt';

export const USER_COLUMNS = columns('id', 'username', 'email', 'role', 'organization_id', 'is_active');

const ROLES = ['superuser', 'admin', 'user'];

interface UserFieldOptions extends OutputOptions {
  email?: string;
  password?: string;
  role?: string;
  org?: number;
}

export function registerUserCommands(program: Command, context: CliContext): void {
  const user = program.command('user').description('users (/users)');

  user
    .command('me')
    .description('show the logged-in user (GET /users/me)')
    .addOption(outputOption())
    .action(async (options: OutputOptions) => printUser(context, await context.apiClient().call('getCurrentUser', {}), options.output));

  addPaginationOptions(user.command('list').description('list users (GET /users)'))
    .addOption(outputOption())
    .action(async (options: PaginationOptions & OutputOptions) => {
      const body = await context.apiClient().call('listUsers', { query: { skip: options.skip, limit: options.limit } });
      context.printList(body, USER_COLUMNS, options.output);
    });

  user
    .command('show')
    .addArgument(idArgument('id', 'user ID'))
    .description('show a user (GET /users/{id})')
    .addOption(outputOption())
    .action(async (id: number, options: OutputOptions) =>
      printUser(context, await context.apiClient().call('getUser', { params: { user_id: id } }), options.output),
    );

  addCapabilityOptions(
    user
      .command('create')
      .description('create a user (POST /users)')
      .requiredOption('--username <username>', 'user name')
      .requiredOption('--email <email>', 'e-mail address')
      .option('--password <password>', 'password (asked for without echo when missing)')
      .addOption(new Option('--role <role>', 'role').choices(ROLES))
      .option('--org <organization_id>', 'organization to assign', parsePositiveInteger),
  )
    .addOption(
      // From the environment, so the token stays out of shell history and the process list.
      new Option('--bootstrap-token <token>', "the server's BOOTSTRAP_TOKEN, needed to create the first user when the server sets one").env(
        'PKI_BOOTSTRAP_TOKEN',
      ),
    )
    .addOption(outputOption())
    .action(async (options: UserFieldOptions & { username: string; bootstrapToken?: string }) => {
      const password = options.password ?? (await askPassword());
      const body = definedFields({
        username: options.username,
        email: options.email,
        password,
        role: options.role,
        organization_id: options.org,
        ...capabilityFields(options as unknown as Record<string, unknown>),
      });
      const headers = options.bootstrapToken ? { 'x-bootstrap-token': options.bootstrapToken } : undefined;
      printUser(context, await context.apiClient().call('createUser', { json: body, headers }), options.output);
    });

  addCapabilityOptions(
    user
      .command('update')
      .addArgument(idArgument('id', 'user ID'))
      .description('change a user (PATCH /users/{id}); only the given fields change')
      .option('--email <email>', 'e-mail address')
      .option('--password <password>', 'new password')
      .addOption(new Option('--role <role>', 'role').choices(ROLES))
      .option('--org <organization_id>', 'organization to assign', parsePositiveInteger)
      .option('--active', 'activate the account')
      .option('--no-active', 'deactivate the account (revokes its refresh tokens)'),
  )
    .addOption(outputOption())
    .action(async (id: number, options: UserFieldOptions & { active?: boolean }) => {
      const body = definedFields({
        email: options.email,
        password: options.password,
        role: options.role,
        organization_id: options.org,
        is_active: options.active,
        ...capabilityFields(options as unknown as Record<string, unknown>),
      });
      printUser(context, await context.apiClient().call('updateUser', { params: { user_id: id }, json: body }), options.output);
    });

  user
    .command('delete')
    .addArgument(idArgument('id', 'user ID'))
    .description('delete a user (DELETE /users/{id})')
    .addOption(forceOption())
    .addOption(outputOption())
    .action(async (id: number, options: ForceOptions & OutputOptions) => {
      await confirmDestructive(`delete user ${id}`, options.force);
      await context.apiClient().call('deleteUser', { params: { user_id: id } });
      context.printDone(`Deleted user ${id}.`, options.output);
    });
}

/** JSON keeps the stored flags; the table says what each capability amounts to. */
function printUser(context: CliContext, user: unknown, output: string | undefined): void {
  const table = context.outputFormat(output) === 'table' && user !== null && typeof user === 'object';
  context.printObject(table ? withEffectiveCapabilities(user as Record<string, unknown>) : user, output);
}

async function askPassword(): Promise<string> {
  const prompt = new TerminalPrompt();
  try {
    return await prompt.ask('Password for the new user: ', { hidden: true });
  } finally {
    prompt.close();
  }
}

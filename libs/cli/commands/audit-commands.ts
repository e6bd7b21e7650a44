import { Command, InvalidArgumentError } from 'commander';
import { CliContext } from '../cli-context';
import { addPaginationOptions, OutputOptions, outputOption, PaginationOptions, parsePositiveInteger } from '../command-options';
import { columns } from '../table-format';

const AUDIT_COLUMNS = columns('id', 'created_at', 'action', 'username', 'resource_type', 'resource_id', 'detail');

interface AuditListOptions extends PaginationOptions, OutputOptions {
  action?: string;
  user?: number;
  resourceType?: string;
  resourceId?: number;
  since?: string;
  until?: string;
}

/** Accepts what Date understands (ISO 8601 and friends) and sends ISO 8601, which the API expects. */
function parseDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('Not a date/time (use ISO 8601, e.g. 2025-01-31T12:00:00Z).');
  return date.toISOString();
}

export function registerAuditCommands(program: Command, context: CliContext): void {
  const audit = program.command('audit').description('audit log (/audit-logs)');

  addPaginationOptions(audit.command('list').description('list audit entries, newest first (GET /audit-logs)'))
    .option('--action <action>', 'only this action, e.g. login_failure, cert_revoke')
    .option('--user <user_id>', 'only entries of this user', parsePositiveInteger)
    .option('--resource-type <type>', 'ca, certificate, user, organization or service_account')
    .option('--resource-id <id>', 'only entries about this resource', parsePositiveInteger)
    .option('--since <datetime>', 'entries at or after this time', parseDateTime)
    .option('--until <datetime>', 'entries at or before this time', parseDateTime)
    .addOption(outputOption())
    .action(async (options: AuditListOptions) => {
      const body = await context.apiClient().call('listAuditLogs', {
        query: {
          action: options.action,
          user_id: options.user,
          resource_type: options.resourceType,
          resource_id: options.resourceId,
          since: options.since,
          until: options.until,
          skip: options.skip,
          limit: options.limit,
        },
      });
      context.printList(body, AUDIT_COLUMNS, options.output);
    });
}

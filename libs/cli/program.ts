import { Command, CommanderError } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ApiError, NetworkError } from './api-client';
import { CliContext } from './cli-context';
import { UsageError } from './cli-errors';
import { registerAuditCommands } from './commands/audit-commands';
import { registerAuthCommands } from './commands/auth-commands';
import { registerCaCommands } from './commands/ca-commands';
import { registerCertificateCommands } from './commands/certificate-commands';
import { registerCompletionCommands } from './commands/completion-commands';
import { registerConfigCommands } from './commands/config-commands';
import { registerCrlCommands } from './commands/crl-commands';
import { registerExportCommands } from './commands/export-commands';
import { registerOrganizationCommands } from './commands/organization-commands';
import { registerServiceAccountCommands } from './commands/service-account-commands';
import { registerUserCommands } from './commands/user-commands';
import { ConfigStore } from './config-store';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

/** The version in the nearest package.json above this file: libs/cli under ts-jest, dist/libs/cli when built. */
function packageVersion(): string {
  for (let directory = __dirname; directory !== dirname(directory); directory = dirname(directory)) {
    const file = join(directory, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

function buildProgram(context: CliContext): Command {
  // exitOverride and output settings first: subcommands copy them when they are created.
  const program = new Command('pki')
    .description('Command-line client of the PKI service; each command maps to one API call.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      '\nConfiguration: $XDG_CONFIG_HOME/pki/config.json (see pki config path); PKI_SERVER_URL and PKI_TOKEN override it.',
    );
  registerAuthCommands(program, context);
  registerUserCommands(program, context);
  registerCaCommands(program, context);
  registerCertificateCommands(program, context);
  registerCrlCommands(program, context);
  registerExportCommands(program, context);
  registerOrganizationCommands(program, context);
  registerAuditCommands(program, context);
  registerServiceAccountCommands(program, context);
  registerConfigCommands(program, context);
  registerCompletionCommands(program);
  return program;
}

/** Runs one invocation and returns the exit status; all messages for failures go to stderr. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    const program = buildProgram(new CliContext(new ConfigStore(env)));
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (error) {
    return reportFailure(error);
  }
}

function reportFailure(error: unknown): number {
  // Commander has already printed its message (or the help); only the status is left to choose.
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  // ApiError and NetworkError messages are already the complete line ("Error 404: …", "Error: cannot reach …").
  if (error instanceof ApiError || error instanceof NetworkError) {
    process.stderr.write(`${error.message}\n`);
    return EXIT_FAILURE;
  }
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
}

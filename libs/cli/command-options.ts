import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { CliContext } from './cli-context';
import { ConfigKey, OUTPUT_FORMATS } from './config-store';

/** Options and argument parsers shared by the command groups, so every command spells them the same way. */

export interface OutputOptions {
  output?: string;
}

export interface ForceOptions {
  force?: boolean;
}

export interface PrivateKeyOptions {
  showPrivateKey?: boolean;
}

export function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format (default: defaults.output_format, else table)').choices(OUTPUT_FORMATS);
}

export function forceOption(): Option {
  return new Option('-f, --force', 'do not ask for confirmation');
}

/** For commands whose answer may carry a generated private key; `-o json` always prints the API's answer. */
export function showPrivateKeyOption(): Option {
  return new Option('--show-private-key', 'print the private key in table output (hidden by default; -o json always has it)');
}

export function parsePositiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('Not a positive integer.');
  return Number(value);
}

export function parseNonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Not a non-negative integer.');
  return Number(value);
}

/** For repeatable options: `--san-dns a --san-dns b` gives ['a', 'b']. */
export function collectString(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function collectPositiveInteger(value: string, previous: number[] | undefined): number[] {
  return [...(previous ?? []), parsePositiveInteger(value)];
}

export interface PaginationOptions {
  skip?: number;
  limit?: number;
}

/** `--skip` and `--limit` for the paginated list endpoints. */
export function addPaginationOptions(command: Command): Command {
  return command
    .option('--skip <n>', 'number of entries to skip', parseNonNegativeInteger)
    .option('--limit <n>', 'maximum number of entries', parsePositiveInteger);
}

const CAPABILITY_FLAGS = ['can_create_ca', 'can_create_cert', 'can_revoke_cert', 'can_export_private_key', 'can_delete_ca'] as const;

/** `--can-create-ca` / `--no-can-create-ca` for each capability; left out of the request when neither is given. */
export function addCapabilityOptions(command: Command): Command {
  for (const flag of CAPABILITY_FLAGS) {
    const name = flag.replaceAll('_', '-');
    command.option(`--${name}`, `grant ${flag}`).option(`--no-${name}`, `withhold ${flag}`);
  }
  return command;
}

/** The capability flags given on the command line, keyed as the API names them. */
export function capabilityFields(options: Record<string, unknown>): Record<string, boolean> {
  const fields: Record<string, boolean> = {};
  for (const flag of CAPABILITY_FLAGS) {
    const value = options[camelCase(flag)];
    if (typeof value === 'boolean') fields[flag] = value;
  }
  return fields;
}

/**
 * A user as the table shows it: each capability flag with what the server grants, which the stored
 * flag does not decide for every role (the server's access policy: superusers may do everything,
 * admins everything in their organization, nobody anything without an organization).
 */
export function withEffectiveCapabilities(user: Record<string, unknown>): Record<string, unknown> {
  const organization = user.organization_id !== null && user.organization_id !== undefined;
  const override =
    user.role === 'superuser'
      ? { allowed: true, why: 'superusers bypass capability flags' }
      : !organization
        ? { allowed: false, why: 'no organization' }
        : user.role === 'admin'
          ? { allowed: true, why: 'admins have every capability in their organization' }
          : null;
  if (!override) return user;
  const shown = { ...user };
  for (const flag of CAPABILITY_FLAGS) {
    if (typeof user[flag] !== 'boolean') continue;
    shown[flag] =
      user[flag] === override.allowed
        ? `${override.allowed} (${override.why})`
        : `${override.allowed} (${override.why}; flag: ${String(user[flag])})`;
  }
  return shown;
}

function camelCase(snake: string): string {
  return snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Drops undefined values so request bodies carry only what the user gave. */
export function definedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A positional resource ID; anything but a positive integer is a usage error before any request is made. */
export function idArgument(name: string, description: string): Argument {
  return new Argument(`<${name}>`, description).argParser(parsePositiveInteger);
}

const KEY_TYPES = ['rsa', 'ecdsa-p256', 'ecdsa-p384', 'ed25519'];
const RSA_KEY_SIZES = [2048, 3072, 4096, 8192];

export function keyTypeOption(): Option {
  return new Option('--key-type <type>', 'key algorithm (server default: rsa)').choices(KEY_TYPES);
}

export function keySizeOption(defaultKey: ConfigKey): Option {
  return new Option(
    '--key-size <bits>',
    `RSA key size: ${RSA_KEY_SIZES.join(', ')} (default: ${defaultKey}, else the server setting)`,
  ).argParser((value) => {
    const bits = Number(value);
    if (!RSA_KEY_SIZES.includes(bits)) throw new InvalidArgumentError(`Allowed: ${RSA_KEY_SIZES.join(', ')}.`);
    return bits;
  });
}

/**
 * The configured default key size applies to RSA only: the server rejects key_size for other key
 * types, and a default should never turn a valid command into a failing one.
 */
export function keySizeWithDefault(
  context: CliContext,
  keyType: string | undefined,
  keySize: number | undefined,
  defaultKey: ConfigKey,
): number | undefined {
  if (keySize !== undefined) return keySize;
  return keyType === undefined || keyType === 'rsa' ? context.config.getNumber(defaultKey) : undefined;
}

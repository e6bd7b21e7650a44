import { Command } from 'commander';
import { CliContext } from '../cli-context';
import { CommandFailure } from '../cli-errors';
import { OutputOptions, outputOption } from '../command-options';
import { CONFIG_KEYS, ConfigKey, parseConfigValue, toConfigKey } from '../config-store';
import { columns, formatTable } from '../table-format';

const SECRET_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['auth.token', 'auth.refresh_token']);

/** Tokens are shown only by their ends in `config show`; `config get` prints them whole for scripts. */
function masked(key: ConfigKey, value: string | number): string | number {
  if (!SECRET_KEYS.has(key)) return value;
  const text = String(value);
  return text.length > 12 ? `${text.slice(0, 4)}…${text.slice(-4)}` : '****';
}

export function registerConfigCommands(program: Command, context: CliContext): void {
  const config = program.command('config').description('local configuration (no server calls)');

  config
    .command('show')
    .description('show every set key with its effective value and source (env, file or default)')
    .addOption(outputOption())
    .action((options: OutputOptions) => {
      const entries = (Object.keys(CONFIG_KEYS) as ConfigKey[]).flatMap((key) => {
        const value = context.config.get(key);
        return value === undefined ? [] : [{ key, value: masked(key, value), source: context.config.source(key) }];
      });
      if (context.outputFormat(options.output) === 'json') {
        process.stdout.write(`${JSON.stringify(Object.fromEntries(entries.map((entry) => [entry.key, entry.value])), null, 2)}\n`);
      } else {
        process.stdout.write(formatTable(entries, columns('key', 'value', 'source')));
      }
    });

  config
    .command('get')
    .description('print the effective value of a key (exit 1 when unset)')
    .argument('<key>', `one of: ${Object.keys(CONFIG_KEYS).join(', ')}`)
    .action((key: string) => {
      const value = context.config.get(toConfigKey(key));
      if (value === undefined) throw new CommandFailure(`${key} is not set`);
      process.stdout.write(`${value}\n`);
    });

  config
    .command('set')
    .description('store a value in the configuration file (integers and URLs are checked)')
    .argument('<key>', `one of: ${Object.keys(CONFIG_KEYS).join(', ')}`)
    .argument('<value>', 'the value')
    .action((key: string, value: string) => {
      const configKey = toConfigKey(key);
      context.config.set({ [configKey]: parseConfigValue(configKey, value) });
    });

  config
    .command('unset')
    .description('remove a key from the configuration file')
    .argument('<key>', `one of: ${Object.keys(CONFIG_KEYS).join(', ')}`)
    .action((key: string) => context.config.unset(toConfigKey(key)));

  config
    .command('path')
    .description('print where the configuration file is')
    .action(() => {
      process.stdout.write(`${context.config.path}\n`);
    });
}

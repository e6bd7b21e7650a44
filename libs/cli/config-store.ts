import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './cli-errors';

export const OUTPUT_FORMATS = ['table', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type ValueKind = 'url' | 'string' | 'positive-integer' | 'output-format';

/** Every key the file may hold, with how `pki config set` parses its value. */
export const CONFIG_KEYS = {
  'server.url': 'url',
  'auth.token': 'string',
  'auth.refresh_token': 'string',
  'defaults.output_format': 'output-format',
  'defaults.ca_key_size': 'positive-integer',
  'defaults.ca_valid_days': 'positive-integer',
  'defaults.cert_key_size': 'positive-integer',
  'defaults.cert_valid_days': 'positive-integer',
} as const satisfies Record<string, ValueKind>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
export type ConfigValue = string | number;

export const DEFAULT_SERVER_URL = 'http://localhost:8000';

const DEFAULT_VALUES: Partial<Record<ConfigKey, ConfigValue>> = { 'server.url': DEFAULT_SERVER_URL };

/** Environment variables that take precedence over the file. */
const ENVIRONMENT_OVERRIDES: Partial<Record<ConfigKey, string>> = { 'server.url': 'PKI_SERVER_URL', 'auth.token': 'PKI_TOKEN' };

export type ConfigSource = 'env' | 'file' | 'default';

function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, key);
}

/** `$XDG_CONFIG_HOME/pki/config.json`, falling back to `~/.config/pki/config.json`. */
export function configFilePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'pki', 'config.json');
}

/** The key as typed on the command line; throws {@link UsageError} for unknown keys. */
export function toConfigKey(key: string): ConfigKey {
  if (!isConfigKey(key)) throw new UsageError(`unknown configuration key '${key}' (known: ${Object.keys(CONFIG_KEYS).join(', ')})`);
  return key;
}

/** Parses a command-line value for `key`; throws {@link UsageError} when it does not fit the key's type. */
export function parseConfigValue(key: ConfigKey, raw: string): ConfigValue {
  const kind: ValueKind = CONFIG_KEYS[key];
  switch (kind) {
    case 'url':
      if (!/^https?:\/\/[^/\s]+/.test(raw) || !URL.canParse(raw)) throw new UsageError(`${key} must be an http(s) URL, got '${raw}'`);
      return raw.replace(/\/+$/, '');
    case 'positive-integer':
      if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`${key} must be a positive integer, got '${raw}'`);
      return Number(raw);
    case 'output-format':
      if (!(OUTPUT_FORMATS as readonly string[]).includes(raw))
        throw new UsageError(`${key} must be one of ${OUTPUT_FORMATS.join(', ')}, got '${raw}'`);
      return raw;
    case 'string':
      return raw;
  }
}

/**
 * The CLI's configuration file. The file is nested JSON (`{"server": {"url": …}}`) addressed by
 * dotted keys; it holds tokens, so it is written with mode 0600 inside a 0700 directory.
 */
export class ConfigStore {
  readonly path: string;
  private values: Partial<Record<ConfigKey, ConfigValue>>;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.path = configFilePath(env);
    this.values = readConfigFile(this.path);
  }

  /** The effective value: environment, then file, then built-in default. */
  get(key: ConfigKey): ConfigValue | undefined {
    return this.lookup(key)?.value;
  }

  getString(key: ConfigKey): string | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : String(value);
  }

  getNumber(key: ConfigKey): number | undefined {
    const value = this.get(key);
    return typeof value === 'number' ? value : undefined;
  }

  source(key: ConfigKey): ConfigSource | undefined {
    return this.lookup(key)?.source;
  }

  /** Whether the value comes from the file (and so may be replaced there, e.g. after a token refresh). */
  isFromFile(key: ConfigKey): boolean {
    return this.source(key) === 'file';
  }

  set(entries: Partial<Record<ConfigKey, ConfigValue>>): void {
    this.values = { ...this.values, ...entries };
    this.save();
  }

  unset(...keys: ConfigKey[]): void {
    for (const key of keys) delete this.values[key];
    this.save();
  }

  private lookup(key: ConfigKey): { value: ConfigValue; source: ConfigSource } | undefined {
    const variable = ENVIRONMENT_OVERRIDES[key];
    const fromEnv = variable ? this.env[variable] : undefined;
    if (fromEnv) return { value: fromEnv, source: 'env' };
    const fromFile = this.values[key];
    if (fromFile !== undefined) return { value: fromFile, source: 'file' };
    const fallback = DEFAULT_VALUES[key];
    return fallback === undefined ? undefined : { value: fallback, source: 'default' };
  }

  private save(): void {
    const directory = dirname(this.path);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const nested: Record<string, Record<string, ConfigValue>> = {};
    for (const [key, value] of Object.entries(this.values)) {
      const [section, name] = key.split('.');
      (nested[section] ??= {})[name] = value;
    }
    // Write-then-rename so a crash never leaves a half-written file; the temporary file is
    // created 0600 so the tokens are never readable by others, not even briefly.
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(nested, null, 2)}\n`, { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, this.path);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
}

function readConfigFile(path: string): Partial<Record<ConfigKey, ConfigValue>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`configuration file ${path} is not valid JSON`);
  }
  const values: Partial<Record<ConfigKey, ConfigValue>> = {};
  if (parsed === null || typeof parsed !== 'object') return values;
  for (const [section, entries] of Object.entries(parsed)) {
    if (entries === null || typeof entries !== 'object') continue;
    for (const [name, value] of Object.entries(entries as Record<string, unknown>)) {
      const key = `${section}.${name}`;
      // Unknown keys and non-scalar values are ignored rather than fatal, so an older or newer CLI can share the file.
      if (isConfigKey(key) && (typeof value === 'string' || typeof value === 'number')) values[key] = value;
    }
  }
  return values;
}

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './cli-errors';
import { configFilePath, ConfigStore, DEFAULT_SERVER_URL, parseConfigValue, toConfigKey } from './config-store';

describe('ConfigStore', () => {
  let configHome: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    configHome = mkdtempSync(join(tmpdir(), 'pki-config-'));
    env = { XDG_CONFIG_HOME: configHome };
  });

  afterEach(() => rmSync(configHome, { recursive: true, force: true }));

  it('lives under $XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath(env)).toBe(join(configHome, 'pki', 'config.json'));
    expect(configFilePath({ HOME: '/home/someone' })).toMatch(/\/\.config\/pki\/config\.json$/);
  });

  it('writes nested JSON with mode 0600 in a 0700 directory', () => {
    const store = new ConfigStore(env);
    store.set({ 'server.url': 'https://pki.example', 'auth.token': 'secret', 'defaults.ca_key_size': 4096 });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store.path)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      server: { url: 'https://pki.example' },
      auth: { token: 'secret' },
      defaults: { ca_key_size: 4096 },
    });
    expect(new ConfigStore(env).get('defaults.ca_key_size')).toBe(4096);
  });

  it('tightens a pre-existing file that was readable by others', () => {
    const path = configFilePath(env);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{}', { mode: 0o644 });
    new ConfigStore(env).set({ 'auth.token': 'secret' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('unsets keys, falling back to the defaults', () => {
    const store = new ConfigStore(env);
    store.set({ 'server.url': 'https://pki.example', 'auth.token': 'secret' });
    store.unset('server.url', 'auth.token');
    expect(store.get('server.url')).toBe(DEFAULT_SERVER_URL);
    expect(store.source('server.url')).toBe('default');
    expect(store.get('auth.token')).toBeUndefined();
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({});
  });

  it('lets PKI_SERVER_URL and PKI_TOKEN override the file', () => {
    new ConfigStore(env).set({ 'server.url': 'https://file.example', 'auth.token': 'from-file' });
    const store = new ConfigStore({ ...env, PKI_SERVER_URL: 'http://env.example', PKI_TOKEN: 'from-env' });
    expect(store.get('server.url')).toBe('http://env.example');
    expect(store.get('auth.token')).toBe('from-env');
    expect(store.isFromFile('auth.token')).toBe(false);
  });

  it('ignores keys it does not know in the file', () => {
    const path = configFilePath(env);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ server: { url: 'https://pki.example', colour: 'blue' }, extra: 1 }));
    const store = new ConfigStore(env);
    expect(store.get('server.url')).toBe('https://pki.example');
    store.set({ 'auth.token': 'secret' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ server: { url: 'https://pki.example' }, auth: { token: 'secret' } });
  });

  it('refuses a file that is not JSON as a usage error', () => {
    const path = configFilePath(env);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{ not json');
    expect(() => new ConfigStore(env)).toThrow(UsageError);
  });
});

describe('typed values for pki config set', () => {
  it('rejects unknown keys', () => {
    expect(() => toConfigKey('server.port')).toThrow(UsageError);
    expect(() => toConfigKey('server.port')).toThrow("unknown configuration key 'server.port'");
    expect(toConfigKey('defaults.output_format')).toBe('defaults.output_format');
  });

  it('parses integers for the size and validity defaults', () => {
    expect(parseConfigValue('defaults.cert_valid_days', '90')).toBe(90);
    expect(() => parseConfigValue('defaults.cert_valid_days', 'ninety')).toThrow(UsageError);
    expect(() => parseConfigValue('defaults.ca_key_size', '0')).toThrow(UsageError);
    expect(() => parseConfigValue('defaults.ca_key_size', '2048.5')).toThrow(UsageError);
  });

  it('accepts only table or json as output format', () => {
    expect(parseConfigValue('defaults.output_format', 'json')).toBe('json');
    expect(() => parseConfigValue('defaults.output_format', 'yaml')).toThrow(UsageError);
  });

  it('wants an http(s) URL for server.url and drops a trailing slash', () => {
    expect(parseConfigValue('server.url', 'https://pki.example:8443/')).toBe('https://pki.example:8443');
    expect(() => parseConfigValue('server.url', 'pki.example')).toThrow(UsageError);
  });

  it('keeps strings as they are', () => {
    expect(parseConfigValue('auth.token', '12345')).toBe('12345');
  });
});

import { existsSync } from 'node:fs';
import { AppConfig, loadConfig } from './app-config';
import { InvalidConfigurationError } from './env-reader';

/**
 * Reads `.env` from the working directory when present (variables already set in the environment
 * win), then validates. On a bad value it prints one line per variable and exits 1: a pod with a
 * broken setting should crash at start, not misbehave later.
 */
export function loadEnvironmentOrExit(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) {
      for (const line of error.lines()) process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw error;
  }
}

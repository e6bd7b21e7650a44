import { isIP } from 'node:net';
import type { AppConfig } from '../config/app-config';

/** Where a person on this machine reaches the server: a wildcard address is reached as localhost. */
export function serverUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The one line that says the server is ready: where it listens, where its API documentation is, and,
 * while there is no user yet, how to create the first one (README "First user").
 */
export function readyLine(config: AppConfig, hasUsers: boolean): { fields: Record<string, string>; message: string } {
  const url = serverUrl(config.host, config.port);
  const fields: Record<string, string> = { url };
  let message = `server listening on ${url}`;
  if (config.enableDocs) {
    fields.docs_url = `${url}/docs`;
    message += `, API docs at ${fields.docs_url}`;
  }
  if (!hasUsers) {
    const create = `POST ${url}${config.apiV1Str}/users/ (or pki user create)`;
    message += config.bootstrapToken
      ? `; no users yet: create the first with ${create} and the header X-Bootstrap-Token: <BOOTSTRAP_TOKEN> (README "First user")`
      : `; no users yet: anyone who reaches the port can create the first, any role, with ${create}; set BOOTSTRAP_TOKEN to require a token (README "First user")`;
  }
  return { fields, message };
}

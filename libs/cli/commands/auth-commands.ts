import { Command } from 'commander';
import { ApiError, NetworkError, TokenPair } from '../api-client';
import { CliContext } from '../cli-context';
import { CommandFailure } from '../cli-errors';
import { parseConfigValue } from '../config-store';
import { TerminalPrompt } from '../terminal-prompt';

interface LoginOptions {
  username?: string;
  password?: string;
  server?: string;
}

export function registerAuthCommands(program: Command, context: CliContext): void {
  const auth = program.command('auth').description('log in and out, show who you are');

  auth
    .command('login')
    .description('log in (POST /auth/token) and store the access and refresh tokens')
    .option('-u, --username <username>', 'user name (asked for when missing)')
    .option('-p, --password <password>', 'password (asked for without echo when missing)')
    .option('-s, --server <url>', 'server URL; stored as server.url')
    .action(async (options: LoginOptions) => {
      const serverUrl = options.server === undefined ? context.serverUrl : String(parseConfigValue('server.url', options.server));
      const { username, password } = await credentials(options);
      const tokens = (await context.anonymousClient(serverUrl).call('login', { form: { username, password } })) as TokenPair;
      context.config.set({
        ...(options.server === undefined ? {} : { 'server.url': serverUrl }),
        'auth.token': tokens.access_token,
        'auth.refresh_token': tokens.refresh_token,
      });
      process.stdout.write(`Logged in to ${serverUrl} as ${username}.\n`);
    });

  auth
    .command('logout')
    .description('log out (POST /auth/logout) and forget the stored tokens')
    .action(async () => {
      if (context.config.getString('auth.token')) {
        try {
          await context.apiClient().call('logout', {});
        } catch (error) {
          // The server may be gone or the token already dead; the local tokens are cleared regardless.
          if (!(error instanceof ApiError || error instanceof NetworkError)) throw error;
        }
      }
      context.config.unset('auth.token', 'auth.refresh_token');
      process.stdout.write('Logged out.\n');
    });

  auth
    .command('status')
    .description('show the server, the logged-in user (GET /users/me) and the token expiry')
    .action(async () => {
      const token = context.config.getString('auth.token');
      process.stdout.write(`Server:  ${context.serverUrl}\n`);
      if (!token) throw new CommandFailure('not logged in (run pki auth login)');
      const user = (await context.apiClient().call('getCurrentUser', {})) as { username: string; role: string };
      process.stdout.write(`User:    ${user.username} (${user.role})\n`);
      // Read after the call: a transparent refresh may have replaced the token.
      process.stdout.write(`Expires: ${describeExpiry(context.config.getString('auth.token') ?? token)}\n`);
    });
}

async function credentials(options: LoginOptions): Promise<{ username: string; password: string }> {
  if (options.username !== undefined && options.password !== undefined) return { username: options.username, password: options.password };
  const prompt = new TerminalPrompt();
  try {
    const username = options.username ?? (await prompt.ask('Username: '));
    const password = options.password ?? (await prompt.ask('Password: ', { hidden: true }));
    return { username, password };
  } finally {
    prompt.close();
  }
}

/** The JWT's `exp`, read without verifying the signature (only the server can, and it will). */
function describeExpiry(token: string): string {
  const payload = token.split('.')[1];
  if (!payload) return 'unknown (not a JWT)';
  let exp: unknown;
  try {
    exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
  } catch {
    return 'unknown (unreadable JWT payload)';
  }
  if (typeof exp !== 'number') return 'unknown (no exp claim)';
  const expiresAt = new Date(exp * 1000);
  const minutes = Math.round((expiresAt.getTime() - Date.now()) / 60000);
  return `${expiresAt.toISOString()} (${minutes >= 0 ? `in ${minutes} min` : 'expired'})`;
}

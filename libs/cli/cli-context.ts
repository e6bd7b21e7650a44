import { ApiClient } from './api-client';
import { ConfigStore, OutputFormat } from './config-store';
import { Column, formatRecord, formatTable, Row } from './table-format';

const HIDDEN_PRIVATE_KEY = '(hidden: add --show-private-key, or use -o json)';

/** What every command needs: the configuration, an API client built from it, and output in the chosen format. */
export class CliContext {
  constructor(readonly config: ConfigStore) {}

  get serverUrl(): string {
    return this.config.getString('server.url') ?? '';
  }

  /**
   * A client with the configured credentials. Refreshed tokens are saved only when the access token
   * came from the file: a PKI_TOKEN from the environment is not ours to replace.
   */
  apiClient(): ApiClient {
    const fromFile = this.config.isFromFile('auth.token');
    return new ApiClient({
      baseUrl: this.serverUrl,
      accessToken: this.config.getString('auth.token'),
      refreshToken: fromFile ? this.config.getString('auth.refresh_token') : undefined,
      onTokensRefreshed: (tokens) => this.config.set({ 'auth.token': tokens.access_token, 'auth.refresh_token': tokens.refresh_token }),
    });
  }

  /** For logging in: no stored credentials, which may belong to another server. */
  anonymousClient(serverUrl: string): ApiClient {
    return new ApiClient({ baseUrl: serverUrl });
  }

  /** `-o` wins, then `defaults.output_format`, then table. */
  outputFormat(option: string | undefined): OutputFormat {
    const chosen = option ?? this.config.getString('defaults.output_format');
    return chosen === 'json' ? 'json' : 'table';
  }

  printList(body: unknown, tableColumns: readonly Column[], output: string | undefined): void {
    if (this.outputFormat(output) === 'json' || !Array.isArray(body)) return this.printJson(body);
    process.stdout.write(formatTable(body as Row[], tableColumns));
  }

  /**
   * Table output hides a `private_key` (terminal scrollback and screen sharing keep what is printed)
   * unless `showPrivateKey`; commands that exist to show the key pass it.
   */
  printObject(body: unknown, output: string | undefined, { showPrivateKey = false } = {}): void {
    if (this.outputFormat(output) === 'json' || body === null || typeof body !== 'object') return this.printJson(body);
    const record = body as Row;
    const hidden = !showPrivateKey && typeof record.private_key === 'string';
    process.stdout.write(formatRecord(hidden ? { ...record, private_key: HIDDEN_PRIVATE_KEY } : record));
  }

  /** For operations answered with 204: a note for humans, nothing for `-o json` (there is no body to print). */
  printDone(message: string, output: string | undefined): void {
    if (this.outputFormat(output) === 'table') process.stdout.write(`${message}\n`);
  }

  private printJson(body: unknown): void {
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  }
}

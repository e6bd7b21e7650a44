import { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { CA_SELECTOR_HELP, caIdFor } from '../ca-selector';
import { CliContext } from '../cli-context';
import { UsageError } from '../cli-errors';

export function registerCrlCommands(program: Command, context: CliContext): void {
  const crl = program.command('crl').description('certificate revocation lists (/crl, public)');

  crl
    .command('get')
    .description("a CA's current CRL as PEM (GET /cas/{id} for its slug, then GET /crl/{slug}.pem), to stdout or --file")
    .argument('<ca>', `the CA: ${CA_SELECTOR_HELP}`)
    .option('--file <path>', 'write the PEM to this file instead of stdout')
    .action(async (selector: string, options: { file?: string }) => {
      const client = context.apiClient();
      const ca = (await client.call('getCa', { params: { ca_id: await caIdFor(context, selector) } })) as { slug: string };
      const pem = await client.callText('getCrl', { params: { file: `${ca.slug}.pem` } });
      if (options.file === undefined) {
        process.stdout.write(pem);
        return;
      }
      try {
        writeFileSync(options.file, pem, { mode: 0o644 });
      } catch (error) {
        throw new UsageError(`cannot write ${options.file}: ${(error as Error).message}`);
      }
      process.stderr.write(`Wrote ${options.file}\n`);
    });
}

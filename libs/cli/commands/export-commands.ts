import { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ApiClient } from '../api-client';
import { CliContext } from '../cli-context';
import { idArgument } from '../command-options';
import { UsageError } from '../cli-errors';

interface ExportTarget {
  command: string;
  description: string;
  idDescription: string;
  /** Private keys are written 0600 like the config file; public material 0644. */
  secret: boolean;
  download: (client: ApiClient, id: number) => Promise<string>;
}

const EXPORT_TARGETS: readonly ExportTarget[] = [
  {
    command: 'ca-cert',
    description: 'CA certificate (GET /export/ca/{id}/certificate)',
    idDescription: 'CA ID',
    secret: false,
    download: (client, id) => client.callText('exportCaCertificate', { params: { ca_id: id } }),
  },
  {
    command: 'ca-key',
    description: 'CA private key (GET /export/ca/{id}/private-key; audit-logged)',
    idDescription: 'CA ID',
    secret: true,
    download: (client, id) => client.callText('exportCaPrivateKey', { params: { ca_id: id } }),
  },
  {
    command: 'cert',
    description: 'certificate (GET /export/certificate/{id})',
    idDescription: 'certificate ID',
    secret: false,
    download: (client, id) => client.callText('exportCertificate', { params: { cert_id: id } }),
  },
  {
    command: 'cert-key',
    description: 'certificate private key (GET /export/certificate/{id}/private-key; audit-logged)',
    idDescription: 'certificate ID',
    secret: true,
    download: (client, id) => client.callText('exportCertificatePrivateKey', { params: { cert_id: id } }),
  },
  {
    command: 'cert-chain',
    description: 'certificate followed by its CA chain (GET /export/certificate/{id}/chain)',
    idDescription: 'certificate ID',
    secret: false,
    download: (client, id) => client.callText('exportCertificateChain', { params: { cert_id: id } }),
  },
];

export function registerExportCommands(program: Command, context: CliContext): void {
  const exportGroup = program.command('export').description('PEM downloads (/export), to stdout or --file');
  for (const target of EXPORT_TARGETS) {
    exportGroup
      .command(target.command)
      .description(target.description)
      .addArgument(idArgument('id', target.idDescription))
      .option('--file <path>', 'write the PEM to this file instead of stdout')
      .action(async (id: number, options: { file?: string }) => {
        const pem = await target.download(context.apiClient(), id);
        if (options.file === undefined) {
          process.stdout.write(pem);
          return;
        }
        try {
          writeFileSync(options.file, pem, { mode: target.secret ? 0o600 : 0o644 });
        } catch (error) {
          throw new UsageError(`cannot write ${options.file}: ${(error as Error).message}`);
        }
        process.stderr.write(`Wrote ${options.file}\n`);
      });
  }
}

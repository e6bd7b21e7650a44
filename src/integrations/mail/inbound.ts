import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { parserNameFor, parseRawEmail, type ProviderMap } from '../../../libs/mail';
import type { Logger } from './logger';
import { WORKER_METRICS } from './worker-metrics';
import type { InboundOutcome, PlatformClient } from './platform-client';

/**
 * Inbound mail: each message the SMTP listener accepts (the MX of the receipt domain points here) is
 * posted raw to the platform's inbound-email/, with the parser the provider map picks from its
 * sender. Delivery reports (DSNs, complaint reports) go to the tracking handler instead. When the
 * platform cannot take the message the SMTP answer is a temporary failure (451), so the sending
 * server keeps it and retries: the worker holds no mail of its own.
 */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** A delivery report handler (tracking.ts): true when the message was a report and was handled. */
export type ReportHandler = (raw: string) => Promise<boolean>;

export class InboundMail {
  constructor(
    private readonly platform: PlatformClient,
    private readonly providerMap: ProviderMap,
    private readonly logger: Logger,
    private readonly reports: ReportHandler = async () => false,
  ) {}

  /** One raw message: a report for tracking, or a provider email for the platform. */
  async receive(raw: string): Promise<InboundOutcome | { status: 'report' }> {
    if (await this.reports(raw)) {
      WORKER_METRICS.inbound.inc({ result: 'report' });
      return { status: 'report' };
    }
    let sender = '';
    try {
      sender = (await parseRawEmail(raw)).from;
    } catch {
      // Unreadable: the platform records it as unparsed with the reason.
    }
    const outcome = await this.platform.postInboundEmail(raw, parserNameFor(sender, this.providerMap));
    WORKER_METRICS.inbound.inc({ result: outcome.status });
    this.logger.info({ inbound_email: outcome.inbound_email, status: outcome.status, reason: outcome.reason, sender }, 'inbound email');
    return outcome;
  }

  /** The SMTP listener; resolves with its port once listening. */
  async listen(port: number, host = '0.0.0.0'): Promise<{ server: SMTPServer; port: number }> {
    const server = new SMTPServer({
      name: 'mail-worker',
      banner: 'notices mail worker',
      authOptional: true,
      disabledCommands: ['AUTH'],
      size: MAX_MESSAGE_BYTES,
      logger: false,
      onData: (stream: SMTPServerDataStream, _session: SMTPServerSession, callback: (error?: Error | null) => void) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
            return;
          }
          this.receive(Buffer.concat(chunks).toString('utf8')).then(
            () => callback(),
            (error: Error) => {
              this.logger.error({ err: error.message }, 'inbound email not taken by the platform; the sender will retry');
              callback(Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 }));
            },
          );
        });
      },
    });
    server.on('error', (error) => this.logger.error({ err: error.message }, 'SMTP listener error'));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    return { server, port: (server.server.address() as AddressInfo).port };
  }
}

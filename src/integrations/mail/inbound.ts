import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { parserNameFor, parseRawEmail, type ProviderMap } from '../../../libs/mail';
import { verifySender, type AuthenticationSettings, type SmtpPeer } from './authentication';
import type { Logger } from './logger';
import { WORKER_METRICS } from './worker-metrics';
import { PlatformError, type InboundOutcome, type PlatformClient } from './platform-client';

/**
 * Inbound mail: each message the SMTP listener accepts (the MX of the receipt domain points here) is
 * checked against MAIL_REQUIRE_AUTH (authentication.ts) and posted raw to the platform's
 * inbound-email/, with the parser the provider map picks from its sender and the authentication
 * results; a sender the policy refuses is posted too, to be kept unparsed as auth_failed. Delivery
 * reports (DSNs, complaint reports) go to the tracking handler instead.
 *
 * SMTP answers: a temporary failure (451, the sending server keeps the message and retries) only
 * when retrying can help: the platform unreachable or failing (5xx), or a DNS failure during
 * authentication; the worker holds no mail of its own. A message the platform refuses for what it
 * is (a 4xx other than the worker's own credentials or throttling) is refused for good (554).
 */

/** A delivery report handler (tracking.ts): true when the message was a report and was handled. */
export type ReportHandler = (raw: string) => Promise<boolean>;

export interface InboundSettings {
  providerMap: ProviderMap;
  /** The SMTP listener's SIZE. */
  maxMessageBytes: number;
  authentication: AuthenticationSettings;
}

/** Retrying the same message cannot help: the SMTP answer is a permanent failure. */
export class PermanentRefusal extends Error {
  override name = 'PermanentRefusal';
}

/** Retrying later can help (DNS): the SMTP answer is a temporary failure. */
export class TemporaryFailure extends Error {
  override name = 'TemporaryFailure';
}

/** Platform answers that say the worker's setup or the load is wrong, not the message: worth a retry once fixed. */
const RETRYABLE_CLIENT_STATUSES = new Set([401, 403, 404, 408, 429]);

/** PostgreSQL text holds no NUL (and RFC 5322 allows none): each becomes U+FFFD, so the message is kept rather than refused. */
const withoutNul = (text: string) => (text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text);

/** An IPv4 client seen on a dual-stack socket (`::ffff:192.0.2.1`), as SPF wants it. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

export class InboundMail {
  constructor(
    private readonly platform: PlatformClient,
    private readonly settings: InboundSettings,
    private readonly logger: Logger,
    private readonly reports: ReportHandler = async () => false,
  ) {}

  /** One raw message: a report for tracking, or a provider email for the platform. */
  async receive(message: Buffer | string, peer: SmtpPeer = {}): Promise<InboundOutcome | { status: 'report' }> {
    const bytes = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
    const raw = typeof message === 'string' ? message : message.toString('utf8');
    if (await this.reports(raw)) {
      WORKER_METRICS.inbound.inc({ result: 'report' });
      return { status: 'report' };
    }
    const verdict = await verifySender(bytes, peer, this.settings.authentication);
    if (verdict.outcome === 'temporary') throw new TemporaryFailure(verdict.reason);
    let sender = '';
    try {
      sender = (await parseRawEmail(raw)).from;
    } catch {
      // Unreadable: the platform records it as unparsed with the reason.
    }
    let outcome: InboundOutcome;
    try {
      outcome = await this.platform.postInboundEmail(withoutNul(raw), parserNameFor(sender, this.settings.providerMap), {
        results: verdict.results,
        failed: verdict.outcome === 'refused' ? verdict.reason : undefined,
      });
    } catch (error) {
      if (error instanceof PlatformError && error.status >= 400 && error.status < 500 && !RETRYABLE_CLIENT_STATUSES.has(error.status)) {
        WORKER_METRICS.inbound.inc({ result: 'refused' });
        this.logger.error({ status: error.status, err: error.message, sender }, 'inbound email refused by the platform; refused for good');
        throw new PermanentRefusal(`The message was refused (${error.status})`);
      }
      throw error;
    }
    WORKER_METRICS.inbound.inc({ result: outcome.status });
    this.logger.info(
      { inbound_email: outcome.inbound_email, status: outcome.status, reason: outcome.reason, sender, authentication: verdict.results },
      'inbound email',
    );
    return outcome;
  }

  /** The SMTP listener; resolves with its port once listening. */
  async listen(port: number, host: string): Promise<{ server: SMTPServer; port: number }> {
    const server = new SMTPServer({
      name: 'mail-worker',
      banner: 'notices mail worker',
      authOptional: true,
      disabledCommands: ['AUTH'],
      size: this.settings.maxMessageBytes,
      logger: false,
      onData: (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Past the limit the rest is only drained: the answer is 552 whatever follows.
          if (size <= this.settings.maxMessageBytes) chunks.push(chunk);
        });
        stream.on('end', () => {
          if (stream.sizeExceeded || size > this.settings.maxMessageBytes) {
            callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
            return;
          }
          const peer: SmtpPeer = {
            ip: plainAddress(session.remoteAddress),
            helo: session.hostNameAppearsAs || undefined,
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          };
          this.receive(Buffer.concat(chunks), peer).then(
            () => callback(),
            (error: Error) => {
              if (error instanceof PermanentRefusal) {
                callback(Object.assign(new Error(error.message), { responseCode: 554 }));
                return;
              }
              this.logger.error({ err: error.message }, 'inbound email not taken; the sender will retry');
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

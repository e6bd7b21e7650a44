import { hostname } from 'node:os';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailWorkerConfig } from './config';
import { startHttpServer, type PostHandler } from './http-server';
import { InboundMail } from './inbound';
import type { Logger } from './logger';
import { BucketSource } from './bucket';
import { Outbound } from './outbound';
import { PlatformClient } from './platform-client';
import { Tracking } from './tracking';

/** SMTP to SMTP_URL, or the SES v2 API (credentials and region from the AWS SDK's usual environment). */
async function mailTransport(config: MailWorkerConfig): Promise<Transporter> {
  if (config.transport === 'smtp') return createTransport(config.smtpUrl);
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  return createTransport({ SES: { sesClient: new SESv2Client({}), SendEmailCommand } });
}

/** Polls BUCKET_NAME (S3, or S3_ENDPOINT's S3-compatible store) for inbound emails. */
async function bucketSource(config: MailWorkerConfig, inbound: InboundMail, logger: Logger): Promise<() => void> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const s3 = new S3Client(config.s3Endpoint ? { endpoint: config.s3Endpoint, forcePathStyle: true } : {});
  const source = new BucketSource(s3, config.bucketName, inbound, config.rawMailRetentionDays, logger);
  return source.startPolling(config.inboundBucketPollIntervalSeconds);
}

/**
 * Serves the worker's HTTP side and, when INBOUND_SMTP_PORT is set, the SMTP listener, and sends
 * ready notifications (poll and/or webhook). Stops on SIGTERM / SIGINT, after `beforeExit`.
 */
export async function runMailWorker(config: MailWorkerConfig, logger: Logger, beforeExit: () => Promise<void>): Promise<void> {
  const platform = new PlatformClient(config.platformUrl, config.platformApiToken);
  const tracking = new Tracking(platform, config, logger);
  const inbound = new InboundMail(
    platform,
    {
      providerMap: config.providerMap,
      maxMessageBytes: config.inboundMaxMessageBytes,
      authentication: { policy: config.requireAuth, hostname: hostname() },
    },
    logger,
    (raw) => tracking.report(raw),
  );
  const routes: Record<string, PostHandler> = { '/webhook/tracking': (raw, headers) => tracking.webhook(raw, headers) };
  const sending = config.enableOutboundPolling || config.webhookSecret !== '';
  const outbound = sending ? new Outbound(platform, await mailTransport(config), { ...config }, logger) : null;
  // Without a secret the webhook does not exist (404), as the spec's gateway is not deployed then.
  if (outbound && config.webhookSecret) routes['/webhook/outbound'] = (raw, headers) => outbound.webhook(raw, headers);
  const http = await startHttpServer(config.port, config.bindHost, routes, logger);
  const stopPolling =
    outbound && config.enableOutboundPolling ? outbound.startPolling(config.outboundPollIntervalSeconds) : () => undefined;
  const smtp = config.inboundSmtpPort === null ? null : await inbound.listen(config.inboundSmtpPort, config.bindHost);
  const stopBucket = config.bucketName ? await bucketSource(config, inbound, logger) : () => undefined;
  logger.info({ host: config.bindHost, http_port: http.port, smtp_port: smtp?.port ?? null }, 'mail worker listening');
  const stop = () => {
    logger.info('mail worker stopping');
    stopPolling();
    stopBucket();
    http.server.close();
    if (smtp) smtp.server.close(() => undefined);
    const exit = () => setTimeout(() => process.exit(0), 200).unref();
    beforeExit().then(exit, exit);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

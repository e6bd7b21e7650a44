import { DEFAULT_PROVIDER_MAP, parseProviderMap, type ProviderMap } from '../../../libs/mail';
import { createHmac } from 'node:crypto';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../../common/config/app-config';
import { readTracingSettings, type TracingSettings } from '../../common/tracing/tracing-settings';
import { MAIL_AUTH_POLICIES, type MailAuthPolicy } from './authentication';

/**
 * The mail worker's settings, from the environment, validated at start: every bad value is one line
 * naming the variable, and the worker refuses to start while there is any. Names of the spec
 * (PLATFORM_URL, PLATFORM_API_TOKEN, BUCKET_NAME, PROVIDER_MAP, MAIL_FROM_ADDRESS,
 * MAIL_CONFIGURATION_SET, WEBHOOK_SECRET) and ours (see docs/mail-integration.md).
 */
export interface MailWorkerConfig {
  platformUrl: string;
  platformApiToken: string;
  bucketName: string;
  /** S3-compatible endpoint of the bucket (empty: AWS S3 of the SDK's region). */
  s3Endpoint: string;
  inboundBucketPollIntervalSeconds: number;
  providerMap: ProviderMap;
  mailFromAddress: string;
  mailConfigurationSet: string;
  /** Empty: POST /webhook/outbound answers 404. */
  webhookSecret: string;
  enableOutboundPolling: boolean;
  outboundPollIntervalSeconds: number;
  /** HTTP port of /health and the webhooks (0: any free port). */
  port: number;
  /** Address both listeners (HTTP and SMTP) bind to (MAIL_WORKER_BIND_HOST; 127.0.0.1 unless set, the image sets 0.0.0.0). */
  bindHost: string;
  /** Largest message the SMTP listener takes (its SIZE); larger ones are refused with 552. */
  inboundMaxMessageBytes: number;
  /** What an inbound provider email must prove of its sender (MAIL_REQUIRE_AUTH); see authentication.ts. */
  requireAuth: MailAuthPolicy;
  /** Key of the signed notification id sent as the DSN envelope id and X-Notification-ID (TRACKING_ID_SECRET, else derived from the API token). */
  trackingIdKey: Buffer;
  /** Tracking events (SNS envelopes, signed SES events) older than this are refused as replays. */
  trackingMaxEventAgeSeconds: number;
  /** SMTP listener port for inbound mail; null: no listener. */
  inboundSmtpPort: number | null;
  /** Outbound SMTP transport URL (smtp:// or smtps://). */
  smtpUrl: string;
  transport: 'smtp' | 'ses';
  rawMailRetentionDays: number;
  /** SNS topics whose tracking events are accepted (comma-separated TRACKING_TOPIC_ARNS); empty: SNS envelopes refused. */
  trackingTopicArns: string[];
  /** Failed sends before the platform marks a notification failed is the platform's setting; this is the worker's lease. */
  claimLeaseSeconds: number;
  /** OpenTelemetry trace export, as the server's (OTEL_EXPORTER_OTLP_ENDPOINT and co.); undefined: off. */
  tracing: TracingSettings | undefined;
  /** LOG_LEVEL and LOG_FORMAT, read as the server reads them. */
  logLevel: LogLevel;
  logFormat: LogFormat | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export type MailWorkerConfigResult =
  { config: MailWorkerConfig; problems: []; warnings: string[] } | { config: null; problems: string[]; warnings: string[] };

export function readMailWorkerConfig(env: Env): MailWorkerConfigResult {
  const problems: string[] = [];
  const warnings: string[] = [];
  const value = (name: string) => (env[name] ?? '').trim();

  const url = (name: string, schemes: readonly string[], required: boolean): string => {
    const raw = value(name);
    if (!raw) {
      if (required) problems.push(`${name} is required (${schemes.map((s) => `${s}://…`).join(' or ')})`);
      return '';
    }
    try {
      const parsed = new URL(raw);
      if (!schemes.includes(parsed.protocol.replace(':', ''))) throw new Error('scheme');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be a ${schemes.join(' or ')} URL, got "${raw}"`);
      return '';
    }
  };
  const integer = (name: string, fallback: number | null, min: number, max: number): number | null => {
    const raw = value(name);
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = value(name).toLowerCase();
    if (!raw) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false, got "${env[name]}"`);
    return fallback;
  };

  const platformUrl = url('PLATFORM_URL', ['http', 'https'], true);
  const platformApiToken = value('PLATFORM_API_TOKEN');
  if (!platformApiToken) problems.push('PLATFORM_API_TOKEN is required (a platform API token with write access to the notices plugin)');
  let providerMap = DEFAULT_PROVIDER_MAP;
  if (value('PROVIDER_MAP')) {
    try {
      providerMap = parseProviderMap(value('PROVIDER_MAP'));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const mailFromAddress = value('MAIL_FROM_ADDRESS');
  if (mailFromAddress && !EMAIL.test(mailFromAddress))
    problems.push(`MAIL_FROM_ADDRESS must be an email address, got "${mailFromAddress}"`);
  const transport = (value('MAIL_TRANSPORT') || 'smtp').toLowerCase();
  if (transport !== 'smtp' && transport !== 'ses') problems.push(`MAIL_TRANSPORT must be smtp or ses, got "${env.MAIL_TRANSPORT}"`);
  const smtpUrl = url('SMTP_URL', ['smtp', 'smtps'], false);
  if (transport === 'ses')
    problems.push(
      "MAIL_TRANSPORT=ses is not available in this build (it needs the AWS SDK); send over SMTP (to SES's SMTP endpoint if need be)",
    );
  const webhookSecret = env.WEBHOOK_SECRET ?? '';
  // An inbound-only worker (a listener or a bucket, nothing to send with) starts with polling off rather
  // than refusing over settings it has no use for; an explicit ENABLE_OUTBOUND_POLLING=true still needs them.
  const inboundOnly =
    !value('ENABLE_OUTBOUND_POLLING') &&
    !webhookSecret &&
    !mailFromAddress &&
    !smtpUrl &&
    (value('INBOUND_SMTP_PORT') !== '' || value('BUCKET_NAME') !== '');
  const enableOutboundPolling = inboundOnly ? false : boolean('ENABLE_OUTBOUND_POLLING', true);
  if (inboundOnly)
    warnings.push(
      'sending is disabled: neither MAIL_FROM_ADDRESS nor SMTP_URL is set, so outbound polling is off (set them, or ENABLE_OUTBOUND_POLLING=false to silence this)',
    );
  const sending = enableOutboundPolling || webhookSecret !== '';
  if (sending && !mailFromAddress) problems.push('MAIL_FROM_ADDRESS is required to send (polling or the webhook is on)');
  if (sending && transport === 'smtp' && !smtpUrl) problems.push('SMTP_URL is required to send over SMTP (polling or the webhook is on)');
  const requireAuth = (value('MAIL_REQUIRE_AUTH') || 'dmarc').toLowerCase();
  if (!(MAIL_AUTH_POLICIES as readonly string[]).includes(requireAuth))
    problems.push(`MAIL_REQUIRE_AUTH must be one of ${MAIL_AUTH_POLICIES.join(', ')}, got "${env.MAIL_REQUIRE_AUTH}"`);
  const bindHost = value('MAIL_WORKER_BIND_HOST') || '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(bindHost)) problems.push(`MAIL_WORKER_BIND_HOST must be an IP address or host name, got "${bindHost}"`);
  const trackingIdSecret = env.TRACKING_ID_SECRET ?? '';
  if (trackingIdSecret !== '' && trackingIdSecret.length < 16) problems.push('TRACKING_ID_SECRET must be at least 16 characters');
  const choice = <T extends string>(name: string, choices: readonly T[]): T | undefined => {
    const raw = value(name).toLowerCase();
    const normalised = name === 'LOG_LEVEL' && raw === 'warning' ? 'warn' : raw;
    if (!raw) return undefined;
    const match = choices.find((candidate) => candidate === normalised);
    if (match === undefined) problems.push(`${name} must be one of ${choices.join(', ')}, got "${value(name)}"`);
    return match;
  };
  const config: MailWorkerConfig = {
    platformUrl,
    platformApiToken,
    bucketName: value('BUCKET_NAME'),
    s3Endpoint: url('S3_ENDPOINT', ['http', 'https'], false),
    inboundBucketPollIntervalSeconds: integer('INBOUND_BUCKET_POLL_INTERVAL', 60, 1, 86_400)!,
    providerMap,
    mailFromAddress,
    mailConfigurationSet: value('MAIL_CONFIGURATION_SET') || 'notices-tracking',
    webhookSecret,
    enableOutboundPolling,
    outboundPollIntervalSeconds: integer('OUTBOUND_POLL_INTERVAL', 300, 1, 86_400)!,
    port: integer('MAIL_WORKER_PORT', 8025, 0, 65_535)!,
    bindHost,
    inboundMaxMessageBytes: integer('INBOUND_MAX_MESSAGE_BYTES', 26_214_400, 1024, 104_857_600)!,
    requireAuth: requireAuth as MailAuthPolicy,
    // Without its own secret the key is derived from the API token: stable across restarts and replicas, never sent.
    trackingIdKey: createHmac('sha256', trackingIdSecret || platformApiToken)
      .update('notices tracking id')
      .digest(),
    trackingMaxEventAgeSeconds: integer('TRACKING_MAX_EVENT_AGE_SECONDS', 86_400, 60, 30 * 86_400)!,
    inboundSmtpPort: integer('INBOUND_SMTP_PORT', null, 0, 65_535),
    smtpUrl,
    transport: transport === 'ses' ? 'ses' : 'smtp',
    rawMailRetentionDays: integer('RAW_MAIL_RETENTION_DAYS', 30, 1, 3650)!,
    trackingTopicArns: value('TRACKING_TOPIC_ARNS')
      .split(',')
      .map((arn) => arn.trim())
      .filter(Boolean),
    claimLeaseSeconds: integer('CLAIM_LEASE_SECONDS', 300, 10, 3600)!,
    tracing: readTracingSettings(
      { value: (name) => value(name) || undefined, problem: (variable, message) => problems.push(`${variable} ${message}`) },
      'pki-mail-worker',
    ),
    logLevel: choice('LOG_LEVEL', LOG_LEVELS) ?? 'info',
    logFormat: choice('LOG_FORMAT', LOG_FORMATS),
  };
  return problems.length ? { config: null, problems, warnings } : { config, problems: [], warnings };
}

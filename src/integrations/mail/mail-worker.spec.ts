import { createHmac } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createTransport } from 'nodemailer';
import pino from 'pino';
import { BucketSource } from './bucket';
import { readMailWorkerConfig } from './config';
import { calendarMethod, htmlWithStyle, Outbound, validSignature } from './outbound';
import type { PlatformClient } from './platform-client';
import { isSnsUrl, sesEvent, snsStringToSign } from './tracking';

const BASE = { PLATFORM_URL: 'http://platform:8000', PLATFORM_API_TOKEN: 't', ENABLE_OUTBOUND_POLLING: 'false' };

describe('readMailWorkerConfig', () => {
  it('defaults of the spec and ours', () => {
    const { config } = readMailWorkerConfig(BASE);
    expect(config).toMatchObject({
      mailConfigurationSet: 'notices-tracking',
      webhookSecret: '',
      outboundPollIntervalSeconds: 300,
      inboundSmtpPort: null,
      transport: 'smtp',
      rawMailRetentionDays: 30,
    });
    expect(
      readMailWorkerConfig({
        PLATFORM_URL: 'http://p',
        PLATFORM_API_TOKEN: 't',
        MAIL_FROM_ADDRESS: 'a@b.example',
        SMTP_URL: 'smtp://relay:25',
      }).config,
    ).toMatchObject({ enableOutboundPolling: true });
  });

  it('one line per bad value, naming the variable', () => {
    expect(readMailWorkerConfig({ ...BASE, PROVIDER_MAP: '[1]', MAIL_WORKER_PORT: '70000', MAIL_TRANSPORT: 'pigeon' }).problems).toEqual([
      'PROVIDER_MAP must be a JSON object mapping sender domain to parser name',
      'MAIL_TRANSPORT must be smtp or ses, got "pigeon"',
      'MAIL_WORKER_PORT must be a whole number from 0 to 65535, got "70000"',
    ]);
  });
});

describe('outbound composition helpers', () => {
  it('the calendar method follows its METHOD line, PUBLISH when absent', () => {
    expect(calendarMethod('BEGIN:VCALENDAR\r\nMETHOD:CANCEL\r\nEND:VCALENDAR')).toBe('CANCEL');
    expect(calendarMethod('BEGIN:VCALENDAR\r\nEND:VCALENDAR')).toBe('PUBLISH');
  });

  it('puts the CSS in the head, whatever the HTML has', () => {
    expect(htmlWithStyle('<p>x</p>', 'p{}')).toBe('<!DOCTYPE html><html><head><style>p{}</style></head><body><p>x</p></body></html>');
    expect(htmlWithStyle('<html><head><title>t</title></head><body>x</body></html>', 'p{}')).toBe(
      '<html><head><style>p{}</style><title>t</title></head><body>x</body></html>',
    );
    expect(htmlWithStyle('<p>x</p>', '')).toBe('<p>x</p>');
    expect(htmlWithStyle('<p>x</p>', 'a{}</style><script>')).toContain('<\\/style><script>');
  });

  it('the webhook signature: lowercase hex HMAC-SHA512; missing, other case or empty secret refused', () => {
    const raw = Buffer.from('{"a":1}');
    const good = createHmac('sha512', 's').update(raw).digest('hex');
    expect(validSignature(raw, good, 's')).toBe(true);
    expect(validSignature(raw, good.toUpperCase(), 's')).toBe(false);
    expect(validSignature(raw, undefined, 's')).toBe(false);
    expect(validSignature(raw, good, '')).toBe(false);
  });
});

describe('tracking helpers', () => {
  it('SNS certificate URLs: https on an SNS host only', () => {
    expect(isSnsUrl('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem', /\.pem$/)).toBe(true);
    expect(isSnsUrl('http://sns.eu-west-1.amazonaws.com/x.pem', /\.pem$/)).toBe(false);
    expect(isSnsUrl('https://sns.eu-west-1.amazonaws.com.evil.example/x.pem', /\.pem$/)).toBe(false);
    expect(isSnsUrl('https://evil.example/sns.eu-west-1.amazonaws.com/x.pem', /\.pem$/)).toBe(false);
  });

  it('the string to sign keeps the fixed key order and leaves out an absent Subject', () => {
    expect(snsStringToSign({ Type: 'Notification', TopicArn: 'arn', Timestamp: 't', MessageId: 'm', Message: 'x' })).toBe(
      'Message\nx\nMessageId\nm\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n',
    );
    expect(snsStringToSign({ Type: 'Other' })).toBeNull();
  });

  it('an SES event without the notification_id tag or of an unknown type is not tracked', () => {
    expect(sesEvent({ eventType: 'Delivery', mail: { tags: {} } })).toBeNull();
    expect(sesEvent({ eventType: 'Subscription', mail: { tags: { notification_id: ['3'] } } })).toBeNull();
    expect(sesEvent({ eventType: 'Reject', mail: { tags: { notification_id: ['3'] } } })).toEqual({
      kind: 'Reject',
      notificationId: 3,
      message: 'Rejected: unknown',
    });
  });
});

describe('Outbound over SES', () => {
  it('sends the raw email with the notification_id tag and the configuration set, then moves it to sent', async () => {
    interface SesInput {
      Content: { Raw: { Data: Buffer } };
      [key: string]: unknown;
    }
    const commands: SesInput[] = [];
    class SendEmailCommand {
      constructor(readonly input: SesInput) {}
    }
    const sesClient = {
      send: async (command: SendEmailCommand) => {
        commands.push(command.input);
        return { MessageId: '0102018c-abc' };
      },
    };
    const moves: Array<[number, string, string]> = [];
    const platform = {
      claim: async (id: number) => ({
        claim_token: 'token',
        send_attempts: 1,
        notification: {
          id,
          status: 'ready',
          subject: 'Maintenance',
          body_text: 'Body',
          body_html: '',
          css: '',
          ical_content: '',
          headers: {},
          recipients: [{ email: 'alice@acme.example', name: 'Alice' }],
        },
      }),
      moveStatus: async (id: number, status: string, message: string) => {
        moves.push([id, status, message]);
        return { ok: true, status: 200, text: '' };
      },
      release: async () => {
        throw new Error('not expected');
      },
    } as unknown as PlatformClient;
    const transport = createTransport({ SES: { sesClient, SendEmailCommand } } as never);
    const outbound = new Outbound(
      platform,
      transport,
      {
        transport: 'ses',
        mailConfigurationSet: 'notices-tracking',
        mailFromAddress: 'noc@example.net',
        webhookSecret: '',
        claimLeaseSeconds: 60,
      },
      pino({ level: 'silent' }),
    );
    expect(await outbound.sendOne(42)).toBe('sent');
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      EmailTags: [{ Name: 'notification_id', Value: '42' }],
      ConfigurationSetName: 'notices-tracking',
      Destination: { ToAddresses: ['alice@acme.example'] },
    });
    expect(String(commands[0].Content.Raw.Data)).toContain('X-Notification-ID: 42');
    expect(moves).toEqual([[42, 'sent', expect.stringMatching(/^Sent over SES \(Message-ID <notification-42\./)]]);
  });
});

describe('BucketSource', () => {
  it('posts each new object once, tries a failed one again, deletes objects past the retention', async () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    const objects = new Map<string, { body: string; modified: Date }>([
      ['msg-new', { body: 'raw new', modified: new Date(now - 3_600_000) }],
      ['msg-flaky', { body: 'raw flaky', modified: new Date(now - 3_600_000) }],
      ['msg-old', { body: 'raw old', modified: new Date(now - 31 * 86_400_000) }],
    ]);
    const s3 = {
      send: async (command: unknown) => {
        if (command instanceof ListObjectsV2Command)
          return { Contents: [...objects].map(([Key, o]) => ({ Key, LastModified: o.modified })), IsTruncated: false };
        if (command instanceof GetObjectCommand) {
          const body = objects.get(command.input.Key!)!.body;
          return { Body: { transformToString: async () => body } };
        }
        if (command instanceof DeleteObjectCommand) {
          objects.delete(command.input.Key!);
          return {};
        }
        throw new Error('unexpected command');
      },
    };
    const received: string[] = [];
    let flakyFails = true;
    const inbound = {
      receive: async (raw: string) => {
        if (raw === 'raw flaky' && flakyFails) throw new Error('platform down');
        received.push(raw);
        return { status: 'processed' as const, inbound_email: 1 };
      },
    };
    const source = new BucketSource(s3 as never, 'inbound', inbound, 30, pino({ level: 'silent' }));
    expect(await source.pollOnce(now)).toEqual({ posted: 1, deleted: 1, failed: 1 });
    expect([...objects.keys()]).toEqual(['msg-new', 'msg-flaky']);
    flakyFails = false;
    expect(await source.pollOnce(now)).toEqual({ posted: 1, deleted: 0, failed: 0 });
    expect(received).toEqual(['raw new', 'raw flaky']);
  });
});

import { createHmac } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createTransport } from 'nodemailer';
import pino from 'pino';
import { BucketSource } from './bucket';
import { readMailWorkerConfig } from './config';
import { calendarMethod, composeMessage, htmlWithStyle, Outbound, validSignature } from './outbound';
import { readDeliveryReport, REPORT_MAX_RECIPIENTS } from './delivery-report';
import { InboundMail, PermanentRefusal } from './inbound';
import { PlatformError, type PlatformClient } from './platform-client';
import { isSnsUrl, sesEvent, snsStringToSign } from './tracking';
import { signedTrackingId, verifiedTrackingId } from './tracking-id';

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

  it('listeners on 127.0.0.1, sender authentication by DMARC, 25 MiB messages, unless set', () => {
    expect(readMailWorkerConfig(BASE).config).toMatchObject({
      bindHost: '127.0.0.1',
      requireAuth: 'dmarc',
      inboundMaxMessageBytes: 26_214_400,
    });
    expect(readMailWorkerConfig({ ...BASE, MAIL_WORKER_BIND_HOST: '0.0.0.0', MAIL_REQUIRE_AUTH: 'DKIM' }).config).toMatchObject({
      bindHost: '0.0.0.0',
      requireAuth: 'dkim',
    });
    expect(readMailWorkerConfig({ ...BASE, MAIL_REQUIRE_AUTH: 'spf', TRACKING_ID_SECRET: 'short' }).problems).toEqual([
      'MAIL_REQUIRE_AUTH must be one of dmarc, dkim, none, got "spf"',
      'TRACKING_ID_SECRET must be at least 16 characters',
    ]);
    // The tracking-id key: its own secret, else derived from the token (stable, and not the token itself).
    const derived = readMailWorkerConfig(BASE).config!.trackingIdKey;
    expect(derived.equals(readMailWorkerConfig(BASE).config!.trackingIdKey)).toBe(true);
    expect(derived.equals(readMailWorkerConfig({ ...BASE, TRACKING_ID_SECRET: 'a-secret-of-16-chars' }).config!.trackingIdKey)).toBe(false);
  });

  it('inbound only (a listener or a bucket, no sending settings): polling off with a warning; asked for explicitly, it needs them', () => {
    const bare = { PLATFORM_URL: 'http://p', PLATFORM_API_TOKEN: 't' };
    for (const inbound of [{ INBOUND_SMTP_PORT: '25' }, { BUCKET_NAME: 'mail' }]) {
      const { config, warnings } = readMailWorkerConfig({ ...bare, ...inbound });
      expect(config).toMatchObject({ enableOutboundPolling: false });
      expect(warnings).toEqual([expect.stringContaining('sending is disabled')]);
    }
    expect(readMailWorkerConfig({ ...bare, INBOUND_SMTP_PORT: '25', ENABLE_OUTBOUND_POLLING: 'false' }).warnings).toEqual([]);
    expect(readMailWorkerConfig({ ...bare, INBOUND_SMTP_PORT: '25', ENABLE_OUTBOUND_POLLING: 'true' }).problems).toEqual([
      'MAIL_FROM_ADDRESS is required to send (polling or the webhook is on)',
      'SMTP_URL is required to send over SMTP (polling or the webhook is on)',
    ]);
    expect(readMailWorkerConfig({ ...bare, INBOUND_SMTP_PORT: '25', SMTP_URL: 'smtp://relay:25' }).problems).toEqual([
      'MAIL_FROM_ADDRESS is required to send (polling or the webhook is on)',
    ]);
    expect(readMailWorkerConfig(bare).problems).toEqual([
      'MAIL_FROM_ADDRESS is required to send (polling or the webhook is on)',
      'SMTP_URL is required to send over SMTP (polling or the webhook is on)',
    ]);
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

  it("a notification's own Sender, Return-Path and other owned headers are dropped; its other headers kept", () => {
    const message = composeMessage(
      {
        id: 5,
        status: 'ready',
        subject: 'S',
        body_text: 'B',
        body_html: '',
        css: '',
        ical_content: '',
        headers: { Sender: 'ceo@victim.example', 'return-path': 'x@evil.example', From: 'x@evil.example', 'X-Ref': 'TTN-1' },
        recipients: [{ email: 'a@acme.example' }],
      },
      'noc@example.net',
      '5.tag',
    );
    expect(message.headers).toEqual({ 'X-Ref': 'TTN-1', 'X-Notification-ID': '5.tag' });
    expect(message.from).toBe('noc@example.net');
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
        trackingIdKey: Buffer.from('k'),
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
    expect(String(commands[0].Content.Raw.Data)).toContain(`X-Notification-ID: ${signedTrackingId(42, Buffer.from('k'))}`);
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

describe('signed tracking ids', () => {
  const key = Buffer.from('a-tracking-key');
  it('a signed id verifies under its key only; a bare or altered id does not', () => {
    const signed = signedTrackingId(42, key);
    expect(signed).toMatch(/^42\.[0-9a-f]{32}$/);
    expect(verifiedTrackingId(signed, key)).toBe(42);
    expect(verifiedTrackingId(signed, Buffer.from('another-key'))).toBeNull();
    expect(verifiedTrackingId('42', key)).toBeNull();
    expect(verifiedTrackingId(signed.replace(/^42/, '43'), key)).toBeNull();
    expect(verifiedTrackingId(`${signed}0`, key)).toBeNull();
  });
});

describe('readDeliveryReport', () => {
  const dsn = (statusPart: string, human = 'The message could not be delivered.') =>
    [
      'From: MAILER-DAEMON@relay.example.net',
      'Message-ID: <dsn-1@relay.example.net>',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      human,
      '--b',
      'Content-Type: message/delivery-status',
      '',
      statusPart,
      '--b--',
      '',
    ].join('\r\n');

  it('reads the delivery-status part only: fields in the human-readable part are not believed', async () => {
    const report = await readDeliveryReport(
      dsn(
        'Reporting-MTA: dns; relay.example.net\r\n\r\nFinal-Recipient: rfc822; a@acme.example\r\nAction: delayed\r\nStatus: 4.4.1',
        'Original-Envelope-Id: 9.forged\r\n\r\nFinal-Recipient: rfc822; x@acme.example\r\nAction: failed\r\nStatus: 5.1.1',
      ),
    );
    expect(report).toMatchObject({
      type: 'delivery-status',
      envelopeId: null,
      recipients: [{ recipient: 'a@acme.example', action: 'delayed', status: '4.4.1', diagnostic: '' }],
    });
  });

  it('64 000 Final-Recipient lines without an Action are read in time linear in the lines, recipients capped', async () => {
    const lines = (count: number) => `Original-Envelope-Id: 7.x\r\n\r\n${'Final-Recipient: rfc822; a@acme.example\r\n'.repeat(count)}`;
    const timedRead = async (count: number) => {
      const started = performance.now();
      const report = await readDeliveryReport(dsn(lines(count)));
      return { report, ms: performance.now() - started };
    };
    // 64 times the lines of the reference read: linear costs about 64 times as long, quadratic 4 096 times.
    const reference = await timedRead(1_000);
    const { report, ms } = await timedRead(64_000);
    expect(ms).toBeLessThan(Math.max(2000, 256 * reference.ms));
    expect(report).toMatchObject({ envelopeId: '7.x', recipients: [] });
    const many = `Original-Envelope-Id: 7.x\r\n\r\n${'Final-Recipient: rfc822; a@acme.example\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n'.repeat(5_000)}`;
    expect((await readDeliveryReport(dsn(many)))!.recipients).toHaveLength(REPORT_MAX_RECIPIENTS);
  });

  it('a message that is not a report is not read', async () => {
    expect(await readDeliveryReport('From: a@b.example\r\nContent-Type: text/plain\r\n\r\nAction: failed\r\n')).toBeNull();
  });
});

describe('InboundMail and the platform answers', () => {
  const settings = { providerMap: [], maxMessageBytes: 1024 * 1024, authentication: { policy: 'none' as const } };
  const inboundWith = (answer: (raw: string) => Promise<unknown>) =>
    new InboundMail({ postInboundEmail: answer } as unknown as PlatformClient, settings, pino({ level: 'silent' }));
  const raw = 'From: a@b.example\r\nMessage-ID: <m@b.example>\r\n\r\nbody\0with a NUL\r\n';

  it('a NUL is posted as U+FFFD; a 4xx refusal of the message is permanent; 5xx, throttling and its own credentials are temporary', async () => {
    const posted: string[] = [];
    await inboundWith(async (text) => {
      posted.push(text);
      return { status: 'unparsed', inbound_email: 1 };
    }).receive(raw);
    expect(posted).toEqual([raw.replace('\0', '\uFFFD')]);
    for (const status of [400, 413, 415]) {
      await expect(
        inboundWith(async () => {
          throw new PlatformError(status, '', 'inbound email');
        }).receive(raw),
      ).rejects.toBeInstanceOf(PermanentRefusal);
    }
    for (const status of [500, 503, 401, 429]) {
      const error = inboundWith(async () => {
        throw new PlatformError(status, '', 'inbound email');
      }).receive(raw);
      await expect(error).rejects.toBeInstanceOf(PlatformError);
    }
  });
});

import { execFileSync } from 'node:child_process';
import { createHmac, createSign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import pino from 'pino';
import { PlatformClient as WorkerPlatformClient } from '../src/integrations/mail/platform-client';
import { readMailWorkerConfig } from '../src/integrations/mail/config';
import { snsStringToSign, Tracking, type Fetcher } from '../src/integrations/mail/tracking';
import { signedTrackingId } from '../src/integrations/mail/tracking-id';
import { mailFixture } from './support/mail-fixtures';
import { startWorker, type WorkerProcess } from './support/mail-worker-process';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';
import { SES_EVENT_TYPES, sesEventFixture } from './support/ses-events';

const N = '/api/plugins/notices';
const PREPARED = `${N}/prepared-notifications/`;
const SECRET = 'tracking-secret';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:notices-tracking';
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-test.pem';
const TRACKING_ID_SECRET = 'tracking-id-secret-for-tests';
const TRACKING_ID_KEY = readMailWorkerConfig({
  PLATFORM_URL: 'http://p',
  PLATFORM_API_TOKEN: 't',
  TRACKING_ID_SECRET,
  ENABLE_OUTBOUND_POLLING: 'false',
}).config!.trackingIdKey;
/** The fixtures' events happened on 26 November 2026, a few minutes before this clock. */
const NOW = Date.parse('2026-11-26T09:05:00Z');

/** The spec's events table: the status each event leaves a sent notification in. */
const EXPECTED: Record<string, string> = {
  Send: 'sent',
  Delivery: 'delivered',
  Bounce: 'failed',
  Complaint: 'failed',
  Reject: 'failed',
  Open: 'sent',
  Click: 'sent',
  'Rendering Failure': 'failed',
  DeliveryDelay: 'sent',
};

/**
 * Delivery tracking: SES events posted directly (signed) and in SNS envelopes signed by a test
 * certificate (v1 SHA1, v2 SHA256; the certificate fetcher injected) give the spec's status or
 * journal entry; tampered or foreign envelopes are refused; events out of order end right; and a
 * DSN bounce or complaint report at the worker's SMTP listener fails the notification.
 */
describe('mail worker: tracking', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let tracking: Tracking;
  let key = '';
  let certificate = '';
  const fetched: string[] = [];
  const fx: Record<string, any> = {};

  const fetcher: Fetcher = async (url) => {
    fetched.push(url);
    if (url === CERT_URL) return { status: 200, text: certificate };
    if (url.startsWith('https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription'))
      return { status: 200, text: '<ConfirmSubscriptionResponse/>' };
    return { status: 404, text: '' };
  };
  const snsEnvelope = (message: unknown, version: '1' | '2', extra: Record<string, string> = {}) => {
    const envelope: Record<string, string> = {
      Type: 'Notification',
      MessageId: `msg-${Math.random().toString(16).slice(2)}`,
      TopicArn: TOPIC,
      Message: typeof message === 'string' ? message : JSON.stringify(message),
      Timestamp: '2026-11-26T09:00:05.000Z',
      SignatureVersion: version,
      SigningCertURL: CERT_URL,
      ...extra,
    };
    envelope.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(snsStringToSign(envelope)!)
      .sign(key, 'base64');
    return envelope;
  };
  const post = (body: unknown, signature?: string) => {
    const raw = Buffer.from(JSON.stringify(body));
    return tracking.webhook(raw, signature === undefined ? {} : { 'x-hook-signature': signature });
  };
  const signed = (body: unknown) => post(body, createHmac('sha512', SECRET).update(JSON.stringify(body)).digest('hex'));
  const notificationIn = async (status: 'ready' | 'sent') => {
    const created = await root.created(PREPARED, {
      template: fx.template.id,
      subject: 'Maintenance',
      body_text: 'Body',
      contacts: [fx.alice.id],
    });
    await root.patch(`${PREPARED}${created.id}/`, { status: 'ready' });
    if (status === 'sent') await root.patch(`${PREPARED}${created.id}/`, { status: 'sent', message: 'Sent in the test' });
    return created.id as number;
  };
  const statusOf = async (id: number) => (await root.get(`${PREPARED}${id}/`)).body.status.value as string;
  const journalOf = async (id: number) =>
    (
      (await root.get(`/api/extras/journal-entries/?assigned_object_type=notices.preparednotification&assigned_object_id=${id}`)).body
        .results as any[]
    ).map((entry) => ({ kind: entry.kind.value ?? entry.kind, comments: entry.comments as string }));

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sns-cert-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=sns.amazonaws.com',
      ],
      {
        stdio: 'ignore',
      },
    );
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
    certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
    rmSync(dir, { recursive: true });
    let base: string;
    ({ seeded, api: root, base } = await startPlatformApp());
    fx.base = base;
    fx.template = await root.created(`${N}/notification-templates/`, { name: 'Plain', slug: 'plain', subject_template: 'Notice' });
    fx.alice = await root.created('/api/tenancy/contacts/', { name: 'Alice', email: 'alice@acme.example' });
    tracking = new Tracking(
      new WorkerPlatformClient(base, root.token!),
      { trackingTopicArns: [TOPIC], webhookSecret: SECRET, trackingIdKey: TRACKING_ID_KEY, trackingMaxEventAgeSeconds: 3600 },
      pino({ level: 'silent' }),
      fetcher,
      () => NOW,
    );
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe.each([
    ['posted directly (signed with WEBHOOK_SECRET)', 'direct'],
    ['in an SNS envelope, signature v1', '1'],
    ['in an SNS envelope, signature v2', '2'],
  ] as const)('each SES event type %s', (_label, mode) => {
    it.each(SES_EVENT_TYPES.map((type) => [type]))('%s', async (type) => {
      const id = await notificationIn('sent');
      const event = sesEventFixture(type, id);
      const answer = mode === 'direct' ? await signed(event) : await post(snsEnvelope(event, mode));
      expect(answer).toMatchObject({ status: 200, body: { processed: 1, notification: id } });
      expect(await statusOf(id)).toBe(EXPECTED[type]);
      const journal = await journalOf(id);
      const last = journal.find((entry) => entry.comments.includes(`[${type === 'DeliveryDelay' ? 'Delivery Delay' : type}]`));
      expect(last).toBeDefined();
      if (EXPECTED[type] === 'sent') expect(last!.kind).toBe('info');
      else expect(last!.comments.startsWith(`Status: sent → ${EXPECTED[type]}`)).toBe(true);
    });
  });

  it('the messages follow the reference (recipients, bounce type, link…)', async () => {
    const id = await notificationIn('sent');
    await signed(sesEventFixture('Click', id));
    await signed(sesEventFixture('Bounce', id));
    const comments = (await journalOf(id)).map((entry) => entry.comments).join('\n');
    expect(comments).toContain('[Click] Link clicked: https://status.example.net/m/1');
    expect(comments).toContain('[Bounce] Bounce (Permanent/General) for bob@acme.example');
  });

  it('refuses a tampered SNS signature, a certificate off the SNS hosts, an unknown topic, and unsigned direct events', async () => {
    const id = await notificationIn('sent');
    const event = sesEventFixture('Delivery', id);
    const tampered = snsEnvelope(event, '2');
    tampered.Message = JSON.stringify(sesEventFixture('Bounce', id));
    expect(await post(tampered)).toEqual({ status: 403, body: { error: 'Invalid SNS signature' } });
    const before = fetched.length;
    const foreign = snsEnvelope(event, '1', { SigningCertURL: 'https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem' });
    expect((await post(foreign)).status).toBe(403);
    expect(fetched.length).toBe(before);
    expect((await post(snsEnvelope(event, '1', { TopicArn: 'arn:aws:sns:eu-west-1:999999999999:other' }))).body).toEqual({
      error: 'Unknown topic',
    });
    expect((await post(event)).status).toBe(403);
    expect((await post(event, 'f'.repeat(128))).status).toBe(403);
    expect(await statusOf(id)).toBe('sent');
  });

  it('confirms an SNS subscription by fetching its SubscribeURL', async () => {
    const subscribe = 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=abc';
    const envelope = snsEnvelope('You have chosen to subscribe', '2', {
      Type: 'SubscriptionConfirmation',
      SubscribeURL: subscribe,
      Token: 'abc',
    });
    expect(await post(envelope)).toEqual({ status: 200, body: { confirmed: true } });
    expect(fetched).toContain(subscribe);
  });

  it('out of order: a Delivery before the move to sent, a Bounce after a Delivery, a Delivery after a Bounce all end delivered', async () => {
    const early = await notificationIn('ready');
    await signed(sesEventFixture('Delivery', early));
    expect(await statusOf(early)).toBe('delivered');
    // The sender's own move to sent arrives late: refused, the delivered state stands.
    expect((await root.patch(`${PREPARED}${early}/`, { status: 'sent', message: 'late' })).status).toBe(400);
    expect(await statusOf(early)).toBe('delivered');

    const bounceAfter = await notificationIn('sent');
    await signed(sesEventFixture('Delivery', bounceAfter));
    await signed(sesEventFixture('Bounce', bounceAfter));
    expect(await statusOf(bounceAfter)).toBe('delivered');
    expect((await journalOf(bounceAfter)).some((entry) => entry.kind === 'warning' && entry.comments.startsWith('[Bounce]'))).toBe(true);

    const deliveryAfter = await notificationIn('sent');
    await signed(sesEventFixture('Bounce', deliveryAfter));
    await signed(sesEventFixture('Delivery', deliveryAfter));
    expect(await statusOf(deliveryAfter)).toBe('delivered');

    // Racing events on one notification: one final state, every event in the journal.
    const racing = await notificationIn('sent');
    await Promise.all(['Delivery', 'Bounce', 'Open', 'Complaint', 'Click'].map((type) => signed(sesEventFixture(type as any, racing))));
    expect(await statusOf(racing)).toBe('delivered');
    expect(await journalOf(racing)).toHaveLength(6);
  });

  it('replays: the same signed Bounce or SNS notification applied once; an event outside the accepted age refused', async () => {
    const direct = await notificationIn('sent');
    const bounce = sesEventFixture('Bounce', direct);
    expect((await signed(bounce)).status).toBe(200);
    expect((await signed(bounce)).status).toBe(200);
    expect((await journalOf(direct)).filter((entry) => entry.comments.includes('[Bounce]'))).toHaveLength(1);

    const enveloped = await notificationIn('sent');
    const envelope = snsEnvelope(sesEventFixture('Delivery', enveloped), '2');
    await post(envelope);
    await post(envelope);
    expect((await journalOf(enveloped)).filter((entry) => entry.comments.includes('[Delivery]'))).toHaveLength(1);

    const stale = await notificationIn('sent');
    const old = snsEnvelope(sesEventFixture('Bounce', stale), '2', { Timestamp: '2026-11-25T09:00:00.000Z' });
    expect((await post(old)).status).toBe(400);
    const oldDirect = { ...sesEventFixture('Bounce', stale), bounce: { bounceType: 'Permanent', timestamp: '2026-11-20T09:00:00.000Z' } };
    expect((await signed(oldDirect)).status).toBe(400);
    expect(await statusOf(stale)).toBe('sent');
  });

  describe('over SMTP', () => {
    let worker: WorkerProcess;
    beforeAll(async () => {
      worker = await startWorker({
        PLATFORM_URL: fx.base,
        PLATFORM_API_TOKEN: root.token!,
        INBOUND_SMTP_PORT: '0',
        ENABLE_OUTBOUND_POLLING: 'false',
        TRACKING_ID_SECRET,
      });
    });
    const envid = (id: number) => signedTrackingId(id, TRACKING_ID_KEY);
    afterAll(async () => worker?.stop());

    const sendReport = async (raw: string) => {
      const transport = createTransport({ host: '127.0.0.1', port: worker.smtpPort!, secure: false, ignoreTLS: true });
      try {
        await transport.sendMail({ envelope: { from: '', to: ['noc@notices.example'] }, raw });
      } finally {
        transport.close();
      }
    };

    it('a DSN bounce (RFC 3464) fails the notification; a complaint report (RFC 5965) too; neither becomes an inbound email', async () => {
      const bounced = await notificationIn('sent');
      await sendReport(mailFixture('reports/dsn-bounce.eml').replaceAll('{{ID}}', envid(bounced)));
      expect(await statusOf(bounced)).toBe('failed');
      expect((await journalOf(bounced))[0].comments).toMatch(
        /\[Bounce\] Bounce \(Permanent\/5\.1\.1\) for alice@acme\.example: smtp; 550 5\.1\.1 User unknown/,
      );
      const complained = await notificationIn('sent');
      await sendReport(mailFixture('reports/arf-complaint.eml').replaceAll('{{ID}}', envid(complained)));
      expect(await statusOf(complained)).toBe('failed');
      expect((await root.get(`${N}/inbound-emails/`)).body.count).toBe(0);
    });

    it('a DSN of a successful delivery → delivered', async () => {
      const id = await notificationIn('sent');
      const raw = mailFixture('reports/dsn-bounce.eml')
        .replaceAll('{{ID}}', envid(id))
        .replace('Action: failed', 'Action: delivered')
        .replace('Status: 5.1.1', 'Status: 2.0.0');
      await sendReport(raw);
      expect(await statusOf(id)).toBe('delivered');
    });

    it('forged reports: a DSN or complaint naming a bare sequential id changes nothing, in the envelope id or the returned headers', async () => {
      const id = await notificationIn('sent');
      await sendReport(mailFixture('reports/dsn-bounce.eml').replaceAll('{{ID}}', String(id)));
      await sendReport(
        mailFixture('reports/dsn-bounce.eml')
          .replace(/^Original-Envelope-Id: .*\n/m, '')
          .replaceAll('{{ID}}', String(id)),
      );
      await sendReport(mailFixture('reports/arf-complaint.eml').replaceAll('{{ID}}', `${id}.${'0'.repeat(32)}`));
      expect(await statusOf(id)).toBe('sent');
      expect(await journalOf(id)).toEqual([expect.objectContaining({ comments: expect.stringMatching(/^Status: ready → sent/) })]);
      // The signed id in the returned headers alone is believed.
      await sendReport(
        mailFixture('reports/dsn-bounce.eml')
          .replace(/^Original-Envelope-Id: .*\n/m, '')
          .replaceAll('{{ID}}', envid(id)),
      );
      expect(await statusOf(id)).toBe('failed');
    });

    it('a DSN of 64 000 Final-Recipient lines without an Action is taken at once and the worker stays responsive', async () => {
      const id = await notificationIn('sent');
      const report = (recipients: number) =>
        mailFixture('reports/dsn-bounce.eml')
          .replaceAll('{{ID}}', envid(id))
          .replace('Final-Recipient: rfc822; alice@acme.example\n', 'Final-Recipient: rfc822; alice@acme.example\n'.repeat(recipients))
          .replace('Action: failed\n', '');
      const timedSend = async (message: string) => {
        const started = Date.now();
        await sendReport(message);
        return Date.now() - started;
      };
      // Against the same report with one such line, taken by the same worker on the same machine: read
      // line by line the flood costs a few dozen of those; a parse quadratic in the lines, thousands.
      const oneLineMs = await timedSend(report(1));
      expect(await timedSend(report(64_000))).toBeLessThan(Math.max(5000, 200 * oneLineMs));
      expect((await fetch(`http://127.0.0.1:${worker.httpPort}/health`)).status).toBe(200);
      expect(await statusOf(id)).toBe('sent');
    });
  });
});

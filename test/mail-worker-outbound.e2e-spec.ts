import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { readMailWorkerConfig } from '../src/integrations/mail/config';
import { signedTrackingId } from '../src/integrations/mail/tracking-id';
import { startWorker, type WorkerProcess } from './support/mail-worker-process';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const N = '/api/plugins/notices';
const PREPARED = `${N}/prepared-notifications/`;
const SECRET = 'webhook-secret-for-tests';
const TRACKING_ID_SECRET = 'tracking-id-secret-for-tests';
const trackingId = (id: number) =>
  signedTrackingId(
    id,
    readMailWorkerConfig({ PLATFORM_URL: 'http://p', PLATFORM_API_TOKEN: 't', TRACKING_ID_SECRET, ENABLE_OUTBOUND_POLLING: 'false' })
      .config!.trackingIdKey,
  );
const ICAL =
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:m-1@test\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20261203T000000Z\r\nDTEND:20261203T040000Z\r\nSUMMARY:Fibre work\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

interface Received {
  raw: Buffer;
  envid: string | null;
  recipients: string[];
}

async function waitFor<T>(what: string, condition: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sign = (body: string, secret = SECRET) => createHmac('sha512', secret).update(body).digest('hex');

/** `mail_outbound_total{outcome}` on a worker's GET /metrics (Prometheus text). */
async function outboundCount(port: number, outcome: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const match = new RegExp(`^mail_outbound_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(await response.text());
  return Number(match?.[1] ?? 0);
}

/**
 * The mail worker's outbound side against a local SMTP sink: a ready notification is sent once with
 * the spec's composition (parsed back with mailparser), whatever races to send it (the poll and the
 * webhook, two worker processes); the webhook's signature is checked first; a failed send stays
 * ready with the error and a backoff; one the relay refuses for good fails at once.
 */
describe('mail worker: outbound', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let base = '';
  const received: Received[] = [];
  let sink: SMTPServer;
  let sinkPort = 0;
  const workers: WorkerProcess[] = [];
  const fx: Record<string, any> = {};

  const readyNotification = async (subject: string) => {
    const created = await root.created(PREPARED, {
      template: fx.template.id,
      subject,
      body_text: 'Planned fibre work on 3 December.',
      body_html: '<p>Planned <b>fibre</b> work on 3 December.</p>',
      css: 'p { color: #333; }',
      ical_content: ICAL,
      headers: { 'X-Maintenance-Ref': 'TTN-1', Subject: 'ignored', Sender: 'ceo@victim.example' },
      contacts: [fx.alice.id, fx.bob.id],
    });
    const ready = await root.patch(`${PREPARED}${created.id}/`, { status: 'ready' });
    expect(ready.status).toBe(200);
    return created.id as number;
  };
  const webhook = (port: number, body: string, signature?: string) =>
    fetch(`http://127.0.0.1:${port}/webhook/outbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'x-hook-signature': signature } : {}) },
      body,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  const readyPayload = (id: number, status: unknown = 'ready') =>
    JSON.stringify({ event: 'updated', object_type: 'notices.preparednotification', data: { id, status } });
  const workerEnv = (extra: Record<string, string> = {}) => ({
    PLATFORM_URL: base,
    PLATFORM_API_TOKEN: root.token!,
    MAIL_FROM_ADDRESS: 'noc@example.net',
    SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
    WEBHOOK_SECRET: SECRET,
    TRACKING_ID_SECRET,
    ...extra,
  });

  beforeAll(async () => {
    sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      hideDSN: false,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            raw: Buffer.concat(chunks),
            envid: session.envelope.dsn?.envid ?? null,
            recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkPort = (sink.server.address() as AddressInfo).port;
    ({ seeded, api: root, base } = await startPlatformApp());
    fx.template = await root.created(`${N}/notification-templates/`, { name: 'Plain', slug: 'plain', subject_template: 'Notice' });
    fx.alice = await root.created('/api/tenancy/contacts/', { name: 'Alice', email: 'alice@acme.example' });
    fx.bob = await root.created('/api/tenancy/contacts/', { name: 'Bob', email: 'bob@acme.example' });
  });

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await seeded?.db.end();
    await seeded?.testApp.close();
    await new Promise<void>((resolve) => sink?.close(() => resolve()));
  });

  it('poll and webhook of two worker processes racing: exactly one email, composed as the spec says', async () => {
    const id = await readyNotification('Maintenance on 3 December');
    const [a, b] = await Promise.all([
      startWorker(workerEnv({ OUTBOUND_POLL_INTERVAL: '1' })),
      startWorker(workerEnv({ OUTBOUND_POLL_INTERVAL: '1' })),
    ]);
    workers.push(a, b);
    const body = readyPayload(id, { value: 'ready', label: 'Ready' });
    const answers = await Promise.all([a, b, a, b].map((worker) => webhook(worker.httpPort, body, sign(body))));
    for (const answer of answers) expect(answer.status).toBe(200);
    await waitFor('the notification to be sent', async () => (await root.get(`${PREPARED}${id}/`)).body.status.value === 'sent');
    // Two more poll rounds of both workers: still one email.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // The DSN envelope id is the signed notification id, as is X-Notification-ID.
    const mine = received.filter((mail) => mail.envid === trackingId(id));
    expect(mine).toHaveLength(1);
    // Each worker's /metrics counts what it sent: one between them.
    expect((await outboundCount(a.httpPort, 'sent')) + (await outboundCount(b.httpPort, 'sent'))).toBe(1);

    const [mail] = mine;
    expect(mail.recipients.sort()).toEqual(['alice@acme.example', 'bob@acme.example']);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe('Maintenance on 3 December');
    expect((Array.isArray(parsed.to) ? parsed.to : [parsed.to!]).flatMap((to) => to.value.map((v) => v.address)).sort()).toEqual([
      'alice@acme.example',
      'bob@acme.example',
    ]);
    expect(parsed.from!.value[0].address).toBe('noc@example.net');
    expect(parsed.text).toContain('Planned fibre work on 3 December.');
    expect(parsed.html).toMatch(/<head><style>p \{ color: #333; \}<\/style><\/head><body><p>Planned <b>fibre<\/b>/);
    expect(parsed.headers.get('x-notification-id')).toBe(trackingId(id));
    expect(parsed.headers.has('sender')).toBe(false);
    expect(parsed.headers.get('x-maintenance-ref')).toBe('TTN-1');
    expect(mail.raw.toString().match(/^Subject:/gim)).toHaveLength(1);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.messageId).toMatch(new RegExp(`^<notification-${id}\\.[0-9a-f]+@example\\.net>$`));
    expect(mail.raw.toString()).toMatch(/Content-Type: multipart\/alternative/);
    const calendar = parsed.attachments.find((attachment) => attachment.contentType === 'text/calendar');
    expect(calendar).toBeDefined();
    expect((calendar!.headers.get('content-type') as any).params.method).toBe('REQUEST');
    expect(calendar!.content.toString()).toContain('SUMMARY:Fibre work');

    const notification = (await root.get(`${PREPARED}${id}/`)).body;
    expect(notification.sent_at).not.toBeNull();
    const journal = await root.get(
      `/api/extras/journal-entries/?assigned_object_type=notices.preparednotification&assigned_object_id=${id}`,
    );
    expect(journal.body.results.map((entry: any) => entry.comments)).toEqual([
      expect.stringMatching(/^Status: ready → sent\n\nSent over SMTP \(Message-ID <notification-/),
    ]);
  });

  it('the webhook checks the signature before anything else; a payload not ready is skipped', async () => {
    const [worker] = workers;
    const body = readyPayload(999_999);
    expect((await webhook(worker.httpPort, body)).status).toBe(403);
    expect((await webhook(worker.httpPort, body, sign(body, 'wrong-secret'))).status).toBe(403);
    expect((await webhook(worker.httpPort, body, sign(body).toUpperCase())).status).toBe(403);
    expect((await webhook(worker.httpPort, 'not json', 'abc')).body).toEqual({ error: 'Invalid signature' });
    expect((await webhook(worker.httpPort, 'not json', sign('not json'))).status).toBe(400);
    const draft = readyPayload(5, { value: 'draft', label: 'Draft' });
    expect(await webhook(worker.httpPort, draft, sign(draft))).toEqual({ status: 200, body: { skipped: true, reason: 'status is draft' } });
    const sent = readyPayload(5, 'sent');
    expect(await webhook(worker.httpPort, sent, sign(sent))).toEqual({ status: 200, body: { skipped: true, reason: 'status is sent' } });
  });

  it('a failed send stays ready with the error and a backoff; without a secret the webhook is 404', async () => {
    // The polling workers of the first test would send it through the sink.
    for (const worker of workers.splice(0)) await worker.stop();
    const id = await readyNotification('Will fail');
    const broken = await startWorker(workerEnv({ ENABLE_OUTBOUND_POLLING: 'false', SMTP_URL: 'smtp://127.0.0.1:1' }));
    workers.push(broken);
    const body = readyPayload(id);
    expect(await webhook(broken.httpPort, body, sign(body))).toEqual({ status: 200, body: { sent: 0, failed: 1 } });
    expect(await outboundCount(broken.httpPort, 'failed')).toBe(1);
    const notification = (await root.get(`${PREPARED}${id}/`)).body;
    expect(notification).toMatchObject({ status: { value: 'ready' }, send_attempts: 1 });
    expect(notification.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(new Date(notification.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    // Before the backoff ends, a second trigger does not send.
    expect((await webhook(broken.httpPort, body, sign(body))).body).toMatchObject({ skipped: true });

    const quiet = await startWorker({ PLATFORM_URL: base, PLATFORM_API_TOKEN: root.token!, ENABLE_OUTBOUND_POLLING: 'false' });
    workers.push(quiet);
    expect((await webhook(quiet.httpPort, body, sign(body))).status).toBe(404);
  });
  it('an email the relay refuses for good (550 for every recipient) fails the notification at once, without retries', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const refusal = new Error(`5.1.1 <${address.address}>: mailbox unavailable`) as Error & { responseCode: number };
        refusal.responseCode = 550;
        callback(refusal);
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const port = (refusing.server.address() as AddressInfo).port;
      const id = await readyNotification('Refused for good');
      const worker = await startWorker(workerEnv({ ENABLE_OUTBOUND_POLLING: 'false', SMTP_URL: `smtp://127.0.0.1:${port}` }));
      workers.push(worker);
      const body = readyPayload(id);
      expect(await webhook(worker.httpPort, body, sign(body))).toEqual({ status: 200, body: { sent: 0, failed: 1 } });
      const notification = (await root.get(`${PREPARED}${id}/`)).body;
      expect(notification).toMatchObject({ status: { value: 'failed' }, send_attempts: 1, next_attempt_at: null });
      expect(notification.last_error).toMatch(/550|mailbox unavailable/);
      const journal = await root.get(
        `/api/extras/journal-entries/?assigned_object_type=notices.preparednotification&assigned_object_id=${id}`,
      );
      expect(journal.body.results.map((entry: any) => entry.comments)).toContainEqual(
        expect.stringMatching(/^Status: ready → failed\n\nThe relay refused the email for good: /),
      );
      // No retry: another trigger finds it no longer ready.
      expect((await webhook(worker.httpPort, body, sign(body))).body).toMatchObject({ skipped: true });
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

import { connect } from 'node:net';
import { createTransport } from 'nodemailer';
import { mailFixture, variant } from './support/mail-fixtures';
import { runWorkerToExit, startWorker, type WorkerProcess } from './support/mail-worker-process';
import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const N = '/api/plugins/notices';

/**
 * The mail worker as its own process (`npm run mail-worker`) with its SMTP listener: provider emails
 * sent to it over real SMTP (nodemailer) become records through the platform API; the same email
 * again creates nothing, an older one does not overwrite, an unknown sender lands in unparsed.
 * Also its start: bad settings refused with one line each.
 */
describe('mail worker: inbound over SMTP', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let worker: WorkerProcess;

  const send = async (raw: string) => {
    const transport = createTransport({ host: '127.0.0.1', port: worker.smtpPort!, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ envelope: { from: 'mta@relay.example', to: ['maintenance@notices.example'] }, raw });
    } finally {
      transport.close();
    }
  };
  const maintenanceNamed = async (name: string) => {
    const response = await root.get(`${N}/maintenance/?name=${encodeURIComponent(name)}`);
    return response.body.results as any[];
  };
  const counts = async () => ({
    maintenances: await countRows(seeded.db, 'notices_maintenance'),
    impacts: await countRows(seeded.db, 'notices_impact'),
    notifications: await countRows(seeded.db, 'notices_eventnotification'),
    inbound: await countRows(seeded.db, 'notices_inboundemail'),
  });

  beforeAll(async () => {
    let base: string;
    ({ seeded, api: root, base } = await startPlatformApp());
    const type = await root.created('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
    const circuits: Record<string, string[]> = {
      zayo: ['ZYO/IPYX/100234', 'ZYO/WAVE/100235'],
      colt: ['LON/IPA/0012345'],
      cogent: ['1-300123456'],
      lumen: ['4412345678'],
      verizon: ['NLAMS/123456//VZB'],
      equinix: ['20123456-A'],
      arelion: ['IC-300123', 'IC-300124'],
    };
    for (const [slug, cids] of Object.entries(circuits)) {
      const provider = await root.created('/api/circuits/providers/', { name: slug.toUpperCase(), slug });
      for (const cid of cids) await root.created('/api/circuits/circuits/', { cid, provider: provider.id, type: type.id });
    }
    // The sample email of docs/mail-integration.md: a BCOP carrier in no provider map entry.
    const newcarrier = await root.created('/api/circuits/providers/', { name: 'newcarrier.example', slug: 'newcarrier' });
    await root.created('/api/circuits/circuits/', { cid: 'NC-0001', provider: newcarrier.id, type: type.id });
    worker = await startWorker({
      PLATFORM_URL: base,
      PLATFORM_API_TOKEN: root.token!,
      INBOUND_SMTP_PORT: '0',
      ENABLE_OUTBOUND_POLLING: 'false',
      // Sender authentication needs DNS: test/mail-worker-authentication.e2e-spec.ts checks it with fixed records.
      MAIL_REQUIRE_AUTH: 'none',
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('answers GET /health', async () => {
    const response = await fetch(`http://127.0.0.1:${worker.httpPort}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['zayo-scheduled.eml', 'TTN-0005123456', 'CONFIRMED', 2],
    ['colt-planned.eml', 'CRQ1-01987654', 'CONFIRMED', 1],
    ['cogent-scheduled.eml', '1-4567890123', 'CONFIRMED', 1],
    ['lumen-scheduled.eml', '26456789', 'CONFIRMED', 1],
    ['verizon-scheduled.eml', 'VZB-2026-778812', 'CONFIRMED', 1],
    ['equinix-scheduled.eml', '5-223344556677', 'CONFIRMED', 1],
    ['arelion-bcop-confirmed.eml', 'PWIC-2026-001122', 'CONFIRMED', 2],
  ])('%s sent to the listener creates its maintenance, impacts and event notification', async (file, name, status, impacts) => {
    await send(mailFixture(file));
    const [maintenance] = await maintenanceNamed(name);
    expect(maintenance).toMatchObject({ status: { value: status }, impact_count: impacts });
    const notifications = await root.get(
      `${N}/eventnotification/?event_content_type=notices.maintenance&event_object_id=${maintenance.id}`,
    );
    expect(notifications.body.count).toBe(1);
    expect(notifications.body.results[0].subject).toBe(/^Subject: (.*)$/m.exec(mailFixture(file))![1]);
  });

  it("the documentation's sample, a BCOP email of a sender in no map entry, creates its maintenance for the sender's provider", async () => {
    await send(mailFixture('newcarrier-bcop-unmapped.eml'));
    const [maintenance] = await maintenanceNamed('NC-2026-0001');
    expect(maintenance).toMatchObject({
      status: { value: 'CONFIRMED' },
      impact_count: 1,
      provider: expect.objectContaining({ name: 'newcarrier.example' }),
    });
  });

  it('the same emails again create nothing', async () => {
    const before = await counts();
    await send(mailFixture('zayo-scheduled.eml'));
    await send(mailFixture('arelion-bcop-confirmed.eml'));
    expect(await counts()).toEqual(before);
  });

  it('a newer email applies; an older one afterwards does not overwrite', async () => {
    await send(mailFixture('zayo-completed.eml'));
    expect((await maintenanceNamed('TTN-0005123456'))[0].status.value).toBe('COMPLETED');
    await send(variant(mailFixture('zayo-scheduled.eml'), { messageId: '<late-copy@zayo.com>' }));
    const [after] = await maintenanceNamed('TTN-0005123456');
    expect(after.status.value).toBe('COMPLETED');
  });

  it('an unknown sender creates no records and lands in unparsed-emails', async () => {
    const before = await counts();
    await send(mailFixture('unknown-sender.eml'));
    const after = await counts();
    expect(after).toEqual({ ...before, inbound: before.inbound + 1 });
    const unparsed = await root.get(`${N}/unparsed-emails/`);
    expect(unparsed.body.results).toEqual([
      expect.objectContaining({ message_id: '<newsletter-42@unknown-carrier.example>', reason: 'unknown_provider' }),
    ]);
  });

  it('a 3 MB provider notice (a PDF attached) is taken and applied, not deferred', async () => {
    const colt = mailFixture('colt-planned.eml').replace(/CRQ1-01987654/g, 'CRQ1-01111111');
    const split = colt.search(/\r?\n\r?\n/);
    const head = colt
      .slice(0, split)
      .replace(/^Message-ID: .*$/m, 'Message-ID: <large-1@colt.net>')
      .replace(/^Content-Type: .*$/m, 'Content-Type: multipart/mixed; boundary="outer"')
      .replace(/^Content-Transfer-Encoding: .*\r?\n?/m, '');
    const pdf = Buffer.alloc(3 * 1024 * 1024, 7)
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    const large = [
      head,
      '',
      '--outer',
      'Content-Type: text/plain; charset="utf-8"',
      'Content-Transfer-Encoding: 8bit',
      '',
      colt.slice(split).trim(),
      '--outer',
      'Content-Type: application/pdf; name="map.pdf"',
      'Content-Disposition: attachment; filename="map.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      pdf,
      '--outer--',
      '',
    ].join('\r\n');
    expect(large.length).toBeGreaterThan(3 * 1024 * 1024);
    await send(large);
    expect(await maintenanceNamed('CRQ1-01111111')).toHaveLength(1);
  });

  it('a message with a NUL byte is stored (never deferred)', async () => {
    const raw = variant(mailFixture('unknown-sender.eml'), { messageId: '<nul-1@unknown-carrier.example>' }).replace(
      'We opened',
      'We\0 opened',
    );
    await send(raw);
    const stored = await seeded.db.query(`SELECT raw FROM notices_inboundemail WHERE message_id = '<nul-1@unknown-carrier.example>'`);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].raw).toContain('We\uFFFD opened');
  });

  it('listens on MAIL_WORKER_BIND_HOST only, 127.0.0.1 by default', async () => {
    const reachable = (host: string, port: number) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1', worker.httpPort)).toBe(true);
    expect(await reachable('127.0.0.2', worker.httpPort)).toBe(false);
    expect(await reachable('127.0.0.2', worker.smtpPort!)).toBe(false);
    const other = await startWorker({
      PLATFORM_URL: 'http://127.0.0.1:1',
      PLATFORM_API_TOKEN: 't',
      INBOUND_SMTP_PORT: '0',
      ENABLE_OUTBOUND_POLLING: 'false',
      MAIL_WORKER_BIND_HOST: '127.0.0.2',
    });
    try {
      expect(await reachable('127.0.0.2', other.httpPort)).toBe(true);
      expect(await reachable('127.0.0.2', other.smtpPort!)).toBe(true);
      expect(await reachable('127.0.0.1', other.httpPort)).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it('starts inbound-only (INBOUND_SMTP_PORT, no sending settings) with sending disabled and a warning', async () => {
    const inboundOnly = await startWorker({
      PLATFORM_URL: 'http://127.0.0.1:1',
      PLATFORM_API_TOKEN: 't',
      INBOUND_SMTP_PORT: '0',
    });
    try {
      expect(inboundOnly.smtpPort).toEqual(expect.any(Number));
      const warning = inboundOnly
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":"warn"'))
        .map((line) => JSON.parse(line).msg as string);
      expect(warning).toEqual([expect.stringContaining('sending is disabled')]);
      expect((await fetch(`http://127.0.0.1:${inboundOnly.httpPort}/webhook/outbound`, { method: 'POST', body: '{}' })).status).toBe(404);
    } finally {
      await inboundOnly.stop();
    }
  });

  it('refuses to start on bad settings, one line per bad value', async () => {
    const { code, stderr } = await runWorkerToExit({
      PLATFORM_URL: 'ftp://platform',
      PROVIDER_MAP: '{zayo.com: zayo}',
      OUTBOUND_POLL_INTERVAL: 'soon',
      ENABLE_OUTBOUND_POLLING: 'true',
    });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringContaining('PLATFORM_URL must be a http or https URL'),
      expect.stringContaining('PLATFORM_API_TOKEN is required'),
      expect.stringContaining('PROVIDER_MAP is not valid JSON'),
      expect.stringContaining('MAIL_FROM_ADDRESS is required'),
      expect.stringContaining('SMTP_URL is required'),
      expect.stringContaining('OUTBOUND_POLL_INTERVAL must be a whole number'),
    ]);
  });
});

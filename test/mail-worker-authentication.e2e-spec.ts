import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { createTransport } from 'nodemailer';
import pino from 'pino';
import type { SMTPServer } from 'smtp-server';
import type { MailAuthPolicy } from '../src/integrations/mail/authentication';
import { InboundMail } from '../src/integrations/mail/inbound';
import { PlatformClient as WorkerPlatformClient } from '../src/integrations/mail/platform-client';
import { DEFAULT_PROVIDER_MAP } from '../libs/mail';
import { mailFixture, variant } from './support/mail-fixtures';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const N = '/api/plugins/notices';

/**
 * Sender authentication at the SMTP listener (MAIL_REQUIRE_AUTH), with a DNS of fixed records (no
 * network): zayo.com publishes a DMARC reject policy and a DKIM key, colt.net publishes no DMARC
 * policy. Messages are signed here with a key made for the test, sent over real SMTP to the
 * worker's listener and posted to the platform: a forged sender is kept unparsed as auth_failed,
 * an authenticated one is applied, and the results are stored on the inbound email either way.
 */
describe('mail worker: sender authentication', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let base = '';
  const listeners: SMTPServer[] = [];
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  let dmarcLookupFails = false;

  const records: Record<string, string> = {
    'test._domainkey.zayo.com': `v=DKIM1; k=rsa; p=${publicKey}`,
    '_dmarc.zayo.com': 'v=DMARC1; p=reject; adkim=r',
  };
  const resolver = async (name: string, type: string) => {
    if (dmarcLookupFails && name.startsWith('_dmarc.')) throw Object.assign(new Error('query timed out'), { code: 'ETIMEOUT' });
    const found = type === 'TXT' ? records[name.toLowerCase()] : undefined;
    if (found === undefined) throw Object.assign(new Error(`${name} ${type} not found`), { code: 'ENOTFOUND' });
    return [[found]];
  };

  const listener = async (policy: MailAuthPolicy) => {
    const inbound = new InboundMail(
      new WorkerPlatformClient(base, root.token!),
      { providerMap: DEFAULT_PROVIDER_MAP, maxMessageBytes: 26_214_400, authentication: { policy, resolver, hostname: 'mx.test' } },
      pino({ level: 'silent' }),
    );
    const { server, port } = await inbound.listen(0, '127.0.0.1');
    listeners.push(server);
    return port;
  };
  const send = async (port: number, raw: string) => {
    const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ envelope: { from: 'bounces@relay.example', to: ['maintenance@notices.example'] }, raw });
    } finally {
      transport.close();
    }
  };
  const signed = async (raw: string, domain = 'zayo.com') => {
    const message = raw.replace(/\r?\n/g, '\r\n');
    const key = { signingDomain: domain, selector: 'test', privateKey };
    // The signer reads signatureData; its type also asks for the key's fields at the top.
    const result = await dkimSign(message, { canonicalization: 'relaxed/relaxed', algorithm: 'rsa-sha256', ...key, signatureData: [key] });
    expect(result.errors).toEqual([]);
    return result.signatures + message;
  };
  const inboundRow = async (messageId: string) => {
    const { rows } = await seeded.db.query(
      `SELECT id, status, reason, detail, authentication FROM notices_inboundemail WHERE message_id = $1`,
      [messageId],
    );
    return rows[0];
  };
  const maintenanceCount = async (name: string) => (await root.get(`${N}/maintenance/?name=${encodeURIComponent(name)}`)).body.count;
  const zayo = (id: string) =>
    variant(mailFixture('zayo-scheduled.eml'), { messageId: `<${id}@zayo.com>` }).replace(/TTN-0005123456/g, `TTN-${id}`);
  const colt = (id: string) =>
    variant(mailFixture('colt-planned.eml'), { messageId: `<${id}@colt.net>` }).replace(/CRQ1-01987654/g, `CRQ1-${id.replace(/\W/g, '')}`);

  beforeAll(async () => {
    ({ seeded, api: root, base } = await startPlatformApp());
    const type = await root.created('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
    for (const slug of ['zayo', 'colt']) {
      const provider = await root.created('/api/circuits/providers/', { name: slug.toUpperCase(), slug });
      await root.created('/api/circuits/circuits/', { cid: `${slug}-1`, provider: provider.id, type: type.id });
    }
  });

  afterAll(async () => {
    for (const server of listeners) await new Promise<void>((resolve) => server.close(() => resolve()));
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('MAIL_REQUIRE_AUTH=dmarc: a DKIM-signed email of a domain with a DMARC policy is applied, its results stored', async () => {
    const port = await listener('dmarc');
    await send(port, await signed(zayo('signed-1')));
    expect(await maintenanceCount('TTN-signed-1')).toBe(1);
    const row = await inboundRow('<signed-1@zayo.com>');
    expect(row).toMatchObject({ status: 'processed' });
    expect(row.authentication).toMatch(/dkim=pass header\.i=@zayo\.com/);
    expect(row.authentication).toMatch(/dmarc=pass/);
  });

  it('MAIL_REQUIRE_AUTH=dmarc: a forged (unsigned, or signed by another domain) email of that domain is kept unparsed as auth_failed', async () => {
    const port = await listener('dmarc');
    await send(port, zayo('forged-1'));
    await send(port, await signed(zayo('forged-2'), 'attacker.example'));
    for (const id of ['forged-1', 'forged-2']) {
      expect(await maintenanceCount(`TTN-${id}`)).toBe(0);
      const row = await inboundRow(`<${id}@zayo.com>`);
      expect(row).toMatchObject({ status: 'unparsed', reason: 'auth_failed' });
      expect(row.detail).toMatch(/DMARC fail for zayo\.com \(policy reject\)/);
      expect(row.authentication).toMatch(/dmarc=fail/);
    }
    const listed = await root.get(`${N}/unparsed-emails/?reason=auth_failed`);
    expect(listed.body.results.map((r: any) => r.message_id).sort()).toEqual(['<forged-1@zayo.com>', '<forged-2@zayo.com>']);
    // Applying it is an explicit decision.
    const id = (await inboundRow('<forged-1@zayo.com>')).id;
    const refused = await root.post(`${N}/unparsed-emails/${id}/reprocess/`);
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('accept_unauthenticated');
    const accepted = await root.post(`${N}/unparsed-emails/${id}/reprocess/?accept_unauthenticated=true`);
    expect(accepted.body).toMatchObject({ status: 'processed' });
    expect(await maintenanceCount('TTN-forged-1')).toBe(1);
  });

  it('MAIL_REQUIRE_AUTH=dmarc: a domain without a DMARC policy is accepted, its results stored', async () => {
    const port = await listener('dmarc');
    await send(port, colt('nopolicy-1'));
    expect(await maintenanceCount('CRQ1-nopolicy1')).toBe(1);
    expect((await inboundRow('<nopolicy-1@colt.net>')).authentication).toMatch(/dmarc=none/);
  });

  it('MAIL_REQUIRE_AUTH=dkim: an unsigned email is refused even without a DMARC policy; an aligned signature passes', async () => {
    const port = await listener('dkim');
    await send(port, colt('unsigned-1'));
    expect(await inboundRow('<unsigned-1@colt.net>')).toMatchObject({ status: 'unparsed', reason: 'auth_failed' });
    await send(port, await signed(zayo('dkim-1')));
    expect(await maintenanceCount('TTN-dkim-1')).toBe(1);
  });

  it('MAIL_REQUIRE_AUTH=none: nothing is checked', async () => {
    const port = await listener('none');
    await send(port, zayo('unchecked-1'));
    expect(await inboundRow('<unchecked-1@zayo.com>')).toMatchObject({ status: 'processed', authentication: '' });
  });

  it('a DNS failure while checking is a temporary SMTP failure (451): the sender retries', async () => {
    const port = await listener('dmarc');
    dmarcLookupFails = true;
    try {
      await expect(send(port, zayo('dnsfail-1'))).rejects.toMatchObject({ responseCode: 451 });
    } finally {
      dmarcLookupFails = false;
    }
    expect(await inboundRow('<dnsfail-1@zayo.com>')).toBeUndefined();
  });
});

import { PASSWORD } from '../../../../test/support/api-client';
import { mailFixture, variant } from '../../../../test/support/mail-fixtures';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const N = '/api/plugins/notices';
const INBOUND = `${N}/inbound-email/`;
const MAINTENANCES = `${N}/maintenance/`;
const PREPARED = `${N}/prepared-notifications/`;

const window = (event: { start: string; end: string }) => [new Date(event.start).toISOString(), new Date(event.end).toISOString()];

/**
 * The platform end of the mail worker: raw provider emails posted to inbound-email/ become
 * maintenances, impacts and event notifications (idempotent by Message-ID, ordered by stamp and
 * sequence, NO-CHANGE keeping the status, frozen impacts reported), unparsed emails are listed with
 * their reason and can be re-submitted; and the outbound claim that makes sending exactly-once.
 */
describe('platform notices plugin: inbound email and outbound claims', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  const postRaw = (raw: string, query = '', client: PlatformClient = root) =>
    fetch(`${client.baseUrl}${INBOUND}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822', ...(client.token ? { authorization: `Token ${client.token}` } : {}) },
      body: raw,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

  const maintenanceNamed = async (name: string) => {
    const response = await root.get(`${MAINTENANCES}?name=${encodeURIComponent(name)}`);
    expect(response.body.count).toBe(1);
    return response.body.results[0];
  };
  const impactsOf = async (maintenanceId: number) => {
    const response = await root.get(`${N}/impact/?event_content_type=notices.maintenance&event_object_id=${maintenanceId}&limit=100`);
    return Object.fromEntries(
      (response.body.results as any[]).map((impact) => [fx.cids.get(impact.target_object_id), impact.impact?.value ?? impact.impact]),
    );
  };
  const journalOf = async (objectType: string, id: number) =>
    (await root.get(`/api/extras/journal-entries/?assigned_object_type=${objectType}&assigned_object_id=${id}`)).body.results as any[];
  const tableCounts = async () => ({
    maintenances: await countRows(seeded.db, 'notices_maintenance'),
    impacts: await countRows(seeded.db, 'notices_impact'),
    notifications: await countRows(seeded.db, 'notices_eventnotification'),
  });

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const type = await root.created('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
    fx.cids = new Map<number, string>();
    const circuits: Record<string, string[]> = {
      zayo: ['ZYO/IPYX/100234', 'ZYO/WAVE/100235'],
      colt: ['LON/IPA/0012345', 'LON/ETH/0067890'],
      cogent: ['1-300123456', '1-300123457'],
      lumen: ['4412345678', '4412345679'],
      verizon: ['NLAMS/123456//VZB', 'NLAMS/123457//VZB'],
      equinix: ['20123456-A'],
      arelion: ['IC-300123', 'IC-300124'],
    };
    for (const [slug, cids] of Object.entries(circuits)) {
      fx[slug] = await root.created('/api/circuits/providers/', { name: slug[0].toUpperCase() + slug.slice(1), slug });
      for (const cid of cids) {
        const circuit = await root.created('/api/circuits/circuits/', { cid, provider: fx[slug].id, type: type.id });
        fx.cids.set(circuit.id, cid);
      }
    }
    // Same cid at another provider: impacts match within the email's provider only.
    const other = await root.created('/api/circuits/providers/', { name: 'Other', slug: 'other' });
    await root.created('/api/circuits/circuits/', { cid: 'IC-999999', provider: other.id, type: type.id });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('each provider fixture creates its maintenance, impacts and event notification', () => {
    it.each([
      ['zayo-scheduled.eml', 'TTN-0005123456', 'CONFIRMED', { 'ZYO/IPYX/100234': 'OUTAGE', 'ZYO/WAVE/100235': 'REDUCED-REDUNDANCY' }],
      ['colt-planned.eml', 'CRQ1-01987654', 'CONFIRMED', { 'LON/IPA/0012345': 'OUTAGE', 'LON/ETH/0067890': 'OUTAGE' }],
      ['cogent-scheduled.eml', '1-4567890123', 'CONFIRMED', { '1-300123456': 'OUTAGE', '1-300123457': 'OUTAGE' }],
      ['lumen-scheduled.eml', '26456789', 'CONFIRMED', { '4412345678': 'OUTAGE', '4412345679': 'OUTAGE' }],
      ['verizon-scheduled.eml', 'VZB-2026-778812', 'CONFIRMED', { 'NLAMS/123456//VZB': 'OUTAGE', 'NLAMS/123457//VZB': 'OUTAGE' }],
      ['equinix-scheduled.eml', '5-223344556677', 'CONFIRMED', { '20123456-A': 'REDUCED-REDUNDANCY' }],
      ['arelion-bcop-confirmed.eml', 'PWIC-2026-001122', 'CONFIRMED', { 'IC-300123': 'OUTAGE', 'IC-300124': 'DEGRADED' }],
    ])('%s', async (file, name, status, impacts) => {
      const raw = mailFixture(file);
      const answer = await postRaw(raw);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ status: 'processed', results: [{ name, created: true, applied: true, frozen: false }] });
      const maintenance = await maintenanceNamed(name);
      expect(maintenance.status.value).toBe(status);
      expect(maintenance.summary.length).toBeGreaterThan(0);
      expect(await impactsOf(maintenance.id)).toEqual(impacts);
      const notifications = await root.get(
        `${N}/eventnotification/?event_content_type=notices.maintenance&event_object_id=${maintenance.id}`,
      );
      expect(notifications.body.count).toBe(1);
      const subject = /^Subject: (.*)$/m.exec(raw)![1];
      expect(notifications.body.results[0]).toMatchObject({ subject });
      expect(notifications.body.results[0].email_from).toMatch(/@/);
      const received = /^Date: (.*)$/m.exec(raw)![1];
      expect(new Date(notifications.body.results[0].email_received).getTime()).toBe(new Date(received).getTime());
      expect(notifications.body.results[0].email_body.length).toBeGreaterThan(20);
    });

    it("the BCOP window and stamp are the calendar's; an unknown circuit (IC-999999 is another provider's) is a warning journal entry", async () => {
      const maintenance = await maintenanceNamed('PWIC-2026-001122');
      expect(window(maintenance)).toEqual(['2026-12-14T23:00:00.000Z', '2026-12-15T03:00:00.000Z']);
      expect(maintenance.notice_sequence).toBe(1);
      expect(new Date(maintenance.notice_stamp).toISOString()).toBe('2026-11-29T10:00:00.000Z');
      const journal = await journalOf('notices.maintenance', maintenance.id);
      expect(journal).toHaveLength(1);
      expect(journal[0].kind.value ?? journal[0].kind).toBe('warning');
      expect(journal[0].comments).toContain('IC-999999');
    });
  });

  describe('idempotency and ordering', () => {
    it('the same email again creates nothing', async () => {
      const before = await tableCounts();
      for (const file of ['zayo-scheduled.eml', 'arelion-bcop-confirmed.eml']) {
        const again = await postRaw(mailFixture(file));
        expect(again.status).toBe(200);
        expect(again.body.status).toBe('duplicate');
      }
      expect(await tableCounts()).toEqual(before);
    });

    it('a newer notice applies; an older one (other Message-ID) is recorded but changes nothing', async () => {
      const completed = await postRaw(mailFixture('zayo-completed.eml'));
      expect(completed.body.results[0]).toMatchObject({ created: false, applied: true });
      const maintenance = await maintenanceNamed('TTN-0005123456');
      expect(maintenance.status.value).toBe('COMPLETED');
      const late = variant(mailFixture('zayo-scheduled.eml'), { messageId: '<ttn-0005123456-late-copy@zayo.com>' });
      const older = await postRaw(late);
      expect(older.status).toBe(201);
      expect(older.body.results[0]).toMatchObject({ applied: false });
      const after = await maintenanceNamed('TTN-0005123456');
      expect(after.status.value).toBe('COMPLETED');
      expect(after.last_updated).toBe(maintenance.last_updated);
      const notifications = await root.get(
        `${N}/eventnotification/?event_object_id=${maintenance.id}&event_content_type=notices.maintenance`,
      );
      expect(notifications.body.count).toBe(3);
    });

    it('a BCOP notice without a status (NO-CHANGE) keeps the status and moves the window', async () => {
      const answer = await postRaw(mailFixture('arelion-bcop-nochange.eml'));
      expect(answer.body.results[0]).toMatchObject({ applied: true });
      const maintenance = await maintenanceNamed('PWIC-2026-001122');
      expect(window(maintenance)).toEqual(['2026-12-15T00:00:00.000Z', '2026-12-15T04:00:00.000Z']);
      expect(maintenance.notice_sequence).toBe(2);
      expect(maintenance.status.value).toBe('CONFIRMED');
    });

    it('a notice with the same stamp and a lower sequence does not overwrite', async () => {
      const lower = variant(mailFixture('arelion-bcop-nochange.eml'), { messageId: '<seq-lower@arelion.com>' })
        .replace('SEQUENCE:2', 'SEQUENCE:1')
        .replace('DTSTART:20261215T000000Z', 'DTSTART:20261215T010000Z');
      expect((await postRaw(lower)).body.results[0]).toMatchObject({ applied: false });
      expect(window(await maintenanceNamed('PWIC-2026-001122'))[0]).toBe('2026-12-15T00:00:00.000Z');
    });

    it('impacts of a closed maintenance are frozen: reported in the answer and the journal, not retried', async () => {
      const cancelled = variant(mailFixture('zayo-completed.eml'), {
        messageId: '<ttn-0005123456-3@zayo.com>',
        date: 'Fri, 04 Dec 2026 09:00:00 +0000',
        subject: 'CANCELLED MAINTENANCE NOTIFICATION***Example Networks***TTN-0005123456***',
      }).replace('Hard Down - up to 4 hours', 'Degraded service');
      const answer = await postRaw(cancelled);
      expect(answer.status).toBe(201);
      expect(answer.body.results[0]).toMatchObject({ applied: true, frozen: true });
      const maintenance = await maintenanceNamed('TTN-0005123456');
      expect(maintenance.status.value).toBe('CANCELLED');
      expect((await impactsOf(maintenance.id))['ZYO/IPYX/100234']).toBe('OUTAGE');
      const journal = await journalOf('notices.maintenance', maintenance.id);
      expect(journal.some((entry) => /Impacts not changed/.test(entry.comments))).toBe(true);
    });

    it('a summary over 200 characters is cut; an empty one defaulted', async () => {
      const long = variant(mailFixture('arelion-bcop-confirmed.eml'), { messageId: '<long-summary@arelion.com>' })
        .replace(/PWIC-2026-001122/g, 'PWIC-LONG')
        .replace(/^SUMMARY:.*$/m, `SUMMARY:${'Long '.repeat(60)}`);
      expect((await postRaw(long)).status).toBe(201);
      const cut = await maintenanceNamed('PWIC-LONG');
      expect(cut.summary).toHaveLength(200);
      expect(cut.summary.endsWith('…')).toBe(true);
      const empty = variant(mailFixture('arelion-bcop-confirmed.eml'), { messageId: '<no-summary@arelion.com>' })
        .replace(/PWIC-2026-001122/g, 'PWIC-EMPTY')
        .replace(/^SUMMARY:.*\n/m, '');
      expect((await postRaw(empty)).status).toBe(201);
      expect((await maintenanceNamed('PWIC-EMPTY')).summary).toBe('arelion maintenance PWIC-EMPTY');
    });
  });

  describe('unparsed emails', () => {
    it('an unknown sender creates no records and is listed with its reason', async () => {
      const before = await tableCounts();
      const answer = await postRaw(mailFixture('unknown-sender.eml'));
      expect(answer).toMatchObject({ status: 200, body: { status: 'unparsed', reason: 'unknown_provider' } });
      expect(await tableCounts()).toEqual(before);
      const listed = await root.get(`${N}/unparsed-emails/`);
      expect(listed.status).toBe(200);
      expect(listed.body.results).toEqual([
        expect.objectContaining({
          id: answer.body.inbound_email,
          message_id: '<newsletter-42@unknown-carrier.example>',
          email_from: 'news@unknown-carrier.example',
          reason: 'unknown_provider',
          status: expect.objectContaining({ value: 'unparsed' }),
        }),
      ]);
      expect(listed.body.results[0].raw).toBeUndefined();
      const raw = await root.get(`${N}/inbound-emails/${answer.body.inbound_email}/raw/`);
      expect(raw.body.email).toContain('We opened three new PoPs');
    });

    it('an email the worker found no parser for is re-submittable once a parser is named', async () => {
      const raw = variant(mailFixture('colt-planned.eml'), { messageId: '<resubmit@colt.net>' }).replace(/CRQ1-01987654/g, 'CRQ1-09999999');
      const first = await postRaw(raw, '?parser=');
      expect(first.body).toMatchObject({ status: 'unparsed', reason: 'unknown_provider' });
      const again = await root.post(`${N}/unparsed-emails/${first.body.inbound_email}/reprocess/?parser=colt`);
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ status: 'processed', parser: 'colt', inbound_email: first.body.inbound_email });
      await maintenanceNamed('CRQ1-09999999');
      expect((await root.get(`${N}/unparsed-emails/`)).body.results.map((r: any) => r.id)).not.toContain(first.body.inbound_email);
      expect((await root.post(`${N}/unparsed-emails/${first.body.inbound_email}/reprocess/`)).status).toBe(404);
    });

    it('inbound-email/{id}/reparse/: an email no map entry led to a parser is stored with the closest parser, then re-parsed once the map knows the sender', async () => {
      const raw = variant(mailFixture('verizon-scheduled.eml'), { messageId: '<reparse-1@verizon.com>' }).replace(
        /VZB-2026-778812/g,
        'VZB-2026-REPARSE',
      );
      const first = await postRaw(raw, '?parser=');
      expect(first.body).toMatchObject({ status: 'unparsed', reason: 'unknown_provider', closest_parser: 'verizon' });
      expect(first.body.detail).toContain('the verizon parser reads it');
      const id = first.body.inbound_email;
      const stored = (await root.get(`${N}/inbound-emails/${id}/`)).body;
      expect(stored).toMatchObject({ parser: 'verizon', reason: 'unknown_provider', uncertainties: [] });
      expect(Number(stored.confidence)).toBe(1);
      expect(stored.reasons).toEqual([expect.stringContaining('MASTARS request VZB-2026-REPARSE')]);
      const again = await root.post(`${N}/inbound-email/${id}/reparse/`);
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ status: 'processed', parser: 'verizon', inbound_email: id, confidence: 1, uncertainties: [] });
      expect(again.body.reasons).toEqual(expect.arrayContaining([expect.stringContaining('verizon.com → verizon')]));
      const maintenance = await maintenanceNamed('VZB-2026-REPARSE');
      expect(await impactsOf(maintenance.id)).toEqual({ 'NLAMS/123456//VZB': 'OUTAGE', 'NLAMS/123457//VZB': 'OUTAGE' });
      const processed = (await root.get(`${N}/inbound-emails/${id}/`)).body;
      expect(processed).toMatchObject({ status: expect.objectContaining({ value: 'processed' }), reason: '', parser: 'verizon' });
      expect(processed.reasons).toEqual(again.body.reasons);
      const twice = await root.post(`${N}/inbound-email/${id}/reparse/`);
      expect(twice.status).toBe(400);
      expect(twice.body.status[0]).toContain('applied');
      expect((await root.post(`${N}/inbound-email/2147483000/reparse/`)).status).toBe(404);
    });

    it('a provider the platform does not have → provider_not_found; a format the parser cannot read → unsupported_format', async () => {
      const telstra = variant(mailFixture('arelion-bcop-confirmed.eml'), { messageId: '<telstra-1@telstra.com>' })
        .replace(/ncm@arelion.com/g, 'noc@telstra.com')
        .replace('X-MAINTNOTE-PROVIDER:arelion', 'X-MAINTNOTE-PROVIDER:telstra');
      expect((await postRaw(telstra)).body).toMatchObject({ status: 'unparsed', reason: 'provider_not_found' });
      const broken = variant(mailFixture('cogent-scheduled.eml'), { messageId: '<broken@cogentco.com>' }).replace(
        /Work order number:/g,
        'Reference:',
      );
      expect((await postRaw(broken)).body).toMatchObject({ status: 'unparsed', reason: 'unsupported_format' });
    });

    it("forged senders: a calendar naming another provider than the sender's → provider_mismatch; a look-alike domain → unknown_provider", async () => {
      const before = await tableCounts();
      const calendar = variant(mailFixture('arelion-bcop-confirmed.eml'), { messageId: '<forged-zayo@arelion.com>' })
        .replace('X-MAINTNOTE-PROVIDER:arelion', 'X-MAINTNOTE-PROVIDER:zayo')
        .replace(/PWIC-2026-001122/g, 'FORGED-1')
        .replace(/IC-30012[34]/g, 'ZYO/IPYX/100234');
      expect((await postRaw(calendar)).body).toMatchObject({ status: 'unparsed', reason: 'provider_mismatch' });
      expect((await postRaw(calendar.replace('<forged-zayo@', '<forged-zayo-2@'), '?parser=arelion')).body).toMatchObject({
        status: 'unparsed',
        reason: 'provider_mismatch',
      });
      const lookalike = variant(mailFixture('zayo-scheduled.eml'), { messageId: '<lookalike@zayo.com.attacker.example>' })
        .replace(/mr@zayo\.com/g, 'x@zayo.com.attacker.example')
        .replace(/TTN-0005123456/g, 'TTN-FORGED');
      expect((await postRaw(lookalike)).body).toMatchObject({ status: 'unparsed', reason: 'unknown_provider' });
      expect(await tableCounts()).toEqual(before);
    });

    it("a BCOP email from a sender in no map entry is read as BCOP for the sender's own domain only", async () => {
      const carrier = await root.created('/api/circuits/providers/', { name: 'newcarrier.example', slug: 'newcarrier' });
      const type = (await root.get('/api/circuits/circuit-types/?slug=transit')).body.results[0];
      await root.created('/api/circuits/circuits/', { cid: 'NC-0001', provider: carrier.id, type: type.id });
      const bcop = (provider: string, messageId: string, ticket: string) =>
        variant(mailFixture('arelion-bcop-confirmed.eml'), { messageId })
          .replace(/ncm@arelion\.com/g, 'noc@newcarrier.example')
          .replace('X-MAINTNOTE-PROVIDER:arelion', `X-MAINTNOTE-PROVIDER:${provider}`)
          .replace(/PWIC-2026-001122/g, ticket)
          .replace(/IC-30012[34]/g, 'NC-0001');
      const before = await tableCounts();
      // As the worker posts it when no map entry matched the sender (`?parser=` empty).
      const foreign = await postRaw(bcop('zayo', '<nc-forged@newcarrier.example>', 'NC-FORGED'), '?parser=');
      expect(foreign.body).toMatchObject({ status: 'unparsed', reason: 'provider_mismatch' });
      expect(await tableCounts()).toEqual(before);
      const own = await postRaw(bcop('newcarrier.example', '<nc-1@newcarrier.example>', 'NC-MAINT-1'), '?parser=');
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ status: 'processed', parser: 'bcop', results: [expect.objectContaining({ created: true })] });
      const maintenance = await maintenanceNamed('NC-MAINT-1');
      expect(maintenance).toMatchObject({ provider: expect.objectContaining({ id: carrier.id }), impact_count: 1 });
    });

    it("the worker's sender authentication: results stored; a refused sender kept unparsed (auth_failed), never applied", async () => {
      const before = await tableCounts();
      const raw = variant(mailFixture('zayo-scheduled.eml'), { messageId: '<auth-refused@zayo.com>' }).replace(
        /TTN-0005123456/g,
        'TTN-AUTH-1',
      );
      const results = 'dkim=none; spf=none; dmarc=fail header.from=zayo.com';
      const answer = await postRaw(
        raw,
        `?parser=zayo&authentication=${encodeURIComponent(results)}&auth_failed=${encodeURIComponent('DMARC fail for zayo.com (policy reject)')}`,
      );
      expect(answer.body).toMatchObject({ status: 'unparsed', reason: 'auth_failed', detail: 'DMARC fail for zayo.com (policy reject)' });
      expect(await tableCounts()).toEqual(before);
      const stored = await root.get(`${N}/inbound-emails/${answer.body.inbound_email}/`);
      expect(stored.body).toMatchObject({ authentication: results, reason: 'auth_failed' });
      const passed = variant(raw, { messageId: '<auth-passed@zayo.com>' });
      const applied = await postRaw(passed, `?parser=zayo&authentication=${encodeURIComponent('dkim=pass; dmarc=pass')}`);
      expect(applied.body).toMatchObject({ status: 'processed' });
      expect((await root.get(`${N}/inbound-emails/${applied.body.inbound_email}/`)).body.authentication).toBe('dkim=pass; dmarc=pass');
    });

    it('a body that is not message/rfc822 is a 400 naming the email; a caller without add on event notifications gets 403', async () => {
      const json = await root.post(INBOUND, { email: 'x' });
      expect(json.status).toBe(400);
      expect(json.body).toHaveProperty('email');
      const user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
      expect((await postRaw(mailFixture('zayo-scheduled.eml'), '', user)).status).toBe(403);
      expect((await user.get(`${N}/unparsed-emails/`)).status).toBe(403);
    });
  });

  describe('outbound claims', () => {
    let notification: any;
    beforeAll(async () => {
      const template = await root.created(`${N}/notification-templates/`, { name: 'Plain', slug: 'plain', subject_template: 'Notice' });
      const contact = await root.created('/api/tenancy/contacts/', { name: 'Alice', email: 'alice@acme.example' });
      notification = await root.created(PREPARED, {
        template: template.id,
        subject: 'Maintenance',
        body_text: 'Body',
        contacts: [contact.id],
      });
      expect((await root.patch(`${PREPARED}${notification.id}/`, { status: 'ready' })).status).toBe(200);
    });

    it('a delivery event given with an event_id is applied once: its replay changes nothing and adds no journal entry', async () => {
      const other = await root.created(PREPARED, {
        template: notification.template.id ?? notification.template,
        subject: 'Replay',
        body_text: 'B',
      });
      const event = { event: 'Open', message: 'Opened', event_id: 'sns:0001' };
      expect((await root.post(`${PREPARED}${other.id}/delivery-event/`, event)).body).toEqual({ status: 'draft', changed: false });
      expect((await root.post(`${PREPARED}${other.id}/delivery-event/`, event)).body).toEqual({
        status: 'draft',
        changed: false,
        duplicate: true,
      });
      expect(await journalOf('notices.preparednotification', other.id)).toHaveLength(1);
      expect((await root.post(`${PREPARED}${other.id}/delivery-event/`, { ...event, event_id: 'x'.repeat(201) })).status).toBe(400);
      expect((await root.get(`${PREPARED}${other.id}/`)).body).not.toHaveProperty('delivery_event_ids');
    });

    it('of racing claims exactly one wins; the others get 409 naming why', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => root.post(`${PREPARED}${notification.id}/claim/`, { lease_seconds: 60 })),
      );
      const won = answers.filter((answer) => answer.status === 200);
      expect(won).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(5);
      expect(won[0].body).toMatchObject({ send_attempts: 1, notification: { id: notification.id, subject: 'Maintenance' } });
      expect(won[0].body.claim_token).toMatch(/^[0-9a-f]{32}$/);
      fx.claim = won[0].body.claim_token;
    });

    it('a failed send releases the claim with a backoff; the last allowed failure moves it to failed', async () => {
      const wrong = await root.post(`${PREPARED}${notification.id}/release/`, { claim_token: 'nope', error: 'x' });
      expect(wrong.status).toBe(409);
      const notBoolean = await root.post(`${PREPARED}${notification.id}/release/`, { claim_token: fx.claim, error: 'x', permanent: 'yes' });
      expect(notBoolean.status).toBe(400);
      expect(notBoolean.body).toEqual({ permanent: ['Must be true or false.'] });
      const released = await root.post(`${PREPARED}${notification.id}/release/`, { claim_token: fx.claim, error: 'connection refused' });
      expect(released.status).toBe(200);
      expect(released.body).toMatchObject({ status: 'ready', send_attempts: 1 });
      expect(new Date(released.body.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
      const early = await root.post(`${PREPARED}${notification.id}/claim/`);
      expect(early.status).toBe(409);
      expect(JSON.stringify(early.body)).toContain('next attempt');
      // Four more failures (the default outbound_max_attempts is 5), each after its backoff.
      for (let attempt = 2; attempt <= 5; attempt += 1) {
        await seeded.db.query(`UPDATE notices_preparednotification SET next_attempt_at = now() - interval '1 second' WHERE id = $1`, [
          notification.id,
        ]);
        const claim = await root.post(`${PREPARED}${notification.id}/claim/`);
        expect(claim.body.send_attempts).toBe(attempt);
        const release = await root.post(`${PREPARED}${notification.id}/release/`, {
          claim_token: claim.body.claim_token,
          error: `boom ${attempt}`,
        });
        expect(release.body.status).toBe(attempt === 5 ? 'failed' : 'ready');
      }
      const failed = (await root.get(`${PREPARED}${notification.id}/`)).body;
      expect(failed).toMatchObject({ status: { value: 'failed' }, last_error: 'boom 5', send_attempts: 5 });
      const journal = await journalOf('notices.preparednotification', notification.id);
      expect(journal.some((entry) => entry.comments.startsWith('Status: ready → failed'))).toBe(true);
      // A retry by the operator starts afresh.
      const retried = await root.patch(`${PREPARED}${notification.id}/`, { status: 'ready' });
      expect(retried.body).toMatchObject({ send_attempts: 0, last_error: '', next_attempt_at: null });
      expect((await root.post(`${PREPARED}${notification.id}/claim/`)).status).toBe(200);
    });
  });
});

import { PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { SeededApp, startSeededApp } from './support/seeded-app';

/**
 * NetBox's change log (`/api/core/object-changes/`) and journal (`/api/extras/journal-entries/`):
 * one ObjectChange per created, updated or deleted object with NetBox's snapshots, written in the
 * transaction of the change itself, attributed to the caller and to the request.
 */
describe('platform change log and journal', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  /** admin1: no platform rights but those granted below (the PKI role "admin" is not a platform superuser). */
  let admin1: PlatformClient;
  let tenantId: number;

  beforeAll(async () => {
    seeded = await startSeededApp();
    const { api, testApp } = seeded;
    root = new PlatformClient(testApp.baseUrl, await provisionToken(api, 'root', PASSWORD));
    admin1 = new PlatformClient(testApp.baseUrl, await provisionToken(api, 'admin1', PASSWORD));

    tenantId = (await created(root.post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' }))).id;
    await created(root.post('/api/extras/tags/', { name: 'Beta', slug: 'beta' }));
    await created(root.post('/api/extras/tags/', { name: 'Alpha', slug: 'alpha' }));
    await created(root.post('/api/extras/custom-fields/', { name: 'asset_owner', type: 'text', object_types: ['dcim.site'] }));
    // admin1 may add, view and change sites, but only planned ones; and may write journal entries.
    await created(
      root.post('/api/users/permissions/', {
        name: 'planned sites',
        object_types: ['dcim.site'],
        actions: ['view', 'add', 'change'],
        constraints: { status: 'planned' },
        users: [seeded.w.admin1.id],
      }),
    );
    await created(
      root.post('/api/users/permissions/', {
        name: 'journal',
        object_types: ['extras.journalentry'],
        actions: ['view', 'add'],
        users: [seeded.w.admin1.id],
      }),
    );
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  /** The body of a 201, failing the test (with the body) on anything else. */
  async function created(pending: Promise<{ status: number; body: any; text: string }>): Promise<any> {
    const response = await pending;
    if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${response.text}`);
    return response.body;
  }

  async function changes(query: string): Promise<any[]> {
    const response = await root.get(`/api/core/object-changes/?limit=1000&${query}`);
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(response.body.results.length);
    return response.body.results;
  }

  async function changeRowCount(): Promise<number> {
    const { rows } = await seeded.db.query<{ count: number }>('SELECT count(*)::int AS count FROM core_objectchange');
    return rows[0].count;
  }

  async function siteCount(namePrefix: string): Promise<number> {
    const { rows } = await seeded.db.query<{ count: number }>('SELECT count(*)::int AS count FROM dcim_site WHERE name LIKE $1', [
      `${namePrefix}%`,
    ]);
    return rows[0].count;
  }

  /** A nested reference may be rendered as an id or as `{id, …}`; either way, its id. */
  function refId(value: unknown): unknown {
    return typeof value === 'object' && value !== null ? (value as { id: unknown }).id : value;
  }

  const numeric = (values: number[]) => [...values].sort((a, b) => a - b);

  /**
   * A snapshot without last_updated. NetBox leaves last_updated out of snapshots while CHANGELOG_SKIP_EMPTY_CHANGES is
   * on (its default), so that an update changing nothing compares equal; that is asserted on its own below.
   */
  function comparable(snapshot: Record<string, unknown> | null): Record<string, unknown> | null {
    if (snapshot === null) return null;
    const { last_updated: _lastUpdated, ...rest } = snapshot;
    return rest;
  }

  const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

  describe('create, update and delete of a site', () => {
    let siteId: number;
    let createdChange: any;

    it('records a create with the caller, the request id and the postchange snapshot (relations as ids, tags as names, custom fields)', async () => {
      const before = Date.now();
      const response = await root.post('/api/dcim/sites/', {
        name: 'Lifecycle',
        slug: 'lifecycle',
        status: 'active',
        tenant: tenantId,
        facility: 'Hall 7',
        description: 'first',
        tags: ['Beta', 'alpha'],
        custom_fields: { asset_owner: 'ops' },
      });
      expect(response.status).toBe(201);
      siteId = response.body.id;
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toBeTruthy();

      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}`);
      expect(rows).toHaveLength(1);
      createdChange = rows[0];
      expect(createdChange).toMatchObject({
        id: expect.any(Number),
        url: expect.stringContaining(`/api/core/object-changes/${createdChange.id}/`),
        user_name: 'root',
        request_id: requestId,
        action: { value: 'create', label: 'Created' },
        changed_object_type: 'dcim.site',
        changed_object_id: siteId,
        related_object_type: null,
        related_object_id: null,
        related_object: null,
        object_repr: 'Lifecycle',
        message: '',
        prechange_data: null,
      });
      expect(refId(createdChange.user)).toBe(seeded.w.root.id);
      expect(createdChange.changed_object).toMatchObject({ id: siteId, name: 'Lifecycle', slug: 'lifecycle' });
      expect(createdChange.time).toMatch(ISO_TIME);
      const time = Date.parse(createdChange.time);
      expect(time).toBeGreaterThanOrEqual(before - 5000);
      expect(time).toBeLessThanOrEqual(Date.now() + 5000);

      // last_updated is compared apart (see "snapshots leave last_updated out" below).
      expect(comparable(createdChange.postchange_data)).toEqual({
        created: expect.stringMatching(ISO_TIME),
        name: 'Lifecycle',
        slug: 'lifecycle',
        status: 'active',
        region: null,
        group: null,
        tenant: tenantId,
        facility: 'Hall 7',
        time_zone: '',
        physical_address: '',
        shipping_address: '',
        latitude: null,
        longitude: null,
        description: 'first',
        comments: '',
        custom_fields: { asset_owner: 'ops' },
        tags: ['Alpha', 'Beta'],
      });
      expect(createdChange.postchange_data.created).toBe(response.body.created);
    });

    it('records an update with the prechange snapshot equal to the previous postchange and the X-Changelog-Message', async () => {
      const response = await root.patch(
        `/api/dcim/sites/${siteId}/`,
        { status: 'planned', tenant: null, tags: ['Beta'], custom_fields: { asset_owner: 'noc' } },
        { 'X-Changelog-Message': 'maintenance window' },
      );
      expect(response.status).toBe(200);

      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}&action=update`);
      expect(rows).toHaveLength(1);
      const [update] = rows;
      expect(update).toMatchObject({
        user_name: 'root',
        request_id: response.headers.get('x-request-id'),
        action: { value: 'update', label: 'Updated' },
        changed_object_type: 'dcim.site',
        changed_object_id: siteId,
        object_repr: 'Lifecycle',
        message: 'maintenance window',
      });
      expect(update.request_id).not.toBe(createdChange.request_id);
      expect(comparable(update.prechange_data)).toEqual(comparable(createdChange.postchange_data));
      expect(comparable(update.postchange_data)).toEqual({
        ...comparable(createdChange.postchange_data),
        status: 'planned',
        tenant: null,
        tags: ['Beta'],
        custom_fields: { asset_owner: 'noc' },
      });
      // Newest first (NetBox orders the change log by -time).
      const all = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}`);
      expect(all.map((row) => row.action.value)).toEqual(['update', 'create']);
    });

    it('takes the message from a changelog_message body field, which wins over the header', async () => {
      const response = await root.patch(
        `/api/dcim/sites/${siteId}/`,
        { description: 'second', changelog_message: 'from the body' },
        { 'X-Changelog-Message': 'from the header' },
      );
      expect(response.status).toBe(200);
      expect(response.body.description).toBe('second');
      const rows = await changes(`request_id=${response.headers.get('x-request-id')}`);
      expect(rows).toHaveLength(1);
      expect(rows[0].message).toBe('from the body');
      expect(rows[0].prechange_data.description).toBe('first');
      expect(rows[0].postchange_data.description).toBe('second');
      // changelog_message is not a field of the object.
      expect(rows[0].postchange_data).not.toHaveProperty('changelog_message');
    });

    it('records a delete with the last state as prechange and no postchange', async () => {
      const [latest] = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}`);
      const response = await root.delete(`/api/dcim/sites/${siteId}/`, undefined, { 'X-Changelog-Message': 'decommissioned' });
      expect(response.status).toBe(204);

      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}&action=delete`);
      expect(rows).toHaveLength(1);
      const [deletion] = rows;
      expect(deletion).toMatchObject({
        user_name: 'root',
        request_id: response.headers.get('x-request-id'),
        action: { value: 'delete', label: 'Deleted' },
        changed_object_type: 'dcim.site',
        changed_object_id: siteId,
        // The object is gone, but the record keeps naming it.
        changed_object: null,
        object_repr: 'Lifecycle',
        message: 'decommissioned',
        postchange_data: null,
      });
      expect(comparable(deletion.prechange_data)).toEqual(comparable(latest.postchange_data));
      const history = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}`);
      expect(history.map((row) => row.action.value)).toEqual(['delete', 'update', 'update', 'create']);
    });

    // NetBox 4 (CHANGELOG_SKIP_EMPTY_CHANGES, default True): snapshots exclude last_updated (ChangeLoggingMixin.snapshot
    // and to_objectchange), and an update whose snapshots are equal records no ObjectChange (ObjectChange.has_changes).
    it('snapshots leave last_updated out, as NetBox’s do by default', async () => {
      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${siteId}`);
      for (const row of rows) {
        for (const snapshot of [row.prechange_data, row.postchange_data]) {
          if (snapshot !== null) expect(snapshot).not.toHaveProperty('last_updated');
        }
      }
    });

    it('an update that changes nothing records no change, as in NetBox by default', async () => {
      const site = await created(root.post('/api/dcim/sites/', { name: 'Unchanged', slug: 'unchanged', description: 'same' }));
      const response = await root.patch(`/api/dcim/sites/${site.id}/`, { description: 'same' });
      expect(response.status).toBe(200);
      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${site.id}`);
      expect(rows.map((row) => row.action.value)).toEqual(['create']);
    });
  });

  describe('request ids', () => {
    it('gives every row of one bulk request the request id of its response, and per-item changelog_message', async () => {
      const response = await root.post('/api/dcim/sites/', [
        { name: 'Bulk A', slug: 'bulk-a', changelog_message: 'first of two' },
        { name: 'Bulk B', slug: 'bulk-b' },
      ]);
      expect(response.status).toBe(201);
      const requestId = response.headers.get('x-request-id');
      const rows = await changes(`request_id=${requestId}`);
      expect(numeric(rows.map((row) => row.changed_object_id))).toEqual(numeric(response.body.map((site: any) => site.id)));
      const byName = Object.fromEntries(rows.map((row) => [row.object_repr, row]));
      expect(byName['Bulk A'].message).toBe('first of two');
      expect(byName['Bulk B'].message).toBe('');
      for (const row of rows) expect(row).toMatchObject({ action: { value: 'create' }, request_id: requestId, user_name: 'root' });
    });

    it('records the X-Request-ID a client sent (and the response echoes it)', async () => {
      const requestId = '4b7e5cfa-0d1e-4c5b-9a55-0c8f1a2b3c4d';
      const response = await root.post('/api/dcim/sites/', { name: 'Client id', slug: 'client-id' }, { 'X-Request-ID': requestId });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-request-id')).toBe(requestId);
      const rows = await changes(`request_id=${requestId}`);
      expect(rows).toHaveLength(1);
      expect(rows[0].changed_object_id).toBe(response.body.id);
    });

    it('records a longer client X-Request-ID that the app accepts and echoes (a write must not fail because of it)', async () => {
      // The request-logging middleware accepts ids of up to 128 characters and echoes them.
      const requestId = `trace-${'0123456789abcdef'.repeat(4)}`;
      const response = await root.post('/api/dcim/sites/', { name: 'Long id', slug: 'long-id' }, { 'X-Request-ID': requestId });
      expect(response.headers.get('x-request-id')).toBe(requestId);
      expect(response.status).toBe(201);
      const rows = await changes(`request_id=${requestId}`);
      expect(rows.map((row) => row.object_repr)).toEqual(['Long id']);
    });
  });

  describe('rows are written in the transaction of the change', () => {
    it('a bulk create that fails part-way writes neither objects nor change rows', async () => {
      const before = await changeRowCount();
      // Both items pass validation (neither name exists yet); the second insert then violates the unique name.
      const response = await root.post('/api/dcim/sites/', [
        { name: 'Atomic twin', slug: 'atomic-twin-1' },
        { name: 'Atomic twin', slug: 'atomic-twin-2' },
      ]);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await siteCount('Atomic twin')).toBe(0);
      expect(await changeRowCount()).toBe(before);
      expect(await changes(`request_id=${response.headers.get('x-request-id')}`)).toEqual([]);
    });

    it('a bulk update that fails part-way leaves the first object and the change log unchanged', async () => {
      const [a, b] = await created(
        root.post('/api/dcim/sites/', [
          { name: 'Swap A', slug: 'swap-a' },
          { name: 'Swap B', slug: 'swap-b' },
        ]),
      );
      const before = await changeRowCount();
      const response = await root.patch('/api/dcim/sites/', [
        { id: a.id, name: 'Swap C' },
        { id: b.id, name: 'Swap C' },
      ]);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect((await root.get(`/api/dcim/sites/${a.id}/`)).body.name).toBe('Swap A');
      expect(await changeRowCount()).toBe(before);
    });

    it('a bulk validation error writes nothing', async () => {
      const before = await changeRowCount();
      const response = await root.post('/api/dcim/sites/', [
        { name: 'Valid one', slug: 'valid-one' },
        { name: 'Invalid one', slug: 'invalid-one', status: 'bogus' },
      ]);
      expect(response.status).toBe(400);
      expect(response.body).toEqual([{}, { status: [expect.any(String)] }]);
      expect(await siteCount('Valid one')).toBe(0);
      expect(await changeRowCount()).toBe(before);
    });

    it('a caller without permission gets 403 and no row is written', async () => {
      const before = await changeRowCount();
      const noRights = new PlatformClient(seeded.testApp.baseUrl, await provisionToken(seeded.api, 'user1', PASSWORD));
      const response = await noRights.post('/api/dcim/sites/', { name: 'Forbidden', slug: 'forbidden', status: 'planned' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: expect.any(String) });
      expect(await siteCount('Forbidden')).toBe(0);
      expect(await changeRowCount()).toBe(before);
    });

    it('a 403 raised after the first item of a bulk create was written (constraint violated) rolls back its change row too', async () => {
      const before = await changeRowCount();
      const response = await admin1.post('/api/dcim/sites/', [
        { name: 'Constrained planned', slug: 'constrained-planned', status: 'planned' },
        { name: 'Constrained active', slug: 'constrained-active', status: 'active' },
      ]);
      expect(response.status).toBe(403);
      expect(await siteCount('Constrained')).toBe(0);
      expect(await changeRowCount()).toBe(before);
    });

    it('an update leaving the permitted constraints is refused with 403 and not recorded', async () => {
      const site = await created(admin1.post('/api/dcim/sites/', { name: 'Admin planned', slug: 'admin-planned', status: 'planned' }));
      const before = await changeRowCount();
      const response = await admin1.patch(`/api/dcim/sites/${site.id}/`, { status: 'active' });
      expect(response.status).toBe(403);
      expect((await root.get(`/api/dcim/sites/${site.id}/`)).body.status.value).toBe('planned');
      expect(await changeRowCount()).toBe(before);
    });

    it('attributes a permitted change to its caller (user and user_name)', async () => {
      const response = await admin1.post('/api/dcim/sites/', { name: 'By admin1', slug: 'by-admin1', status: 'planned' });
      expect(response.status).toBe(201);
      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${response.body.id}`);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ user_name: 'admin1', request_id: response.headers.get('x-request-id') });
      expect(refId(rows[0].user)).toBe(seeded.w.admin1.id);
    });
  });

  describe('filters', () => {
    let siteA: number;
    let siteB: number;
    let tenant: number;
    let updateRequestId: string;

    beforeAll(async () => {
      siteA = (await created(root.post('/api/dcim/sites/', { name: 'Filter A', slug: 'filter-a' }))).id;
      siteB = (await created(admin1.post('/api/dcim/sites/', { name: 'Filter B', slug: 'filter-b', status: 'planned' }))).id;
      tenant = (await created(root.post('/api/tenancy/tenants/', { name: 'Filter tenant', slug: 'filter-tenant' }))).id;
      const update = await root.patch(`/api/dcim/sites/${siteA}/`, { description: 'touched' });
      expect(update.status).toBe(200);
      updateRequestId = update.headers.get('x-request-id')!;
    });

    it('changed_object_type selects one object type', async () => {
      const sites = await changes('changed_object_type=dcim.site');
      expect(sites.length).toBeGreaterThan(0);
      expect(sites.every((row) => row.changed_object_type === 'dcim.site')).toBe(true);
      expect(sites.some((row) => row.changed_object_id === siteA)).toBe(true);
      const tenants = await changes('changed_object_type=tenancy.tenant');
      expect(tenants.every((row) => row.changed_object_type === 'tenancy.tenant')).toBe(true);
      expect(tenants.map((row) => row.changed_object_id)).toContain(tenant);
      expect(tenants.map((row) => row.changed_object_id)).not.toContain(siteA);
    });

    it('changed_object_id with the type selects one object; action narrows it', async () => {
      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${siteA}`);
      expect(rows.map((row) => row.action.value)).toEqual(['update', 'create']);
      const creates = await changes(`changed_object_type=dcim.site&changed_object_id=${siteA}&action=create`);
      expect(creates).toHaveLength(1);
      const both = await changes(`changed_object_type=dcim.site&changed_object_id=${siteA}&changed_object_id=${siteB}&action=create`);
      expect(numeric(both.map((row) => row.changed_object_id))).toEqual(numeric([siteA, siteB]));
    });

    it('user_name, user_id and request_id', async () => {
      const byAdmin = await changes('user_name=admin1');
      expect(byAdmin.length).toBeGreaterThan(0);
      expect(byAdmin.every((row) => row.user_name === 'admin1')).toBe(true);
      expect(byAdmin.map((row) => row.changed_object_id)).toContain(siteB);
      const byAdminId = await changes(`user_id=${seeded.w.admin1.id}`);
      expect(numeric(byAdminId.map((row) => row.id))).toEqual(numeric(byAdmin.map((row) => row.id)));
      const byRequest = await changes(`request_id=${updateRequestId}`);
      expect(byRequest).toHaveLength(1);
      expect(byRequest[0]).toMatchObject({ changed_object_id: siteA, action: { value: 'update' } });
    });

    it('user (by username), as NetBox’s ObjectChangeFilterSet offers', async () => {
      const byAdmin = await changes('user_name=admin1');
      const byUser = await changes('user=admin1');
      expect(numeric(byUser.map((row) => row.id))).toEqual(numeric(byAdmin.map((row) => row.id)));
    });

    it('an invalid action choice is a 400', async () => {
      const response = await root.get('/api/core/object-changes/?action=explode');
      expect(response.status).toBe(400);
      expect(response.body).toHaveProperty('action');
    });
  });

  describe('the change log is read-only', () => {
    it('refuses POST, PUT, PATCH and DELETE with a 4xx and changes nothing', async () => {
      const [row] = await changes('changed_object_type=dcim.site');
      const before = await changeRowCount();
      const forged = { changed_object_type: 'dcim.site', changed_object_id: 1, action: 'create', object_repr: 'forged' };
      const attempts = [
        await root.post('/api/core/object-changes/', forged),
        await root.patch('/api/core/object-changes/', [{ id: row.id, message: 'forged' }]),
        await root.delete('/api/core/object-changes/', [{ id: row.id }]),
        await root.put(`/api/core/object-changes/${row.id}/`, forged),
        await root.patch(`/api/core/object-changes/${row.id}/`, { message: 'forged' }),
        await root.delete(`/api/core/object-changes/${row.id}/`),
      ];
      for (const attempt of attempts) {
        // NetBox answers 405 (Method Not Allowed); this app has no write routes at all here.
        expect([404, 405]).toContain(attempt.status);
      }
      expect(await changeRowCount()).toBe(before);
      const again = await root.get(`/api/core/object-changes/${row.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(row);
    });
  });

  describe('journal entries', () => {
    let site: any;
    let otherSite: any;
    let siteDeletion: { requestId: string };

    beforeAll(async () => {
      site = await created(root.post('/api/dcim/sites/', { name: 'Journaled', slug: 'journaled', status: 'planned' }));
      otherSite = await created(root.post('/api/dcim/sites/', { name: 'Other journaled', slug: 'other-journaled' }));
    });

    it('creates an entry on an object, with created_by the caller and the kind as a choice', async () => {
      const response = await root.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        kind: 'warning',
        comments: 'Fans are loud',
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        id: expect.any(Number),
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        assigned_object: { id: site.id, name: 'Journaled' },
        kind: { value: 'warning', label: 'Warning' },
        comments: 'Fans are loud',
      });
      expect(refId(response.body.created_by)).toBe(seeded.w.root.id);
    });

    it('defaults the kind to info and sets created_by from another caller', async () => {
      const response = await admin1.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        comments: 'Checked by admin1',
      });
      expect(response.status).toBe(201);
      expect(response.body.kind).toEqual({ value: 'info', label: 'Info' });
      expect(refId(response.body.created_by)).toBe(seeded.w.admin1.id);
      await created(
        root.post('/api/extras/journal-entries/', {
          assigned_object_type: 'dcim.site',
          assigned_object_id: otherSite.id,
          kind: 'danger',
          comments: 'Elsewhere',
        }),
      );
    });

    it('lists entries filtered by the assigned object, by kind and by author', async () => {
      const list = await root.get(`/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=${site.id}`);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((entry: any) => entry.comments).sort()).toEqual(['Checked by admin1', 'Fans are loud']);
      const other = await root.get(`/api/extras/journal-entries/?assigned_object_id=${otherSite.id}`);
      expect(other.body.results.map((entry: any) => entry.comments)).toEqual(['Elsewhere']);
      const warnings = await root.get('/api/extras/journal-entries/?kind=warning');
      expect(warnings.body.results.map((entry: any) => entry.comments)).toEqual(['Fans are loud']);
      const byAdmin = await root.get(`/api/extras/journal-entries/?created_by_id=${seeded.w.admin1.id}`);
      expect(byAdmin.body.results.map((entry: any) => entry.comments)).toEqual(['Checked by admin1']);
      const all = await root.get('/api/extras/journal-entries/');
      expect(all.body.count).toBe(3);
      expect((await root.get('/api/extras/journal-entries/?kind=bogus')).status).toBe(400);
    });

    it('refuses an unknown kind', async () => {
      const response = await root.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        kind: 'critical',
        comments: 'x',
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['kind']);
    });

    it('refuses an unknown assigned object, an unknown object type and missing fields with 400', async () => {
      const before = await changeRowCount();
      const missingObject = await root.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: 987654,
        comments: 'nowhere',
      });
      expect(missingObject.status).toBe(400);
      expect(Object.keys(missingObject.body)).toEqual(['assigned_object_id']);
      const unknownType = await root.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.nothing',
        assigned_object_id: site.id,
        comments: 'nowhere',
      });
      expect(unknownType.status).toBe(400);
      expect(Object.keys(unknownType.body)).toEqual(['assigned_object_type']);
      const empty = await root.post('/api/extras/journal-entries/', {});
      expect(empty.status).toBe(400);
      expect(Object.keys(empty.body).sort()).toEqual(['assigned_object_id', 'assigned_object_type', 'comments']);
      expect(await changeRowCount()).toBe(before);
    });

    it('records journal entries in the change log with related_object pointing at the assigned object', async () => {
      const rows = await changes('changed_object_type=extras.journalentry&action=create');
      expect(rows).toHaveLength(3);
      const onSite = rows.filter((row) => row.related_object_id === site.id);
      expect(onSite).toHaveLength(2);
      for (const row of onSite) {
        expect(row).toMatchObject({
          related_object_type: 'dcim.site',
          related_object_id: site.id,
          related_object: { id: site.id, name: 'Journaled' },
          changed_object: { id: row.changed_object_id },
        });
        expect(row.postchange_data).toMatchObject({ assigned_object_type: expect.anything(), assigned_object_id: site.id });
      }
      const byAdmin = onSite.find((row) => row.user_name === 'admin1');
      expect(byAdmin.postchange_data).toMatchObject({ kind: 'info', comments: 'Checked by admin1', created_by: seeded.w.admin1.id });
      // The change log of a site includes its journal through related_object.
      const related = await changes(`related_object_type=dcim.site&related_object_id=${site.id}`);
      expect(numeric(related.map((row) => row.id))).toEqual(numeric(onSite.map((row) => row.id)));
    });

    it('removes an object’s journal entries when the object is deleted, and only those', async () => {
      const response = await root.delete(`/api/dcim/sites/${site.id}/`);
      expect(response.status).toBe(204);
      siteDeletion = { requestId: response.headers.get('x-request-id')! };
      const gone = await root.get(`/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=${site.id}`);
      expect(gone.body.count).toBe(0);
      const { rows } = await seeded.db.query('SELECT id FROM extras_journalentry WHERE assigned_object_id = $1', [site.id]);
      expect(rows).toEqual([]);
      const remaining = await root.get('/api/extras/journal-entries/');
      expect(remaining.body.results.map((entry: any) => entry.comments)).toEqual(['Elsewhere']);
      expect(remaining.body.results[0].assigned_object).toMatchObject({ id: otherSite.id });
    });

    // NetBox's pre_delete handler records an ObjectChange for every object a deletion cascades to, and a journal
    // entry's change names its assigned object as related_object (JournalEntry.to_objectchange).
    it('records the deletion of each removed journal entry in the same request, related to the deleted object', async () => {
      const rows = await changes(`request_id=${siteDeletion.requestId}`);
      const entries = rows.filter((row) => row.changed_object_type === 'extras.journalentry');
      expect(entries.map((row) => row.prechange_data?.comments).sort()).toEqual(['Checked by admin1', 'Fans are loud']);
      for (const row of entries) {
        expect(row).toMatchObject({
          action: { value: 'delete' },
          related_object_type: 'dcim.site',
          related_object_id: site.id,
          postchange_data: null,
          user_name: 'root',
        });
      }
      expect(rows.filter((row) => row.changed_object_type === 'dcim.site').map((row) => row.changed_object_id)).toEqual([site.id]);
    });
  });

  describe('changes made by a deletion to other objects', () => {
    // NetBox 4.3+ (netbox-community/netbox#18717): deleting an object that others reference through a nullable
    // foreign key saves each of them with the reference cleared, which records an update for each.
    it('deleting a tenant records the update of each site it is removed from', async () => {
      const tenant = await created(root.post('/api/tenancy/tenants/', { name: 'Doomed tenant', slug: 'doomed-tenant' }));
      const site = await created(root.post('/api/dcim/sites/', { name: 'Tenant orphan', slug: 'tenant-orphan', tenant: tenant.id }));
      const response = await root.delete(`/api/tenancy/tenants/${tenant.id}/`);
      expect(response.status).toBe(204);
      expect((await root.get(`/api/dcim/sites/${site.id}/`)).body.tenant).toBeNull();
      const rows = await changes(`changed_object_type=dcim.site&changed_object_id=${site.id}`);
      expect(rows.map((row) => row.action.value)).toEqual(['update', 'create']);
      expect(rows[0]).toMatchObject({
        request_id: response.headers.get('x-request-id'),
        prechange_data: { tenant: tenant.id },
        postchange_data: { tenant: null },
      });
    });
  });
});

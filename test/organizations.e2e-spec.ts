import { Client } from 'pg';
import { ApiClient, PASSWORD } from './support/api-client';
import { TestApp } from './support/test-app';
import { problemLocations, startSeededApp, World } from './support/seeded-app';

const ORG_FIELDS = ['created_at', 'description', 'id', 'name', 'updated_at'];
const USER_FIELDS = [
  'can_create_ca',
  'can_create_cert',
  'can_delete_ca',
  'can_export_private_key',
  'can_revoke_cert',
  'created_at',
  'email',
  'id',
  'is_active',
  'organization_id',
  'role',
  'updated_at',
  'username',
];

describe('organizations', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let counter = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp());
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  async function newOrg(name: string, description?: string): Promise<{ id: number; name: string }> {
    const response = await api.post('/organizations/', { name, description }, w.root.token);
    expect(response.status).toBe(201);
    return response.body;
  }

  /** A user created by root in the given organization (null: none); logged in unless told otherwise. */
  async function newUser(organization_id: number | null, role = 'user', login = true) {
    counter += 1;
    const username = `member${counter}`;
    const created = await api.post(
      '/users/',
      { username, email: `${username}@example.com`, password: PASSWORD, role, organization_id },
      w.root.token,
    );
    expect(created.status).toBe(201);
    return { id: created.body.id as number, username, token: login ? await api.token(username, PASSWORD) : '' };
  }

  async function orgRow(id: number) {
    return (await db.query('SELECT id, name, description FROM organizations WHERE id = $1', [id])).rows[0] as
      { id: number; name: string; description: string | null } | undefined;
  }

  async function userOrganization(id: number): Promise<number | null> {
    return (await db.query('SELECT organization_id FROM users WHERE id = $1', [id])).rows[0].organization_id;
  }

  async function auditRows(action: string, resourceId: number): Promise<Array<{ organization_id: number | null; detail: string }>> {
    return (await db.query('SELECT organization_id, detail FROM audit_logs WHERE action = $1 AND resource_id = $2', [action, resourceId]))
      .rows;
  }

  describe('POST /organizations/', () => {
    it('lets admins and superusers create organizations, with exactly the documented fields', async () => {
      const byAdmin = await api.post('/organizations/', { name: 'Admin Made', description: 'by admin1' }, w.admin1.token);
      expect(byAdmin.status).toBe(201);
      expect(Object.keys(byAdmin.body).sort()).toEqual(ORG_FIELDS);
      expect(byAdmin.body).toEqual({
        id: expect.any(Number),
        name: 'Admin Made',
        description: 'by admin1',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await orgRow(byAdmin.body.id)).toEqual({ id: byAdmin.body.id, name: 'Admin Made', description: 'by admin1' });

      const byRoot = await api.post('/organizations/', { name: '  Root Made  ' }, w.root.token);
      expect(byRoot.status).toBe(201);
      expect(byRoot.body).toMatchObject({ name: 'Root Made', description: null });
      expect(await orgRow(byRoot.body.id)).toMatchObject({ name: 'Root Made', description: null });
    });

    it('refuses plain users and anonymous callers', async () => {
      for (const token of [w.user1.token, w.loner.token]) {
        const response = await api.post('/organizations/', { name: 'User Made' }, token);
        expect(response.status).toBe(403);
      }
      expect((await api.post('/organizations/', { name: 'User Made' })).status).toBe(401);
      expect((await db.query("SELECT 1 FROM organizations WHERE name = 'User Made'")).rowCount).toBe(0);
    });

    it('rejects a name that exists in any letter case', async () => {
      for (const name of ['org one', 'ORG ONE', 'Org One', '  Org One ']) {
        const response = await api.post('/organizations/', { name }, w.root.token);
        expect({ name, status: response.status }).toEqual({ name, status: 400 });
        expect(response.body).toEqual({ detail: 'Organization with this name already exists' });
      }
      const count = await db.query("SELECT count(*)::int AS n FROM organizations WHERE lower(name) = 'org one'");
      expect(count.rows[0].n).toBe(1);
    });

    it('rejects an empty, blank, missing or non-string name and unknown fields', async () => {
      for (const body of [{ name: '' }, { name: '   ' }, {}, { name: 42 }, { name: null }, { description: 'no name' }]) {
        const response = await api.post('/organizations/', body, w.root.token);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        const locations = problemLocations(response.body);
        expect(locations.length).toBeGreaterThan(0);
        for (const location of locations) expect(location).toEqual(['body', 'name']);
      }
      const unknown = await api.post('/organizations/', { name: 'With Extra', owner: 1 }, w.root.token);
      expect(unknown.status).toBe(400);
      expect(problemLocations(unknown.body)).toEqual([['body', 'owner']]);
      expect((await db.query("SELECT 1 FROM organizations WHERE name IN ('', 'With Extra')")).rowCount).toBe(0);
    });
  });

  describe('GET /organizations/', () => {
    it('shows the superuser every organization, ordered by name', async () => {
      const response = await api.get('/organizations/', w.root.token);
      expect(response.status).toBe(200);
      const inDatabase = await db.query('SELECT id, name FROM organizations ORDER BY name, id');
      expect(response.body.map((org: { id: number; name: string }) => ({ id: org.id, name: org.name }))).toEqual(inDatabase.rows);
      expect(response.body.length).toBeGreaterThanOrEqual(3);
      for (const org of response.body) expect(Object.keys(org).sort()).toEqual(ORG_FIELDS);
      const names = response.body.map((org: { name: string }) => org.name);
      expect(names).toEqual(expect.arrayContaining(['Org One', 'Org Two']));
    });

    it('shows everyone else only their own organization', async () => {
      for (const member of [w.admin1, w.user1]) {
        const response = await api.get('/organizations/', member.token);
        expect(response.status).toBe(200);
        expect(response.body).toEqual([expect.objectContaining({ id: w.org1.id, name: 'Org One', description: 'first' })]);
      }
      const admin2 = await api.get('/organizations/', w.admin2.token);
      expect(admin2.body).toEqual([expect.objectContaining({ id: w.org2.id, name: 'Org Two' })]);
      const loner = await api.get('/organizations/', w.loner.token);
      expect(loner.status).toBe(200);
      expect(loner.body).toEqual([]);
      expect((await api.get('/organizations/')).status).toBe(401);
    });

    it('paginates and validates skip and limit', async () => {
      const all = (await api.get('/organizations/', w.root.token)).body as Array<{ id: number }>;
      const page = await api.get('/organizations/?skip=1&limit=1', w.root.token);
      expect(page.status).toBe(200);
      expect(page.body.map((org: { id: number }) => org.id)).toEqual([all[1].id]);
      for (const query of ['limit=0', 'limit=-1', 'limit=1001', 'skip=-1']) {
        const response = await api.get(`/organizations/?${query}`, w.root.token);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });
  });

  describe('GET /organizations/{id}', () => {
    it('shows an organization to its members and to superusers', async () => {
      for (const reader of [w.user1, w.admin1, w.root]) {
        const response = await api.get(`/organizations/${w.org1.id}`, reader.token);
        expect(response.status).toBe(200);
        expect(Object.keys(response.body).sort()).toEqual(ORG_FIELDS);
        expect(response.body).toMatchObject({ id: w.org1.id, name: 'Org One', description: 'first' });
      }
    });

    it('hides it from non-members with 404', async () => {
      for (const reader of [w.admin2, w.user2, w.loner]) {
        const response = await api.get(`/organizations/${w.org1.id}`, reader.token);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'Organization not found' });
      }
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const unknown = await api.get('/organizations/999999', w.root.token);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Organization not found' });
      for (const id of ['abc', '0', '-3', '2147483648']) {
        const response = await api.get(`/organizations/${id}`, w.root.token);
        expect({ id, status: response.status }).toEqual({ id, status: 400 });
        expect(problemLocations(response.body)).toEqual([['path', 'organization_id']]);
      }
    });
  });

  describe('PUT /organizations/{id}', () => {
    let orgA: { id: number; name: string };
    let adminA: { id: number; token: string };
    let userA: { id: number; token: string };

    beforeAll(async () => {
      orgA = await newOrg('Org A', 'original');
      adminA = await newUser(orgA.id, 'admin');
      userA = await newUser(orgA.id);
    });

    it("lets the organization's admin rename and describe it, persistently", async () => {
      const before = await api.get(`/organizations/${orgA.id}`, adminA.token);
      const response = await api.put(`/organizations/${orgA.id}`, { name: 'Org A Renamed', description: 'changed' }, adminA.token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: orgA.id,
        name: 'Org A Renamed',
        description: 'changed',
        created_at: before.body.created_at,
        updated_at: expect.any(String),
      });
      expect(new Date(response.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(before.body.updated_at).getTime());
      expect(await orgRow(orgA.id)).toEqual({ id: orgA.id, name: 'Org A Renamed', description: 'changed' });
      expect((await api.get(`/organizations/${orgA.id}`, userA.token)).body).toMatchObject({
        name: 'Org A Renamed',
        description: 'changed',
      });
    });

    it('changes only the fields given, and lets the superuser change it too', async () => {
      const nameOnly = await api.put(`/organizations/${orgA.id}`, { name: 'Org A Again' }, w.root.token);
      expect(nameOnly.status).toBe(200);
      expect(nameOnly.body).toMatchObject({ name: 'Org A Again', description: 'changed' });
      const descriptionOnly = await api.put(`/organizations/${orgA.id}`, { description: 'by root' }, w.root.token);
      expect(descriptionOnly.status).toBe(200);
      expect(descriptionOnly.body).toMatchObject({ name: 'Org A Again', description: 'by root' });
      const caseOnly = await api.put(`/organizations/${orgA.id}`, { name: 'ORG A AGAIN' }, adminA.token);
      expect(caseOnly.status).toBe(200);
      expect(await orgRow(orgA.id)).toEqual({ id: orgA.id, name: 'ORG A AGAIN', description: 'by root' });
    });

    it('forbids a plain member with 403 and hides it from other admins with 404', async () => {
      const byMember = await api.put(`/organizations/${orgA.id}`, { name: 'Member Rename' }, userA.token);
      expect(byMember.status).toBe(403);
      const byOtherAdmin = await api.put(`/organizations/${orgA.id}`, { name: 'Foreign Rename' }, w.admin1.token);
      expect(byOtherAdmin.status).toBe(404);
      expect(byOtherAdmin.body).toEqual({ detail: 'Organization not found' });
      const byLoner = await api.put(`/organizations/${orgA.id}`, { name: 'Loner Rename' }, w.loner.token);
      expect(byLoner.status).toBe(404);
      expect((await orgRow(orgA.id))!.name).toBe('ORG A AGAIN');
    });

    it('rejects a taken name and an empty name with 400', async () => {
      const taken = await api.put(`/organizations/${orgA.id}`, { name: 'org two' }, adminA.token);
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ detail: 'Organization with this name already exists' });
      for (const name of ['', '  ', null]) {
        const response = await api.put(`/organizations/${orgA.id}`, { name }, adminA.token);
        expect({ name, status: response.status }).toEqual({ name, status: 400 });
        expect(problemLocations(response.body)).toContainEqual(['body', 'name']);
      }
      expect((await orgRow(orgA.id))!.name).toBe('ORG A AGAIN');
    });

    it('answers 404 for an unknown organization', async () => {
      const response = await api.put('/organizations/999999', { name: 'Ghost' }, w.root.token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Organization not found' });
    });
  });

  describe('DELETE /organizations/{id}', () => {
    it('refuses to delete an organization that has users', async () => {
      const response = await api.delete(`/organizations/${w.org1.id}`, w.root.token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'Cannot delete organization with users. Remove all users first.' });
      expect(await orgRow(w.org1.id)).toBeDefined();
    });

    it('refuses to delete an organization that owns CAs or service accounts, naming them', async () => {
      const owner = await newOrg('Owning Org');
      const ca = await api.post('/cas/', { name: 'Owned CA', subject_dn: 'CN=Owned CA', key_type: 'ecdsa-p256' }, w.root.token);
      expect((await api.patch(`/cas/${ca.body.id}`, { organization_id: owner.id }, w.root.token)).status).toBe(200);
      expect((await api.post('/service-accounts/', { name: 'owned-sa', organization_id: owner.id }, w.root.token)).status).toBe(201);
      const response = await api.delete(`/organizations/${owner.id}`, w.root.token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: 'Cannot delete organization that owns certificate authorities and service accounts. Reassign or delete them first.',
      });
      expect(await orgRow(owner.id)).toBeDefined();
    });

    it('lets only the superuser delete an empty organization', async () => {
      const empty = await newOrg('Empty Org');
      expect((await api.delete(`/organizations/${empty.id}`, w.admin1.token)).status).toBe(403);
      expect((await api.delete(`/organizations/${empty.id}`, w.user1.token)).status).toBe(403);
      expect((await api.delete(`/organizations/${empty.id}`)).status).toBe(401);
      expect(await orgRow(empty.id)).toBeDefined();

      const response = await api.delete(`/organizations/${empty.id}`, w.root.token);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await orgRow(empty.id)).toBeUndefined();
      expect((await api.get(`/organizations/${empty.id}`, w.root.token)).status).toBe(404);
      expect((await api.delete(`/organizations/${empty.id}`, w.root.token)).status).toBe(404);
    });

    it('lets an organization be deleted once its last user has left', async () => {
      const org = await newOrg('Short Lived');
      const member = await newUser(org.id, 'user', false);
      expect((await api.delete(`/organizations/${org.id}`, w.root.token)).status).toBe(400);
      expect((await api.delete(`/organizations/${org.id}/users/${member.id}`, w.root.token)).status).toBe(200);
      expect((await api.delete(`/organizations/${org.id}`, w.root.token)).status).toBe(204);
    });

    it('lets exactly one of concurrent deletes succeed and audit', async () => {
      const org = await newOrg('Deleted Concurrently');
      const responses = await Promise.all(Array.from({ length: 6 }, () => api.delete(`/organizations/${org.id}`, w.root.token)));
      expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404, 404, 404, 404]);
      for (const response of responses.filter((r) => r.status === 404)) expect(response.body).toEqual({ detail: 'Organization not found' });
      expect(await auditRows('org_delete', org.id)).toHaveLength(1);
    });

    it('answers 404 for an unknown organization', async () => {
      const response = await api.delete('/organizations/999999', w.root.token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Organization not found' });
    });
  });

  describe('POST /organizations/{org}/users/{user}', () => {
    it('lets the superuser move any user into an organization', async () => {
      const mover = await newUser(w.org2.id, 'user', false);
      const response = await api.post(`/organizations/${w.org1.id}/users/${mover.id}`, undefined, w.root.token);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(USER_FIELDS);
      expect(response.body).toMatchObject({ id: mover.id, username: mover.username, organization_id: w.org1.id });
      expect(await userOrganization(mover.id)).toBe(w.org1.id);
    });

    it("lets the organization's admin take in a user without an organization", async () => {
      const stray = await newUser(null, 'user', false);
      const response = await api.post(`/organizations/${w.org1.id}/users/${stray.id}`, undefined, w.admin1.token);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: stray.id, organization_id: w.org1.id });
      expect(await userOrganization(stray.id)).toBe(w.org1.id);
      expect((await api.get(`/users/${stray.id}`, w.admin1.token)).status).toBe(200);
    });

    it('answers re-adding a member with 200 and the user, and audits the membership once', async () => {
      const member = await newUser(null, 'user', false);
      const first = await api.post(`/organizations/${w.org1.id}/users/${member.id}`, undefined, w.admin1.token);
      expect(first.status).toBe(200);
      for (const token of [w.admin1.token, w.root.token]) {
        const again = await api.post(`/organizations/${w.org1.id}/users/${member.id}`, undefined, token);
        expect(again.status).toBe(200);
        expect(again.body).toEqual(first.body);
      }
      const concurrent = await Promise.all(
        Array.from({ length: 5 }, () => api.post(`/organizations/${w.org1.id}/users/${member.id}`, undefined, w.admin1.token)),
      );
      expect(concurrent.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await auditRows('org_add_user', member.id)).toEqual([
        { organization_id: w.org1.id, detail: expect.stringContaining('Added') },
      ]);
    });

    it('audits concurrent adds of one user to one organization once, and answers each with 200', async () => {
      const stray = await newUser(null, 'user', false);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          api.post(`/organizations/${w.org1.id}/users/${stray.id}`, undefined, i % 2 ? w.root.token : w.admin1.token),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(responses.map((response) => response.body.organization_id)).toEqual(Array(6).fill(w.org1.id));
      expect(await auditRows('org_add_user', stray.id)).toHaveLength(1);
    });

    it("hides another organization's user from an admin with 404", async () => {
      const response = await api.post(`/organizations/${w.org1.id}/users/${w.user2.id}`, undefined, w.admin1.token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'User not found' });
      expect(await userOrganization(w.user2.id)).toBe(w.org2.id);
    });

    it('refuses a plain member with 403 and an admin of another organization with 404', async () => {
      const stray = await newUser(null, 'user', false);
      const byMember = await api.post(`/organizations/${w.org1.id}/users/${stray.id}`, undefined, w.user1.token);
      expect(byMember.status).toBe(403);
      const byOtherAdmin = await api.post(`/organizations/${w.org1.id}/users/${stray.id}`, undefined, w.admin2.token);
      expect(byOtherAdmin.status).toBe(404);
      expect(await userOrganization(stray.id)).toBeNull();
    });

    it("lets exactly one of two organizations' admins take in a user they add concurrently", async () => {
      const strays = await Promise.all(Array.from({ length: 5 }, () => newUser(null, 'user', false)));
      const responses = await Promise.all(
        strays.flatMap((stray) => [
          api.post(`/organizations/${w.org1.id}/users/${stray.id}`, undefined, w.admin1.token),
          api.post(`/organizations/${w.org2.id}/users/${stray.id}`, undefined, w.admin2.token),
        ]),
      );
      for (const [index, stray] of strays.entries()) {
        const pair = responses.slice(2 * index, 2 * index + 2);
        const winner = pair.findIndex((response) => response.status === 200);
        const loser = pair[1 - winner];
        expect(pair.filter((response) => response.status === 200)).toHaveLength(1);
        // A loser that read the user after the winner committed gets the sequential answer (404); one that raced it, 409.
        expect([404, 409]).toContain(loser.status);
        expect(loser.body).toEqual(
          loser.status === 404
            ? { detail: 'User not found' }
            : { detail: `User '${stray.username}' changed organization while this request ran; nothing was changed` },
        );
        const organizationId = [w.org1.id, w.org2.id][winner];
        expect(pair[winner].body.organization_id).toBe(organizationId);
        expect(await userOrganization(stray.id)).toBe(organizationId);
        expect(await auditRows('org_add_user', stray.id)).toEqual([
          { organization_id: organizationId, detail: expect.stringContaining('Added') },
        ]);
      }
    });

    it('keeps the audit trail of concurrent superuser moves in step with where the user ends up', async () => {
      const mover = await newUser(null, 'user', false);
      const targets = [w.org1.id, w.org2.id, w.org1.id, w.org2.id, w.org1.id, w.org2.id];
      const responses = await Promise.all(
        targets.map((org) => api.post(`/organizations/${org}/users/${mover.id}`, undefined, w.root.token)),
      );
      const statuses = responses.map((response) => response.status);
      // Each move applies to the membership it checked: one that saw it change meanwhile is a 409, one that ran after is a move.
      expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
      const moves = (
        await db.query("SELECT organization_id FROM audit_logs WHERE action = 'org_add_user' AND resource_id = $1 ORDER BY id", [mover.id])
      ).rows;
      // A move into the organization the user is already in answers 200 and changes (and audits) nothing.
      expect(moves.length).toBeGreaterThanOrEqual(1);
      expect(moves.length).toBeLessThanOrEqual(statuses.filter((status) => status === 200).length);
      expect(moves.filter((move, index) => index > 0 && move.organization_id === moves[index - 1].organization_id)).toEqual([]);
      expect(await userOrganization(mover.id)).toBe(moves[moves.length - 1].organization_id);
    });

    it('refuses an admin moving a superuser', async () => {
      const orglessSuperuser = await newUser(null, 'superuser', false);
      const response = await api.post(`/organizations/${w.org1.id}/users/${orglessSuperuser.id}`, undefined, w.admin1.token);
      expect(response.status).toBe(403);
      expect(await userOrganization(orglessSuperuser.id)).toBeNull();
    });

    it('answers 404 for an unknown user or organization and 400 for malformed ids', async () => {
      const unknownUser = await api.post(`/organizations/${w.org1.id}/users/999999`, undefined, w.root.token);
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.body).toEqual({ detail: 'User not found' });
      const unknownOrg = await api.post(`/organizations/999999/users/${w.loner.id}`, undefined, w.root.token);
      expect(unknownOrg.status).toBe(404);
      expect(unknownOrg.body).toEqual({ detail: 'Organization not found' });
      const byAdmin = await api.post(`/organizations/${w.org1.id}/users/999999`, undefined, w.admin1.token);
      expect(byAdmin.status).toBe(404);
      expect(await userOrganization(w.loner.id)).toBeNull();

      const badUser = await api.post(`/organizations/${w.org1.id}/users/abc`, undefined, w.root.token);
      expect(badUser.status).toBe(400);
      expect(problemLocations(badUser.body)).toEqual([['path', 'user_id']]);
      const badOrg = await api.post(`/organizations/x/users/${w.loner.id}`, undefined, w.root.token);
      expect(badOrg.status).toBe(400);
      expect(problemLocations(badOrg.body)).toEqual([['path', 'organization_id']]);
    });
  });

  describe('DELETE /organizations/{org}/users/{user}', () => {
    it("lets the organization's admin take a member out", async () => {
      const member = await newUser(w.org1.id, 'user', false);
      const response = await api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.admin1.token);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(USER_FIELDS);
      expect(response.body).toMatchObject({ id: member.id, organization_id: null });
      expect(await userOrganization(member.id)).toBeNull();

      const again = await api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.admin1.token);
      expect(again.status).toBe(404);
    });

    it('lets exactly one of concurrent removals of a member apply and audit', async () => {
      const member = await newUser(w.org1.id, 'user', false);
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.admin1.token)),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 404 || status === 409)).toHaveLength(5);
      expect(await userOrganization(member.id)).toBeNull();
      expect(await auditRows('org_remove_user', member.id)).toHaveLength(1);
    });

    it('answers 404 for a user who is not a member of that organization', async () => {
      const byRoot = await api.delete(`/organizations/${w.org1.id}/users/${w.user2.id}`, w.root.token);
      expect(byRoot.status).toBe(404);
      expect(byRoot.body).toEqual({ detail: 'User not found' });
      const byAdmin = await api.delete(`/organizations/${w.org1.id}/users/${w.user2.id}`, w.admin1.token);
      expect(byAdmin.status).toBe(404);
      const orgless = await api.delete(`/organizations/${w.org1.id}/users/${w.loner.id}`, w.admin1.token);
      expect(orgless.status).toBe(404);
      expect(await userOrganization(w.user2.id)).toBe(w.org2.id);
      expect((await api.delete(`/organizations/${w.org1.id}/users/999999`, w.root.token)).status).toBe(404);
    });

    it('refuses a plain member with 403 and an admin of another organization with 404', async () => {
      const member = await newUser(w.org1.id, 'user', false);
      expect((await api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.user1.token)).status).toBe(403);
      expect((await api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.admin2.token)).status).toBe(404);
      expect(await userOrganization(member.id)).toBe(w.org1.id);
      const byRoot = await api.delete(`/organizations/${w.org1.id}/users/${member.id}`, w.root.token);
      expect(byRoot.status).toBe(200);
      expect(byRoot.body.organization_id).toBeNull();
    });
  });

  describe('GET /organizations/{org}/users', () => {
    it('lists the members to members and to the superuser', async () => {
      const expected = (await db.query('SELECT id FROM users WHERE organization_id = $1 ORDER BY id', [w.org1.id])).rows.map(
        (row: { id: number }) => row.id,
      );
      expect(expected).toEqual(expect.arrayContaining([w.admin1.id, w.user1.id]));
      for (const reader of [w.user1, w.admin1, w.root]) {
        const response = await api.get(`/organizations/${w.org1.id}/users`, reader.token);
        expect(response.status).toBe(200);
        expect(response.body.map((user: { id: number }) => user.id).sort((a: number, b: number) => a - b)).toEqual(expected);
        for (const user of response.body) {
          expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
          expect(user.organization_id).toBe(w.org1.id);
        }
      }
    });

    it('hides the members from non-members with 404', async () => {
      for (const reader of [w.admin2, w.user2, w.loner]) {
        const response = await api.get(`/organizations/${w.org1.id}/users`, reader.token);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'Organization not found' });
      }
      expect((await api.get('/organizations/999999/users', w.root.token)).status).toBe(404);
    });
  });

  describe('membership changes take effect at once', () => {
    it('takes away the old organization on the very next request after a move', async () => {
      const moving = await newUser(w.org1.id);
      expect((await api.get(`/organizations/${w.org1.id}`, moving.token)).status).toBe(200);

      expect((await api.post(`/organizations/${w.org2.id}/users/${moving.id}`, undefined, w.root.token)).status).toBe(200);
      expect((await api.get(`/organizations/${w.org1.id}`, moving.token)).status).toBe(404);
      expect((await api.get(`/organizations/${w.org1.id}/users`, moving.token)).status).toBe(404);
      expect((await api.get(`/organizations/${w.org2.id}`, moving.token)).status).toBe(200);
      const list = await api.get('/organizations/', moving.token);
      expect(list.body.map((org: { id: number }) => org.id)).toEqual([w.org2.id]);
    });

    it('takes away the organization when an admin removes the member', async () => {
      const leaving = await newUser(w.org1.id);
      expect((await api.delete(`/organizations/${w.org1.id}/users/${leaving.id}`, w.admin1.token)).status).toBe(200);
      expect((await api.get(`/organizations/${w.org1.id}`, leaving.token)).status).toBe(404);
      expect((await api.get('/organizations/', leaving.token)).body).toEqual([]);
    });

    it('takes away admin powers over the old organization after a move', async () => {
      const movingAdmin = await newUser(w.org1.id, 'admin');
      expect((await api.put(`/organizations/${w.org1.id}`, { description: 'first' }, movingAdmin.token)).status).toBe(200);
      expect((await api.patch(`/users/${movingAdmin.id}`, { organization_id: w.org2.id }, w.root.token)).status).toBe(200);
      expect((await api.put(`/organizations/${w.org1.id}`, { description: 'hijacked' }, movingAdmin.token)).status).toBe(404);
      expect((await orgRow(w.org1.id))!.description).toBe('first');
    });
  });

  it('never sends a password hash or a token digest', () => {
    expect(api.seenBodies.length).toBeGreaterThan(50);
    for (const body of api.seenBodies) {
      expect(body).not.toContain('password_hash');
      expect(body).not.toContain('passwordHash');
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain('token_hash');
      expect(body).not.toContain('tokens_invalidated_at');
    }
  });
});

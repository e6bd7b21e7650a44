import { PASSWORD } from './support/api-client';
import { BodyRecorder } from './support/body-recorder';
import { PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';
import { WebhookOwners1795900001100 } from '../migrations/1795900001100-WebhookOwners';
import type { QueryRunner } from 'typeorm';

const R = '/api/plugins/routing';
const ENV = { JOB_POLL_INTERVAL_MS: '100', JOB_BACKOFF_BASE_MS: '100', EGRESS_ALLOW: '127.0.0.1' };

async function waitFor<T>(what: string, condition: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Event rules act for the users who last wrote them and their webhooks: a user with only
 * webhook and event-rule permissions receives no object it may not view, and no secret of one it
 * may not change; nor can it take over the webhook of another user's rule.
 */
describe('platform event rules: deliveries limited to what the owners may see', () => {
  const receiver = new BodyRecorder();
  let seeded: SeededApp;
  let root: PlatformClient;
  /** user1: webhooks and event rules (add, view, change), and nothing of the routing plugin unless granted below. */
  let hooker: PlatformClient;
  let hookerId: number;
  let hook: any;
  let rule: any;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    await receiver.start();
    ({ seeded, api: root } = await startPlatformApp(ENV));
    hookerId = seeded.w.user1.id;
    for (const objectType of ['extras.webhook', 'extras.eventrule']) {
      await root.created('/api/users/permissions/', {
        name: `hooker ${objectType}`,
        object_types: [objectType],
        actions: ['add', 'view', 'change'],
        users: [hookerId],
      });
    }
    hooker = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'ASR9k', slug: 'asr9k' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    const device = await root.created('/api/dcim/devices/', { name: 'edge1', device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await root.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const asn = await root.created('/api/ipam/asns/', { asn: 64512, rir: rir.id });
    const router = await root.created(`${R}/bgp-routers/`, { device: device.id, asn: asn.id });
    fx.scope = await root.created(`${R}/bgp-scopes/`, { router: router.id });
    fx.addresses = 0;

    hook = await hooker.created('/api/extras/webhooks/', { name: 'mine', payload_url: `${receiver.url}/hooker` });
    rule = await hooker.created('/api/extras/event-rules/', {
      name: 'every BGP peer',
      object_types: ['routing.bgppeer'],
      event_types: ['object_created', 'object_updated'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: hook.id,
    });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
    await receiver.stop();
  });

  async function peer(name: string, password: string): Promise<any> {
    fx.addresses += 1;
    const address = await root.created('/api/ipam/ip-addresses/', { address: `10.0.0.${fx.addresses}/24` });
    return root.created(`${R}/bgp-peers/`, { scope: fx.scope.id, name, peer: address.id, password });
  }

  /** Webhook jobs enqueued for a webhook, as stored (the payload is written in the change's own transaction). */
  async function jobsFor(webhookId: number): Promise<string[]> {
    const { rows } = await seeded.db.query<{ payload: string }>(
      `SELECT payload::text AS payload FROM jobs WHERE queue = 'webhook' AND (payload->>'webhook_id')::int = $1 ORDER BY id`,
      [webhookId],
    );
    return rows.map((row) => row.payload);
  }

  it('records who wrote the rule and the webhook as their owner', async () => {
    expect(rule.owner).toMatchObject({ id: hookerId });
    expect(hook.owner).toMatchObject({ id: hookerId });
    const { rows } = await seeded.db.query('SELECT owner_id FROM extras_eventrule WHERE id = $1', [rule.id]);
    expect(rows).toEqual([{ owner_id: hookerId }]);
  });

  it('an owner who may not view BGP peers is delivered none: no job, no password stored or sent', async () => {
    await peer('invisible', 'leak-invisible');
    // A rule of root's, on the same events, shows when the deliveries of this change have run.
    const witness = await root.created('/api/extras/webhooks/', { name: 'witness', payload_url: `${receiver.url}/witness` });
    await root.created('/api/extras/event-rules/', {
      name: 'witness',
      object_types: ['routing.bgppeer'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: witness.id,
    });
    await peer('invisible-2', 'leak-invisible-2');
    await waitFor('the witness delivery', () => receiver.about('/witness', 'invisible-2').length > 0);
    expect(await jobsFor(hook.id)).toEqual([]);
    expect(receiver.bodies.filter((body) => body.path === '/hooker')).toEqual([]);
  });

  it('a user who may change only the webhook of another user’s rule takes it over, and then receives nothing it may not view', async () => {
    const theirs = await root.created('/api/extras/webhooks/', { name: 'theirs', payload_url: `${receiver.url}/theirs` });
    await root.created('/api/extras/event-rules/', {
      name: 'theirs',
      object_types: ['routing.bgppeer'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: theirs.id,
    });
    const redirected = await hooker.patch(`/api/extras/webhooks/${theirs.id}/`, { payload_url: `${receiver.url}/stolen` });
    expect({ status: redirected.status, owner: redirected.body.owner?.id }).toEqual({ status: 200, owner: hookerId });
    await peer('redirected', 'leak-redirected');
    await waitFor('the witness delivery', () => receiver.about('/witness', 'redirected').length > 0);
    expect(await jobsFor(theirs.id)).toEqual([]);
    expect(receiver.bodies.filter((body) => body.path === '/stolen')).toEqual([]);
  });

  it('an owner who may view but not change a BGP peer receives it without its password, and conditions cannot probe it', async () => {
    await root.created('/api/users/permissions/', {
      name: 'hooker views peers',
      object_types: ['routing.bgppeer'],
      actions: ['view'],
      users: [hookerId],
    });
    const probe = await hooker.created('/api/extras/webhooks/', { name: 'probe', payload_url: `${receiver.url}/probe` });
    await hooker.created('/api/extras/event-rules/', {
      name: 'password probe',
      object_types: ['routing.bgppeer'],
      event_types: ['object_created'],
      conditions: { attr: 'password', value: 'leak-viewable' },
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: probe.id,
    });
    await peer('viewable', 'leak-viewable');
    const [delivery] = await waitFor('the delivery of viewable', () => {
      const found = receiver.about('/hooker', 'viewable');
      return found.length > 0 ? found : undefined;
    });
    expect(delivery).toMatchObject({ event: 'created', object_type: 'routing.bgppeer', data: { name: 'viewable' } });
    expect(delivery.data).not.toHaveProperty('password');
    expect(delivery.snapshots.postchange).toMatchObject({ name: 'viewable' });
    expect(delivery.snapshots.postchange).not.toHaveProperty('password');
    expect((await jobsFor(hook.id)).some((payload) => payload.includes('leak-viewable'))).toBe(false);
    expect(await jobsFor(probe.id)).toEqual([]);
    expect(receiver.bodies.some((body) => body.text.includes('leak-viewable') && body.path !== '/witness')).toBe(false);
  });

  it('an owner who may also change the BGP peer receives its password', async () => {
    await root.created('/api/users/permissions/', {
      name: 'hooker changes peers',
      object_types: ['routing.bgppeer'],
      actions: ['change'],
      users: [hookerId],
    });
    await peer('changeable', 'shown-changeable');
    const [delivery] = await waitFor('the delivery of changeable', () => {
      const found = receiver.about('/hooker', 'changeable');
      return found.length > 0 ? found : undefined;
    });
    expect(delivery.data.password).toBe('shown-changeable');
    expect(delivery.snapshots.postchange.password).toBe('shown-changeable');
  });

  it('a rule without an owner (written before owners were recorded) delivers nothing until someone saves it', async () => {
    await seeded.db.query('UPDATE extras_eventrule SET owner_id = NULL WHERE id = $1', [rule.id]);
    await peer('ownerless', 'leak-ownerless');
    expect((await jobsFor(hook.id)).some((payload) => payload.includes('ownerless'))).toBe(false);
    const saved = await hooker.patch(`/api/extras/event-rules/${rule.id}/`, { description: 'saved again' });
    expect({ status: saved.status, owner: saved.body.owner?.id }).toEqual({ status: 200, owner: hookerId });
    await peer('owned-again', 'shown-owned-again');
    expect((await jobsFor(hook.id)).some((payload) => payload.includes('owned-again'))).toBe(true);
  });

  it('the owners migration gives existing rules and webhooks the user who last wrote them, per the change log', async () => {
    const migration = new WebhookOwners1795900001100();
    const runner = { query: (sql: string, parameters?: unknown[]) => seeded.db.query(sql, parameters) } as unknown as QueryRunner;
    const unlogged = await root.created('/api/extras/webhooks/', { name: 'unlogged', payload_url: `${receiver.url}/unlogged` });
    await seeded.db.query(
      `DELETE FROM core_objectchange WHERE changed_object_id = $1
         AND changed_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'extras' AND model = 'webhook')`,
      [unlogged.id],
    );
    await migration.down(runner);
    await migration.up(runner);
    const owners = async (table: string, ids: number[]) =>
      (await seeded.db.query(`SELECT id, owner_id FROM ${table} WHERE id = ANY($1) ORDER BY id`, [ids])).rows;
    expect(await owners('extras_eventrule', [rule.id])).toEqual([{ id: rule.id, owner_id: hookerId }]);
    expect(await owners('extras_webhook', [hook.id, unlogged.id])).toEqual([
      { id: hook.id, owner_id: hookerId },
      { id: unlogged.id, owner_id: null },
    ]);
  });
});

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureTemplateRendering } from '../src/platform/extras/config-templates/config-template-renderer';
import { PASSWORD } from './support/api-client';
import { BodyRecorder } from './support/body-recorder';
import { PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const BQ = '`';
/** The issue's payload: a name that closes nunjucks' generated string literal and runs `throw typeof process`. */
const ISSUE_PAYLOAD = String.raw`{{ x"&&Function${BQ}throw\x20typeof\x20process${BQ}${BQ}${BQ}&&" }}`;
/** The same injection answering the render itself: "PWNED" as the output if the code runs. */
const PWNED_PAYLOAD = String.raw`{{ x"&&Function${BQ}parentPort\x2epostMessage\x28\x7btype\x3a\x22done\x22\x2coutput\x3a\x22PWNED\x22\x7d\x29${BQ}${BQ}${BQ}&&" }}`;
/** The same injection posting a message the server cannot read (it crashed the server process). */
const CRASH_PAYLOAD = String.raw`{{ x"&&Function${BQ}parentPort\x2epostMessage\x28null\x29${BQ}${BQ}${BQ}&&" }}`;
const ENDLESS = '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}';

const PEERING_RENDER = '/api/plugins/peering/render-config/';
const NOTICES = '/api/plugins/notices';

/**
 * Hostile config templates against every place that renders or stores one: the injection through
 * names is refused at save (400 naming the field and line) and at render (rows stored before the
 * check), never runs, never takes the server down; a render process that misbehaves is a render
 * failure; one caller's endless renders do not hold up another's.
 */
describe('config templates: injection, renderer crashes and the render queue', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let user: PlatformClient;
  const receiver = new BodyRecorder();
  let receiverUrl = '';
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    await receiver.start();
    receiverUrl = `${receiver.url}/hook`;
    ({ seeded, api: root } = await startPlatformApp({
      JOB_POLL_INTERVAL_MS: '100',
      JOB_BACKOFF_BASE_MS: '100',
      EGRESS_ALLOW: '127.0.0.1',
    }));
    // A user who may only view templates and devices: enough for peering's render-config, and for nothing else.
    await root.created('/api/users/permissions/', {
      name: 'view templates and devices',
      object_types: ['extras.configtemplate', 'dcim.device'],
      actions: ['view'],
      users: [seeded.w.user1.id],
    });
    user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const site = await root.created('/api/dcim/sites/', { name: 'Lab', slug: 'lab' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'R1', slug: 'r1' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    fx.template = await root.created('/api/extras/config-templates/', { name: 'base', template_code: 'hostname {{ device.name }}' });
    fx.device = await root.created('/api/dcim/devices/', {
      name: 'r1',
      device_type: deviceType.id,
      role: role.id,
      site: site.id,
      config_template: fx.template.id,
    });
  });

  afterAll(async () => {
    configureTemplateRendering({ renderProcessEntry: undefined });
    await seeded?.db.end();
    await seeded?.testApp.close();
    await receiver.stop();
  });

  /** Stores a template as a row written before the check existed would hold it. */
  const storeConfigTemplate = (code: string) =>
    seeded.db.query('UPDATE extras_configtemplate SET template_code = $1 WHERE id = $2', [code, fx.template.id]);

  describe('refused at save: 400 naming the field and the line', () => {
    it('config templates (create and update)', async () => {
      const created = await root.post('/api/extras/config-templates/', { name: 'evil', template_code: `hostname x\n${PWNED_PAYLOAD}` });
      expect(created.status).toBe(400);
      expect(Object.keys(created.body)).toEqual(['template_code']);
      expect(created.body.template_code).toEqual([expect.stringMatching(/^line 2: a name ".*" is not allowed/)]);

      const updated = await root.patch(`/api/extras/config-templates/${fx.template.id}/`, { template_code: ISSUE_PAYLOAD });
      expect(updated.status).toBe(400);
      expect(updated.body.template_code).toEqual([expect.stringMatching(/^line 1: /)]);
      const { rows } = await seeded.db.query('SELECT template_code FROM extras_configtemplate WHERE id = $1', [fx.template.id]);
      expect(rows[0].template_code).toBe('hostname {{ device.name }}');
    });

    it.each([
      ['a {% set %} target', '{% set x"&&1&&" = 1 %}'],
      ['a loop variable', '{% for x"&&1&&" in [1] %}{% endfor %}'],
      ['a macro argument', '{% macro m(a"&&1&&") %}{% endmacro %}'],
      ['a keyword argument of a macro', `{% macro m(a, "b\\"&&1&&\\""=1) %}{% endmacro %}`],
      ['a filter name', '{{ 1 | x"&&1&&" }}'],
      ['a test given as a string', `{{ 1 is "x\\"&&1&&\\"" }}`],
      ['a called label with a backslash', `{{ a["\\\\"]() }}`],
    ])('config templates: %s', async (_what, code) => {
      const response = await root.post('/api/extras/config-templates/', { name: 'evil', template_code: `ok\n\n${code}` });
      expect(response.status).toBe(400);
      expect(response.body.template_code).toEqual([expect.stringMatching(/^line 3: /)]);
    });

    it("webhooks' body_template", async () => {
      const response = await root.post('/api/extras/webhooks/', { name: 'evil', payload_url: receiverUrl, body_template: PWNED_PAYLOAD });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ body_template: [expect.stringMatching(/^line 1: a name /)] });
    });

    it.each(['subject_template', 'body_template', 'css_template', 'ical_template'])('notification templates: %s', async (field) => {
      const response = await root.post(`${NOTICES}/notification-templates/`, { name: 'evil', slug: 'evil', [field]: `\n${PWNED_PAYLOAD}` });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ [field]: [expect.stringMatching(/^line 2: a name /)] });
    });

    it('accepts ordinary Jinja templates', async () => {
      const fine = await root.post('/api/extras/config-templates/', {
        name: 'fine',
        template_code:
          '{% macro m(a, b=2) %}{{ a ~ b }}{% endmacro %}{% for k, v in d.items() %}{{ m(k, b=v) | upper }}{% endfor %}{{ x is none }}',
      });
      expect(fine.status).toBe(201);
    });
  });

  describe('refused at render: rows stored before the check, each sink', () => {
    it('peering render-config (asked by a user who may only view the template and the device): an error answer, the code never runs', async () => {
      await storeConfigTemplate(PWNED_PAYLOAD);
      const response = await user.post(PEERING_RENDER, { template: fx.template.id, device: fx.device.id });
      expect(response.status).not.toBe(200);
      expect(response.body).not.toHaveProperty('content');
      expect(response.text).not.toContain('"PWNED"');
      expect(response.body.detail).toMatch(/^Template syntax error at line 1, column \d+: a name ".*" is not allowed/);
    });

    it('dcim devices/{id}/render-config/: 400 with the syntax error', async () => {
      await storeConfigTemplate(`hostname x\n${ISSUE_PAYLOAD}`);
      const response = await root.post(`/api/dcim/devices/${fx.device.id}/render-config/`);
      expect(response.status).toBe(400);
      expect(response.text).toMatch(/Template syntax error at line 2/);
      expect(response.text).not.toContain('undefined');
    });

    it('a webhook body_template: the delivery fails with the syntax error and nothing is sent', async () => {
      const hook = await root.created('/api/extras/webhooks/', { name: 'templated', payload_url: receiverUrl });
      await seeded.db.query('UPDATE extras_webhook SET body_template = $1 WHERE id = $2', [PWNED_PAYLOAD, hook.id]);
      await root.created('/api/extras/event-rules/', {
        name: 'on site',
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: hook.id,
      });
      await root.created('/api/dcim/sites/', { name: 'Hooked', slug: 'hooked' });
      const deadline = Date.now() + 20_000;
      let job: { status: string; last_error: string | null } | undefined;
      while (Date.now() < deadline) {
        ({
          rows: [job],
        } = await seeded.db.query(
          `SELECT status, last_error FROM jobs WHERE queue = 'webhook' AND (payload->>'webhook_id')::int = $1 ORDER BY id LIMIT 1`,
          [hook.id],
        ));
        if (job && (job.last_error !== null || job.status === 'done' || job.status === 'succeeded')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(job?.last_error).toMatch(/Template syntax error at line 1/);
      expect(receiver.bodies.filter((body) => body.text.includes('PWNED'))).toEqual([]);
    });

    it('notices notification templates: prepare-notifications answers 400 naming the template field', async () => {
      const provider = await root.created('/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
      const template = await root.created(`${NOTICES}/notification-templates/`, {
        name: 'all',
        slug: 'all',
        granularity: 'per_event',
        subject_template: 'Notice',
      });
      await seeded.db.query('UPDATE notices_notificationtemplate SET subject_template = $1 WHERE id = $2', [PWNED_PAYLOAD, template.id]);
      const event = await root.created(`${NOTICES}/maintenance/`, {
        name: 'MNT-1',
        summary: 'Works',
        provider: provider.id,
        status: 'CONFIRMED',
        start: '2030-05-01T01:00:00Z',
        end: '2030-05-01T05:00:00Z',
      });
      const response = await root.post(`${NOTICES}/maintenance/${event.id}/prepare-notifications/`);
      expect(response.status).toBe(400);
      expect(response.text).not.toContain('"PWNED"');
      expect(response.body).toEqual({ subject_template: [expect.stringMatching(/^Template error: Template syntax error at line 1/)] });
      expect((await seeded.db.query('SELECT count(*)::int AS n FROM notices_preparednotification')).rows[0].n).toBe(0);
    });
  });

  describe('a renderer that misbehaves never takes the server down', () => {
    it('the payload that made the renderer post a malformed message: an error answer, and the server keeps answering', async () => {
      await storeConfigTemplate(CRASH_PAYLOAD);
      const response = await user.post(PEERING_RENDER, { template: fx.template.id, device: fx.device.id });
      expect(response.status).not.toBe(200);
      expect(response.body.detail).toMatch(/^Template syntax error at line 1/);
      expect((await root.get('/api/status/')).status).toBe(200);
    });

    it('a render process that sends garbage, exits early or is killed: error answers, then normal renders again', async () => {
      await storeConfigTemplate('hostname {{ device.name }}');
      const dir = mkdtempSync(join(tmpdir(), 'bad-renderer-'));
      const behaviours: Array<[string, string]> = [
        ['garbage', 'process.stdout.write(\'{"type":"started"}\\nnot json at all\\n\');'],
        ['null message', 'process.stdout.write(\'{"type":"started"}\\nnull\\n\');'],
        ['wrong shape', 'process.stdout.write(\'{"type":"started"}\\n{"type":"done","output":{"x":1}}\\n\');'],
        ['exits', 'process.exit(3);'],
        ['killed', "process.kill(process.pid, 'SIGKILL');"],
      ];
      try {
        for (const [name, body] of behaviours) {
          const entry = join(dir, `${name.replace(/ /g, '-')}.js`);
          writeFileSync(entry, `process.stdin.resume();\n${body}\n`);
          chmodSync(entry, 0o644);
          configureTemplateRendering({ renderProcessEntry: entry });
          const response = await root.post(`/api/dcim/devices/${fx.device.id}/render-config/`);
          expect({ name, status: response.status }).toEqual({ name, status: 400 });
          expect(response.body.detail ?? response.text).toMatch(/Template renderer (failed|exited unexpectedly)/);
        }
      } finally {
        configureTemplateRendering({ renderProcessEntry: undefined });
        rmSync(dir, { recursive: true, force: true });
      }
      const healthy = await root.post(`/api/dcim/devices/${fx.device.id}/render-config/`);
      expect(healthy.status).toBe(200);
      expect(healthy.body.content).toBe('hostname r1');
    });
  });

  describe('the render queue', () => {
    // Renders run after their request's transaction, so on the embedded database too (one
    // connection) the flood holds no connection while it renders.
    it("16 endless renders by one user get 429 beyond its bound and do not hold up another caller's render", async () => {
      await storeConfigTemplate(ENDLESS);
      const fast = await root.created('/api/extras/config-templates/', { name: 'fast', template_code: 'fast {{ device.name }}' });
      // The order in which answers arrive: the flood's refusals come at once, its renders after their 2000 ms.
      const answered: string[] = [];
      const flood = Array.from({ length: 16 }, () =>
        user.post(PEERING_RENDER, { template: fx.template.id, device: fx.device.id }).then((response) => {
          answered.push(response.status === 429 ? 'refused' : 'endless');
          return response;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const legitimate = await root.post(PEERING_RENDER, { template: fast.id, device: fx.device.id });
      answered.push('legitimate');
      const flooded = await Promise.all(flood);

      expect(legitimate.status).toBe(200);
      expect(legitimate.body.content).toBe('fast r1');
      // The flood may hold all render slots but one, so the legitimate render starts at once rather
      // than after an endless one (2000 ms each). On a loaded machine an endless render that was
      // already running may still answer first; a queued legitimate render would come after two.
      expect(answered.filter((answer) => answer !== 'refused').indexOf('legitimate')).toBeLessThan(2);
      const statuses = flooded.map((response) => response.status);
      expect(statuses.filter((status) => status === 429).length).toBe(16 - 4);
      expect(statuses.filter((status) => status !== 429).every((status) => status === 500)).toBe(true);
      expect(flooded.find((response) => response.status === 429)?.headers.get('retry-after')).toBe('2');
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { WORKER_METRICS } from '../src/integrations/mail/worker-metrics';
import { ApiClient, seedIdentities } from './support/api-client';
import { startTestApp, TestApp } from './support/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** One sample of the Prometheus text format: name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text exposition format (0.0.4): comments skipped, every sample line read, a malformed line fails. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);

describe('GET /metrics', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { METRICS_TOKEN, AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute' } });
    api = new ApiClient(testApp.baseUrl);
    db = new Client({ connectionString: testApp.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  const scrape = async () => {
    const response = await fetch(`${testApp.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return parseExposition(await response.text());
  };

  it('refuses a scrape without the token, or with another, when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${testApp.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${testApp.baseUrl}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456780' } });
    expect(wrong.status).toBe(401);
  });

  it('counts what the PKI and platform flows did, and reads the job queue and database pool at scrape time', async () => {
    const w = await seedIdentities(api);
    const before = await scrape();

    expect((await api.login(w.admin1.username, 'not-the-password')).status).toBe(401);
    const ca = await api.post('/cas/', { name: 'Metrics CA', subject_dn: 'CN=Metrics CA', key_type: 'ecdsa-p256' }, w.admin1.token);
    expect(ca.status).toBe(201);
    const issue = () =>
      api.post(
        `/certificates/?ca_id=${ca.body.id}`,
        { common_name: 'm.example.com', subject_dn: 'O=Test,C=US', certificate_type: 'server', key_type: 'ecdsa-p256' },
        w.admin1.token,
      );
    const [first, second] = [await issue(), await issue()];
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await api.post(`/certificates/${first.body.id}/revoke`, { reason: 'key_compromise' }, w.admin1.token)).status).toBe(200);
    expect((await api.post(`/certificates/${second.body.id}/revoke`, { reason: 'free text' }, w.admin1.token)).status).toBe(200);
    await db.query(
      `INSERT INTO jobs (queue, payload, status, run_at, max_attempts) VALUES ('metrics-probe', '{}', 'pending', now() + interval '1 hour', 1)`,
    );

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('auth_login_failures_total', { reason: 'invalid_credentials' })).toBe(1);
    expect(delta('pki_certificates_issued_total', { type: 'server', origin: 'server_key' })).toBe(2);
    expect(delta('pki_certificates_revoked_total', { type: 'server', reason: 'keyCompromise' })).toBe(1);
    expect(delta('pki_certificates_revoked_total', { type: 'server', reason: 'unspecified' })).toBe(1);
    expect(delta('pki_crl_rebuilds_total')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'jobs_queue_depth', { queue: 'metrics-probe', status: 'pending' })).toBe(1);
    expect(valueOf(after, 'database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // Requests are labelled by the route template that answered, never by a raw path.
    const routes = new Set(
      after.filter((sample) => sample.name === 'http_request_duration_seconds_count').map((sample) => sample.labels.route),
    );
    expect(routes).toContain('/api/v1/certificates/:cert_id/revoke');
    expect([...routes].some((route) => /\/\d+/.test(route))).toBe(false);
    expect(
      valueOf(after, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/certificates/:cert_id/revoke',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(2);
    await fetch(`${testApp.baseUrl}/no/such/path/42`);
    const unmatched = await scrape();
    expect(valueOf(unmatched, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('declares every series the Grafana dashboard (deploy/grafana) charts, the API or the mail worker', async () => {
    const dashboard = JSON.parse(readFileSync(join(__dirname, '..', 'deploy', 'grafana', 'pki-inventory.json'), 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const charted = new Set(
      dashboard.panels
        .flatMap((panel) => panel.targets.map((target) => target.expr))
        .flatMap((expr) =>
          [...expr.matchAll(/\b([a-z][a-z0-9_]*)(?=\{|\[)/g)].map((match) => match[1].replace(/_(bucket|count|sum)$/, '')),
        ),
    );
    expect(charted.size).toBeGreaterThan(10);
    const declaredIn = (text: string) => new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
    const response = await fetch(`${testApp.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const api = declaredIn(await response.text());
    // The mail_* series are the mail worker's own (its GET /metrics).
    const worker = declaredIn(await WORKER_METRICS.registry.metrics());
    expect([...charted].filter((name) => (name.startsWith('mail_') ? !worker.has(name) : !api.has(name)))).toEqual([]);
    expect([...charted].filter((name) => name.startsWith('mail_'))).toHaveLength(3);
  });
});

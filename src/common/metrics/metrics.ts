import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Sets a gauge from the state it describes, just before a scrape reads it. */
export type GaugeReader = () => Promise<void> | void;

/** A reader that has not finished by then (a frozen database) is given up, so the scrape still answers. */
const READ_TIMEOUT_MS = 2_000;

/**
 * The process's Prometheus instruments, in one registry. Counters are incremented where the event
 * happens; gauges that describe shared state (the job queue, the database pool) are read at scrape
 * time by the readers their owners register. In a cluster each worker keeps its own registry and
 * the primary sums them (see cluster-metrics.ts).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly readers = new Map<object, GaugeReader>();
  private readonly pendingReads = new Set<Promise<void>>();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, from the first byte read to the last written',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly certificatesIssued = new Counter({
    name: 'pki_certificates_issued_total',
    help: 'Certificates issued, by certificate type (server, client, …, ca) and origin (generated key, CSR, renewal)',
    labelNames: ['type', 'origin'] as const,
    registers: [this.registry],
  });
  readonly certificatesRevoked = new Counter({
    name: 'pki_certificates_revoked_total',
    help: 'Certificates revoked, by certificate type and revocation reason',
    labelNames: ['type', 'reason'] as const,
    registers: [this.registry],
  });
  readonly crlRebuilds = new Counter({
    name: 'pki_crl_rebuilds_total',
    help: 'CRLs signed anew (a rebuild another process had already done is not counted)',
    registers: [this.registry],
  });
  readonly loginFailures = new Counter({
    name: 'auth_login_failures_total',
    help: 'Failed password checks (unknown user, wrong password or inactive user) and refused attempts',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly jobOutcomes = new Counter({
    name: 'jobs_attempts_total',
    help: 'Job attempts by queue and outcome: succeeded, retry (failed, will run again) or failed (gave up)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });
  // Declared before the queue gauge: read first at a scrape, before the queue's query takes a connection.
  readonly databasePool: Gauge<'state'> = new Gauge({
    name: 'database_pool_connections',
    help: "This process's database pool: total, idle, and requests waiting for a connection",
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: (): Promise<void> => this.read(this.databasePool, 'database_pool_connections'),
  });
  readonly jobQueueDepth: Gauge<'queue' | 'status'> = new Gauge({
    name: 'jobs_queue_depth',
    help: 'Jobs waiting or running, by queue and status (the shared PostgreSQL queue, read at scrape time)',
    labelNames: ['queue', 'status'] as const,
    registers: [this.registry],
    // Every worker reads the same table: a cluster reports it once, not summed.
    aggregator: 'max',
    collect: (): Promise<void> => this.read(this.jobQueueDepth, 'jobs_queue_depth'),
  });
  // Declared after the gauges read at scrape time: a scrape starts their reads first, and this one waits for them.
  readonly gaugeReadOk = new Gauge({
    name: 'metrics_gauge_read_ok',
    help: 'Whether this scrape read the gauge from its source (1), or the source failed or did not answer in time (0: the gauge is left out)',
    labelNames: ['gauge'] as const,
    registers: [this.registry],
    // One worker that could not read makes the pod's value 0.
    aggregator: 'min',
    collect: async (): Promise<void> => {
      await Promise.all(this.pendingReads);
    },
  });
  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** `read` sets `gauge` whenever a scrape reads it (its owner knows the state it describes). */
  readAtScrape<Labels extends string>(gauge: Gauge<Labels>, read: GaugeReader): void {
    this.readers.set(gauge, read);
  }

  /**
   * Runs the gauge's reader. A reader that fails or outlasts READ_TIMEOUT_MS (the database is down
   * or frozen) leaves the gauge without series rather than failing the whole scrape, which must
   * still report the process while the database is away.
   */
  private read(gauge: Gauge<string>, name: string): Promise<void> {
    const reader = this.readers.get(gauge);
    if (!reader) return Promise.resolve();
    const reading = withinTimeout(reader, READ_TIMEOUT_MS).then(
      () => this.gaugeReadOk.set({ gauge: name }, 1),
      () => {
        gauge.reset();
        this.gaugeReadOk.set({ gauge: name }, 0);
      },
    );
    this.pendingReads.add(reading);
    return reading.finally(() => this.pendingReads.delete(reading));
  }
}

async function withinTimeout(run: () => Promise<void> | void, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([Promise.resolve().then(run), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

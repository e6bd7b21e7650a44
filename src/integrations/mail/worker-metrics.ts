import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

/**
 * The mail worker's own Prometheus series, served on its HTTP port at `GET /metrics` (the API's are
 * the API's; docs/metrics.md): what it sent, what tracking reported, what arrived inbound.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  /** Each send attempt of a claimed notification: sent, failed (released for a retry or given up), skipped (not claimed). */
  readonly outbound = new Counter({
    name: 'mail_outbound_total',
    help: 'Outbound notification emails by outcome (sent, failed, skipped: another sender held it or it was not ready)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /** Delivery events (SES through SNS or posted, SMTP reports) by their event type and the status the notification ended in. */
  readonly deliveryEvents = new Counter({
    name: 'mail_delivery_events_total',
    help: 'Delivery tracking events by event type (Delivery, Bounce, Complaint, …) and the notification status after it',
    labelNames: ['event_type', 'status'] as const,
    registers: [this.registry],
  });
  /** Inbound provider emails by what the platform made of them. */
  readonly inbound = new Counter({
    name: 'mail_inbound_total',
    help: 'Inbound emails by result (processed, duplicate, unparsed, report: a delivery report for tracking, refused: refused for good by the platform)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}

/** The worker process's metrics: one registry per process, as the process metrics are. */
export const WORKER_METRICS = new WorkerMetrics();

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { JobQueue } from '../../common/jobs/job-queue';
import { JobWorker } from '../../common/jobs/job-worker';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { ObjectEvent, ObjectEventSubscriber } from '../framework/resource/object-events';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { evaluateCondition } from './events/event-condition';
import { buildEventPayload, buildWebhookRequest, EventPayload, WebhookDefinition } from './events/webhook-request';
import { sendWebhookRequest } from './events/webhook-sender';
import { renderConfigTemplate } from './config-templates/config-template-renderer';
import { Metrics } from '../../common/metrics/metrics';

export const WEBHOOK_QUEUE = 'webhook';
/** The render queue's requester for webhook bodies (one bound for the job worker, whoever changed the object). */
const WEBHOOK_RENDER_REQUESTER = 'system:webhooks';

interface MatchingRule {
  id: number;
  name: string;
  conditions: unknown;
  action_object_type_id: number;
  action_object_id: number;
}

/**
 * NetBox's event rules: each change is matched against the enabled rules for its object type and
 * event, their conditions are evaluated on the object's REST representation, and a webhook delivery
 * is enqueued for each match in the change's own transaction (so a rolled-back change sends nothing).
 * Deliveries run from the PostgreSQL job queue: retried with backoff, one worker per job across replicas.
 */
@Injectable()
export class EventRulesDispatcher implements ObjectEventSubscriber, OnModuleInit {
  readonly name = 'event rules';

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly jobs: JobQueue,
    private readonly worker: JobWorker,
    private readonly dataSource: DataSource,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.worker.register(WEBHOOK_QUEUE, (payload) => this.deliver(payload as { webhook_id: number; body: EventPayload }));
  }

  async handle(manager: EntityManager, event: ObjectEvent): Promise<void> {
    const rules = (await manager.query(
      `SELECT r.id, r.name, r.conditions, r.action_object_type_id, r.action_object_id
         FROM extras_eventrule r
         JOIN extras_eventrule_object_types j ON j.eventrule_id = r.id
        WHERE r.enabled AND r.action_type = 'webhook' AND j.objecttype_id = $1 AND $2 = ANY(r.event_types)
        ORDER BY r.id`,
      [this.registry.objectTypeId(event.definition.objectType), `object_${event.event}`],
    )) as MatchingRule[];
    if (rules.length === 0) return;
    const webhookType = this.registry.objectTypeId('extras.webhook');
    const data = await event.data();
    for (const rule of rules) {
      const matches = evaluateCondition(rule.conditions, data, (reason) =>
        this.logger.warn({ event_rule: rule.name, reason }, 'event rule condition could not be evaluated'),
      );
      if (!matches || rule.action_object_type_id !== webhookType) continue;
      const body = buildEventPayload({
        event: event.event,
        timestamp: event.timestamp,
        objectType: event.definition.objectType,
        username: event.username,
        requestId: event.requestId || null,
        data,
        prechange: event.prechange,
        postchange: event.postchange,
      });
      await this.jobs.enqueue(manager, WEBHOOK_QUEUE, { webhook_id: rule.action_object_id, event_rule_id: rule.id, body });
    }
  }

  /** One delivery attempt; a throw makes the job queue retry it later. The webhook is read afresh each time. */
  private async deliver(payload: { webhook_id: number; body: EventPayload }): Promise<void> {
    const [webhook] = (await this.dataSource.query(
      `SELECT payload_url, http_method, http_content_type, additional_headers, body_template, secret, ssl_verification, ca_file_path
         FROM extras_webhook WHERE id = $1`,
      [payload.webhook_id],
    )) as WebhookDefinition[];
    if (!webhook) {
      this.logger.warn({ webhook_id: payload.webhook_id }, 'webhook deleted before delivery; dropped');
      return;
    }
    // NetBox renders the body template with the event payload's keys as the template context.
    const renderedBody =
      webhook.body_template.trim() === ''
        ? undefined
        : await renderConfigTemplate(webhook.body_template, { ...payload.body }, {}, { requester: WEBHOOK_RENDER_REQUESTER });
    const response = await sendWebhookRequest(buildWebhookRequest(webhook, payload.body, renderedBody)).catch((error: unknown) => {
      this.metrics.webhookDeliveries.inc({ outcome: 'failed' });
      throw error;
    });
    this.metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    this.logger.info({ webhook_id: payload.webhook_id, status: response.status }, 'webhook delivered');
  }
}

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { EgressPolicy } from '../../common/http/egress-policy';
import { JobQueue } from '../../common/jobs/job-queue';
import { JobWorker } from '../../common/jobs/job-worker';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { Principal } from '../../common/auth/principal';
import { principalOfUser, USER_RECORD_COLUMNS, userRecordOfRow, UserRecordRow } from '../../modules/users/user-principal';
import { ObjectPermissions } from '../framework/permissions/object-permissions';
import { ObjectEvent, ObjectEventSubscriber } from '../framework/resource/object-events';
import { ResourceAccess } from '../framework/resource/resource-access';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { withheldFields, withoutFields } from '../framework/resource/secret-fields';
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
  owner_id: number | null;
  webhook_owner_id: number | null;
}

interface WebhookJob {
  webhook_id: number;
  /** The webhook's owner when the delivery was decided: a delivery whose webhook has changed hands since is dropped. */
  webhook_owner_id?: number | null;
  body: EventPayload;
}

/** What the users behind a rule may have of the changed object. */
type Clearance = { view: false } | { view: true; change: boolean };

/**
 * NetBox's event rules: each change is matched against the enabled rules for its object type and
 * event, their conditions are evaluated on the object's REST representation, and a webhook delivery
 * is enqueued for each match in the change's own transaction (so a rolled-back change sends nothing).
 * Deliveries run from the PostgreSQL job queue: retried with backoff, one worker per job across replicas.
 *
 * A rule acts for the users who last wrote it and its webhook (their `owner`): it delivers only
 * objects both may view, `secret` fields only when both may change the object, write-only fields
 * never, and its conditions see no more than that. A rule or webhook without an active owner
 * delivers nothing.
 */
@Injectable()
export class EventRulesDispatcher implements ObjectEventSubscriber, OnModuleInit {
  readonly name = 'event rules';

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly permissions: ObjectPermissions,
    private readonly access: ResourceAccess,
    private readonly jobs: JobQueue,
    private readonly worker: JobWorker,
    private readonly dataSource: DataSource,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly egress: EgressPolicy,
  ) {}

  onModuleInit(): void {
    this.worker.register(WEBHOOK_QUEUE, (payload) => this.deliver(payload as unknown as WebhookJob));
  }

  async handle(manager: EntityManager, event: ObjectEvent): Promise<void> {
    const webhookType = this.registry.objectTypeId('extras.webhook');
    const rules = (await manager.query(
      `SELECT r.id, r.name, r.conditions, r.action_object_type_id, r.action_object_id, r.owner_id, w.owner_id AS webhook_owner_id
         FROM extras_eventrule r
         JOIN extras_eventrule_object_types j ON j.eventrule_id = r.id
         LEFT JOIN extras_webhook w ON r.action_object_type_id = $3 AND w.id = r.action_object_id
        WHERE r.enabled AND r.action_type = 'webhook' AND j.objecttype_id = $1 AND $2 = ANY(r.event_types)
        ORDER BY r.id`,
      [this.registry.objectTypeId(event.definition.objectType), `object_${event.event}`, webhookType],
    )) as MatchingRule[];
    if (rules.length === 0) return;
    const data = await event.data();
    const principals = await this.activeUsers(manager, rules);
    const clearances = new Map<number, Promise<Clearance>>();
    const clearanceOf = (userId: number): Promise<Clearance> => {
      let clearance = clearances.get(userId);
      if (!clearance) {
        clearance = this.clearance(manager, principals.get(userId)!, event);
        clearances.set(userId, clearance);
      }
      return clearance;
    };
    for (const rule of rules) {
      if (rule.action_object_type_id !== webhookType) continue;
      if (
        rule.owner_id === null ||
        rule.webhook_owner_id === null ||
        !principals.has(rule.owner_id) ||
        !principals.has(rule.webhook_owner_id)
      ) {
        this.logger.warn({ event_rule: rule.name }, 'event rule or its webhook has no active owner; nothing delivered');
        continue;
      }
      const ruleOwner = await clearanceOf(rule.owner_id);
      const webhookOwner = await clearanceOf(rule.webhook_owner_id);
      if (!ruleOwner.view || !webhookOwner.view) continue;
      const withheld = withheldFields(event.definition, ruleOwner.change && webhookOwner.change);
      const shown = withoutFields(data, withheld);
      const matches = evaluateCondition(rule.conditions, shown, (reason) =>
        this.logger.warn({ event_rule: rule.name, reason }, 'event rule condition could not be evaluated'),
      );
      if (!matches) continue;
      const body = buildEventPayload({
        event: event.event,
        timestamp: event.timestamp,
        objectType: event.definition.objectType,
        username: event.username,
        requestId: event.requestId || null,
        data: shown,
        prechange: withoutFields(event.prechange, withheld),
        postchange: withoutFields(event.postchange, withheld),
      });
      const job: WebhookJob & { event_rule_id: number } = {
        webhook_id: rule.action_object_id,
        webhook_owner_id: rule.webhook_owner_id,
        event_rule_id: rule.id,
        body,
      };
      await this.jobs.enqueue(manager, WEBHOOK_QUEUE, { ...job });
    }
  }

  /** The active users among the owners of these rules and their webhooks, as principals. */
  private async activeUsers(manager: EntityManager, rules: readonly MatchingRule[]): Promise<Map<number, Principal>> {
    const ids = [...new Set(rules.flatMap((rule) => [rule.owner_id, rule.webhook_owner_id]).filter((id): id is number => id !== null))];
    if (ids.length === 0) return new Map();
    const rows = (await manager.query(`SELECT ${USER_RECORD_COLUMNS} FROM users u WHERE u.id = ANY($1) AND u.is_active`, [
      ids,
    ])) as UserRecordRow[];
    return new Map(rows.map((row) => [row.id, principalOfUser(userRecordOfRow(row))]));
  }

  /**
   * Whether the user may view the changed object, and change it. Constraints are evaluated on the
   * object's row, which a deletion has already removed: there only an unconstrained permission counts.
   */
  private async clearance(manager: EntityManager, principal: Principal, event: ObjectEvent): Promise<Clearance> {
    const holds = async (action: string): Promise<boolean> => {
      if (event.event !== 'deleted') return this.access.permits(manager, event.definition, action, event.objectId, principal);
      return (await this.permissions.restriction(manager, principal, event.definition.objectType, action)).kind === 'all';
    };
    if (!(await holds('view'))) return { view: false };
    return { view: true, change: await holds('change') };
  }

  /** One delivery attempt; a throw makes the job queue retry it later. The webhook is read afresh each time. */
  private async deliver(payload: WebhookJob): Promise<void> {
    const [webhook] = (await this.dataSource.query(
      `SELECT payload_url, http_method, http_content_type, additional_headers, body_template, secret, ssl_verification, ca_file_path, owner_id
         FROM extras_webhook WHERE id = $1`,
      [payload.webhook_id],
    )) as Array<WebhookDefinition & { owner_id: number | null }>;
    if (!webhook) {
      this.logger.warn({ webhook_id: payload.webhook_id }, 'webhook deleted before delivery; dropped');
      return;
    }
    // Another user who has since rewritten the webhook (its URL, its template) was not cleared for this payload.
    if (payload.webhook_owner_id === undefined || webhook.owner_id !== payload.webhook_owner_id) {
      this.logger.warn({ webhook_id: payload.webhook_id }, 'webhook changed owner before delivery; dropped');
      return;
    }
    // NetBox renders the body template with the event payload's keys as the template context.
    const renderedBody =
      webhook.body_template.trim() === ''
        ? undefined
        : await renderConfigTemplate(webhook.body_template, { ...payload.body }, {}, { requester: WEBHOOK_RENDER_REQUESTER });
    const response = await sendWebhookRequest(buildWebhookRequest(webhook, payload.body, renderedBody), this.egress).catch(
      (error: unknown) => {
        this.metrics.webhookDeliveries.inc({ outcome: 'failed' });
        throw error;
      },
    );
    this.metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    this.logger.info({ webhook_id: payload.webhook_id, status: response.status }, 'webhook delivered');
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { Statement } from '../../common/database/entity-statements';
import { preparedQuery } from '../../common/database/prepared-query';
import { AccessPolicy } from '../../common/auth/access-policy';
import { Principal } from '../../common/auth/principal';
import { AuditAction } from './audit-action';
import { AuditLogEntity } from './audit-log.entity';

export interface AuditEntry {
  action: AuditAction;
  /** Who did it; null for anonymous events (a failed login). */
  actor: Principal | null;
  /** The organization the event concerns (decides which admins see it). */
  organizationId: number | null;
  resourceType?: string;
  resourceId?: number | null;
  detail?: string;
  /** For events without a principal: the name involved (the attempted username of a failed login). */
  username?: string;
}

export interface AuditQuery {
  action?: AuditAction;
  userId?: number;
  resourceType?: string;
  resourceId?: number;
  since?: Date;
  until?: Date;
  skip: number;
  limit: number;
}

@Injectable()
export class AuditService {
  constructor(
    @InjectRepository(AuditLogEntity) private readonly logs: Repository<AuditLogEntity>,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * Records an entry with the caller's transaction manager, so the entry commits or rolls back
   * together with the operation it describes.
   */
  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    const actor = entry.actor;
    await manager.insert(AuditLogEntity, {
      action: entry.action,
      userId: actor?.kind === 'user' ? actor.id : null,
      username: actor?.kind === 'user' ? actor.name : (entry.username ?? null),
      serviceAccountId: actor?.kind === 'service_account' ? actor.id : null,
      serviceAccountName: actor?.kind === 'service_account' ? actor.name : null,
      organizationId: entry.organizationId,
      resourceType: entry.resourceType ?? null,
      resourceId: entry.resourceId ?? null,
      detail: entry.detail ?? null,
    });
  }

  /**
   * Runs `insert` and records `entry` for the row it creates in one statement (one round trip, atomic
   * without a transaction): the audit row takes its resource id and organization from that row, so
   * `insert` must return `id` and `organization_id`. Returns the columns `insert` returns.
   */
  async insertAudited(
    manager: EntityManager,
    insert: Statement,
    entry: Omit<AuditEntry, 'organizationId' | 'resourceId'>,
  ): Promise<Record<string, unknown>> {
    const actor = entry.actor;
    const values = [
      entry.action,
      actor?.kind === 'user' ? actor.id : null,
      actor?.kind === 'user' ? actor.name : (entry.username ?? null),
      actor?.kind === 'service_account' ? actor.id : null,
      actor?.kind === 'service_account' ? actor.name : null,
      entry.resourceType ?? null,
      entry.detail ?? null,
    ];
    const at = (index: number) => `$${insert.values.length + index + 1}`;
    // Prepared: the text depends only on the insert's columns, so it is parsed and planned once per connection.
    const rows = await preparedQuery<Record<string, unknown>>(
      manager,
      `WITH inserted AS (${insert.text}),
            audited AS (
              INSERT INTO audit_logs (action, user_id, username, service_account_id, service_account_name, organization_id, resource_type, resource_id, detail)
              SELECT ${at(0)}, ${at(1)}::integer, ${at(2)}, ${at(3)}::integer, ${at(4)}, inserted.organization_id, ${at(5)}, inserted.id, ${at(6)} FROM inserted)
       SELECT * FROM inserted`,
      [...insert.values, ...values],
    );
    return rows[0];
  }

  /** Newest first; admins see their organization's entries, superusers all. */
  async list(principal: Principal, query: AuditQuery): Promise<AuditLogEntity[]> {
    const scope = this.policy.listScope(principal);
    if ('none' in scope) return [];
    const builder = this.logs.createQueryBuilder('log');
    if ('organizationId' in scope) builder.andWhere('log.organization_id = :org', { org: scope.organizationId });
    applyFilters(builder, query);
    return builder.orderBy('log.created_at', 'DESC').addOrderBy('log.id', 'DESC').offset(query.skip).limit(query.limit).getMany();
  }
}

function applyFilters(builder: SelectQueryBuilder<AuditLogEntity>, query: AuditQuery): void {
  if (query.action) builder.andWhere('log.action = :action', { action: query.action });
  if (query.userId !== undefined) builder.andWhere('log.user_id = :userId', { userId: query.userId });
  if (query.resourceType) builder.andWhere('log.resource_type = :resourceType', { resourceType: query.resourceType });
  if (query.resourceId !== undefined) builder.andWhere('log.resource_id = :resourceId', { resourceId: query.resourceId });
  if (query.since) builder.andWhere('log.created_at >= :since', { since: query.since });
  if (query.until) builder.andWhere('log.created_at <= :until', { until: query.until });
}

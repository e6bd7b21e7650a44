import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AccessPolicy } from '../../common/auth/access-policy';
import { applyCapabilityFlags, capabilityColumnsFrom } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { violatedUniqueConstraint } from '../../common/database/unique-violation';
import { FieldProblem, InvalidRequestError, NotFoundError, RequestValidationError } from '../../common/errors/common-errors';
import { AuditService } from '../audit/audit.service';
import { assertOrganizationExists } from '../users/users.service';
import { IssuancePolicyEntity } from './issuance-policy.entity';
import { globProblem, parseCidr } from './issuance-policy';
import { ServiceAccountTokenEntity } from './service-account-token.entity';
import { ServiceAccountEntity } from './service-account.entity';
import { digestSecret, mintToken } from './service-account-token.codec';
import { CreateServiceAccountDto, CreateTokenDto, IssuancePolicyDto, UpdateServiceAccountDto } from './service-accounts.dto';

const EMAIL_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export function serviceAccountNotFound(): NotFoundError {
  return new NotFoundError('Service account not found', 'service_account_not_found');
}

function nameTaken(): InvalidRequestError {
  return new InvalidRequestError('A service account with this name already exists in the organization', 'service_account_name_taken');
}

/**
 * Service accounts, their tokens and their issuance policy. Managed by admins (their organization)
 * and superusers (all); accounts of another organization do not exist for the caller.
 */
@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(ServiceAccountEntity) private readonly accounts: Repository<ServiceAccountEntity>,
    @InjectRepository(ServiceAccountTokenEntity) private readonly tokens: Repository<ServiceAccountTokenEntity>,
    @InjectRepository(IssuancePolicyEntity) private readonly policies: Repository<IssuancePolicyEntity>,
    private readonly policy: AccessPolicy,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  async create(actor: Principal, dto: CreateServiceAccountDto): Promise<ServiceAccountEntity> {
    if (dto.organization_id !== undefined && actor.role !== 'superuser' && dto.organization_id !== actor.organizationId) {
      throw new InvalidRequestError('organization_id can be set by superusers only', 'organization_not_allowed');
    }
    const organizationId = dto.organization_id ?? actor.organizationId;
    if (organizationId === null) {
      throw new InvalidRequestError('organization_id is required: you belong to no organization', 'organization_required');
    }
    return this.write(async (manager) => {
      await assertOrganizationExists(manager, organizationId);
      await assertNameFree(manager, organizationId, dto.name);
      const account = await manager.save(
        manager.create(ServiceAccountEntity, {
          name: dto.name,
          description: dto.description ?? null,
          organizationId,
          createdByUserId: actor.id,
          ...capabilityColumnsFrom(dto),
        }),
      );
      await this.record(manager, actor, account, 'service_account_create', `Created service account '${account.name}'`);
      return account;
    });
  }

  async list(actor: Principal): Promise<ServiceAccountEntity[]> {
    const scope = this.policy.listScope(actor);
    if ('none' in scope) return [];
    return this.accounts.find({ where: 'organizationId' in scope ? { organizationId: scope.organizationId } : {}, order: { id: 'ASC' } });
  }

  async get(actor: Principal, id: number): Promise<ServiceAccountEntity> {
    const account = await this.accounts.findOne({ where: { id } });
    if (!account || !this.policy.canSee(actor, account)) throw serviceAccountNotFound();
    return account;
  }

  async update(actor: Principal, id: number, dto: UpdateServiceAccountDto): Promise<ServiceAccountEntity> {
    const account = await this.get(actor, id);
    return this.write(async (manager) => {
      const changed: string[] = [];
      if (dto.name !== undefined && dto.name !== account.name) {
        await assertNameFree(manager, account.organizationId, dto.name, account.id);
        account.name = dto.name;
        changed.push('name');
      }
      if (dto.description !== undefined && dto.description !== account.description) {
        account.description = dto.description;
        changed.push('description');
      }
      changed.push(...applyCapabilityFlags(account, dto));
      if (dto.disabled !== undefined && dto.disabled !== (account.disabledAt !== null)) {
        account.disabledAt = dto.disabled ? new Date() : null;
        changed.push(dto.disabled ? 'disabled' : 'enabled');
      }
      const saved = await manager.save(account);
      await this.record(
        manager,
        actor,
        saved,
        'service_account_update',
        `Updated service account '${saved.name}': ${changed.join(', ') || 'no changes'}`,
      );
      return saved;
    });
  }

  /** Deletes the account; its tokens and policy go with it, so every token stops working at once. */
  async remove(actor: Principal, id: number): Promise<void> {
    const account = await this.get(actor, id);
    await this.dataSource.transaction(async (manager) => {
      const tokens = await manager.count(ServiceAccountTokenEntity, { where: { serviceAccountId: id } });
      // Of concurrent deletes only the one that removed the row answers 204 and audits.
      if (!(await manager.delete(ServiceAccountEntity, { id })).affected) throw serviceAccountNotFound();
      await this.record(
        manager,
        actor,
        account,
        'service_account_delete',
        `Deleted service account '${account.name}' and its ${tokens} token(s)`,
      );
    });
  }

  /** Mints a token; the plaintext exists only in the returned value. */
  async createToken(actor: Principal, id: number, dto: CreateTokenDto): Promise<{ token: string; entity: ServiceAccountTokenEntity }> {
    const account = await this.get(actor, id);
    if (dto.expires_at && dto.expires_at.getTime() <= Date.now()) {
      throw new InvalidRequestError('expires_at must be in the future', 'expires_at_in_past');
    }
    const minted = mintToken();
    const entity = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(
        manager.create(ServiceAccountTokenEntity, {
          serviceAccountId: account.id,
          publicId: minted.publicId,
          secretDigest: digestSecret(this.config.serviceAccountTokenPepper, minted.secret),
          name: dto.name,
          expiresAt: dto.expires_at ?? null,
        }),
      );
      await this.record(manager, actor, account, 'service_account_token_create', `Created token '${saved.name}' (${saved.publicId})`);
      return saved;
    });
    return { token: minted.token, entity };
  }

  async listTokens(actor: Principal, id: number): Promise<ServiceAccountTokenEntity[]> {
    await this.get(actor, id);
    return this.tokens.find({ where: { serviceAccountId: id }, order: { id: 'ASC' } });
  }

  /** Revokes a token (idempotent: revoking a revoked token changes nothing). */
  async revokeToken(actor: Principal, id: number, tokenId: number): Promise<void> {
    const account = await this.get(actor, id);
    const token = await this.tokens.findOne({ where: { id: tokenId, serviceAccountId: id } });
    if (!token) throw new NotFoundError('Token not found', 'token_not_found');
    if (token.revokedAt) return;
    await this.dataSource.transaction(async (manager) => {
      await manager.update(ServiceAccountTokenEntity, { id: tokenId }, { revokedAt: () => 'now()' });
      await this.record(manager, actor, account, 'service_account_token_revoke', `Revoked token '${token.name}' (${token.publicId})`);
    });
  }

  async getPolicy(actor: Principal, id: number): Promise<IssuancePolicyEntity> {
    await this.get(actor, id);
    const policy = await this.policies.findOne({ where: { serviceAccountId: id } });
    if (!policy) throw new NotFoundError('The service account has no issuance policy', 'policy_not_found');
    return policy;
  }

  /** Creates or replaces the policy after validating every entry (a bad glob or CIDR names its field). */
  async putPolicy(actor: Principal, id: number, dto: IssuancePolicyDto): Promise<IssuancePolicyEntity> {
    const account = await this.get(actor, id);
    const values = {
      cnPatterns: dto.cn_patterns ?? [],
      sanDnsPatterns: dto.san_dns_patterns ?? [],
      sanIpCidrs: (dto.san_ip_cidrs ?? []).map((cidr) => cidr.trim()),
      sanEmailDomains: (dto.san_email_domains ?? []).map((domain) => domain.trim().toLowerCase()),
      allowedCaIds: dto.allowed_ca_ids ?? [],
      allowedCertificateTypes: dto.allowed_certificate_types ?? [],
      maxValidityDays: dto.max_validity_days,
      boundDeviceIds: [...new Set(dto.bound_device_ids ?? [])],
      boundDeviceTags: [...new Set((dto.bound_device_tags ?? []).map((slug) => slug.trim().toLowerCase()))],
      boundDeviceRoles: [...new Set((dto.bound_device_roles ?? []).map((slug) => slug.trim().toLowerCase()))],
    };
    validatePolicyEntries(values);
    return this.dataSource.transaction(async (manager) => {
      const existing = await manager.findOne(IssuancePolicyEntity, { where: { serviceAccountId: id } });
      const saved = await manager.save(
        existing ? Object.assign(existing, values) : manager.create(IssuancePolicyEntity, { serviceAccountId: id, ...values }),
      );
      await this.record(
        manager,
        actor,
        account,
        'service_account_update',
        `${existing ? 'Replaced' : 'Set'} issuance policy of '${account.name}'`,
      );
      return saved;
    });
  }

  async deletePolicy(actor: Principal, id: number): Promise<void> {
    const account = await this.get(actor, id);
    await this.dataSource.transaction(async (manager) => {
      const result = await manager.delete(IssuancePolicyEntity, { serviceAccountId: id });
      if (!result.affected) throw new NotFoundError('The service account has no issuance policy', 'policy_not_found');
      await this.record(manager, actor, account, 'service_account_update', `Removed issuance policy of '${account.name}' (deny-all)`);
    });
  }

  private record(
    manager: EntityManager,
    actor: Principal,
    account: ServiceAccountEntity,
    action:
      | 'service_account_create'
      | 'service_account_update'
      | 'service_account_delete'
      | 'service_account_token_create'
      | 'service_account_token_revoke',
    detail: string,
  ): Promise<void> {
    return this.audit.record(manager, {
      action,
      actor,
      organizationId: account.organizationId,
      resourceType: 'service_account',
      resourceId: account.id,
      detail,
    });
  }

  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'service_accounts_org_name_key') throw nameTaken();
      throw error;
    }
  }
}

async function assertNameFree(manager: EntityManager, organizationId: number, name: string, exceptId?: number): Promise<void> {
  const query = manager
    .createQueryBuilder(ServiceAccountEntity, 'sa')
    .where('sa.organization_id = :organizationId', { organizationId })
    .andWhere('lower(sa.name) = lower(:name)', { name });
  if (exceptId !== undefined) query.andWhere('sa.id <> :exceptId', { exceptId });
  if (await query.getExists()) throw nameTaken();
}

/** A tag or role slug as the platform spells them (letters, digits, `-`, `_`). */
function slugProblem(slug: string): string | undefined {
  return /^[-a-z0-9_]+$/.test(slug) ? undefined : 'is not a slug';
}

function validatePolicyEntries(values: {
  cnPatterns: string[];
  sanDnsPatterns: string[];
  sanIpCidrs: string[];
  sanEmailDomains: string[];
  boundDeviceTags: string[];
  boundDeviceRoles: string[];
}): void {
  const problems: FieldProblem[] = [];
  const check = (field: string, entries: string[], problemOf: (entry: string) => string | undefined) =>
    entries.forEach((entry, index) => {
      const problem = problemOf(entry);
      if (problem) problems.push({ loc: ['body', field, index], msg: `${JSON.stringify(entry)} ${problem}`, type: 'policy_entry' });
    });
  check('cn_patterns', values.cnPatterns, globProblem);
  check('san_dns_patterns', values.sanDnsPatterns, globProblem);
  check('san_ip_cidrs', values.sanIpCidrs, (cidr) => {
    const parsed = parseCidr(cidr);
    return typeof parsed === 'string' ? parsed : undefined;
  });
  check('san_email_domains', values.sanEmailDomains, (domain) => (EMAIL_DOMAIN.test(domain) ? undefined : 'is not a domain name'));
  check('bound_device_tags', values.boundDeviceTags, slugProblem);
  check('bound_device_roles', values.boundDeviceRoles, slugProblem);
  if (problems.length > 0) throw new RequestValidationError(problems);
}

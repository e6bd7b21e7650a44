import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AccessPolicy } from '../../common/auth/access-policy';
import { Principal } from '../../common/auth/principal';
import { violatedUniqueConstraint } from '../../common/database/unique-violation';
import { ConflictError, ForbiddenError, InvalidRequestError, NotFoundError } from '../../common/errors/common-errors';
import { AuditService } from '../audit/audit.service';
import { userNotFound } from '../users/users.service';
import { CertificateAuthorityEntity } from '../pki/certificate-authority.entity';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import { UserEntity } from '../users/user.entity';
import { OrganizationEntity } from './organization.entity';
import { CreateOrganizationDto, UpdateOrganizationDto } from './orgs.dto';

export function organizationNotFound(): NotFoundError {
  return new NotFoundError('Organization not found', 'organization_not_found');
}

function nameTaken(): InvalidRequestError {
  return new InvalidRequestError('Organization with this name already exists', 'organization_name_taken');
}

/**
 * Organizations and their membership. Members and superusers see an organization; its admins and
 * superusers change it; everyone else is told it does not exist.
 */
@Injectable()
export class OrgsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(OrganizationEntity) private readonly organizations: Repository<OrganizationEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly policy: AccessPolicy,
    private readonly audit: AuditService,
  ) {}

  async create(actor: Principal, dto: CreateOrganizationDto): Promise<OrganizationEntity> {
    return this.writeNamed(async (manager) => {
      await assertNameFree(manager, dto.name);
      const organization = await manager.save(manager.create(OrganizationEntity, { name: dto.name, description: dto.description ?? null }));
      await this.audit.record(manager, {
        action: 'org_create',
        actor,
        organizationId: organization.id,
        resourceType: 'organization',
        resourceId: organization.id,
        detail: `Created organization '${organization.name}'`,
      });
      return organization;
    });
  }

  /** Superusers see every organization; everyone else at most their own. */
  list(actor: Principal, skip: number, limit: number): Promise<OrganizationEntity[]> {
    const scope = this.policy.listScope(actor);
    if ('none' in scope) return Promise.resolve([]);
    const where = 'organizationId' in scope ? { id: scope.organizationId } : {};
    return this.organizations.find({ where, order: { name: 'ASC', id: 'ASC' }, skip, take: limit });
  }

  get(actor: Principal, id: number): Promise<OrganizationEntity> {
    return this.findVisible(actor, id);
  }

  async update(actor: Principal, id: number, dto: UpdateOrganizationDto): Promise<OrganizationEntity> {
    const organization = await this.findVisible(actor, id);
    this.policy.assert(actor, 'manage', { organizationId: organization.id }, organizationNotFound);
    return this.writeNamed(async (manager) => {
      const changed: string[] = [];
      if (dto.name !== undefined && dto.name !== organization.name) {
        await assertNameFree(manager, dto.name, organization.id);
        organization.name = dto.name;
        changed.push('name');
      }
      if (dto.description !== undefined && dto.description !== organization.description) {
        organization.description = dto.description;
        changed.push('description');
      }
      const saved = await manager.save(organization);
      await this.audit.record(manager, {
        action: 'org_update',
        actor,
        organizationId: saved.id,
        resourceType: 'organization',
        resourceId: saved.id,
        detail: `Updated organization '${saved.name}': ${changed.join(', ') || 'no changes'}`,
      });
      return saved;
    });
  }

  async remove(actor: Principal, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const organization = await manager.findOne(OrganizationEntity, { where: { id } });
      if (!organization) throw organizationNotFound();
      if (await manager.exists(UserEntity, { where: { organizationId: id } })) {
        throw new InvalidRequestError('Cannot delete organization with users. Remove all users first.', 'organization_has_users');
      }
      const owned = [
        (await manager.exists(CertificateAuthorityEntity, { where: { organizationId: id } })) && 'certificate authorities',
        (await manager.exists(ServiceAccountEntity, { where: { organizationId: id } })) && 'service accounts',
      ].filter(Boolean);
      if (owned.length > 0) {
        throw new InvalidRequestError(
          `Cannot delete organization that owns ${owned.join(' and ')}. Reassign or delete them first.`,
          'organization_owns_resources',
        );
      }
      // Of concurrent deletes only the one that removed the row answers 204 and audits.
      if (!(await manager.delete(OrganizationEntity, { id })).affected) throw organizationNotFound();
      await this.audit.record(manager, {
        action: 'org_delete',
        actor,
        organizationId: id,
        resourceType: 'organization',
        resourceId: id,
        detail: `Deleted organization '${organization.name}'`,
      });
    });
  }

  /**
   * Puts a user into the organization. Admins may take in users without an organization or
   * already in theirs; a user of another organization does not exist for them. Adding a member
   * again changes nothing and audits nothing: the answer is the member.
   */
  async addUser(actor: Principal, organizationId: number, userId: number): Promise<UserEntity> {
    const organization = await this.findManageable(actor, organizationId);
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user) throw userNotFound();
    if (actor.role !== 'superuser') {
      if (user.organizationId !== null && user.organizationId !== organization.id) throw userNotFound();
      if (user.role === 'superuser') throw new ForbiddenError('Only superusers can change a superuser', 'superuser_target');
    }
    if (user.organizationId === organization.id) return user;
    return this.setMembership(actor, user, organization, 'org_add_user');
  }

  async removeUser(actor: Principal, organizationId: number, userId: number): Promise<UserEntity> {
    const organization = await this.findManageable(actor, organizationId);
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user || user.organizationId !== organization.id) throw userNotFound();
    if (actor.role !== 'superuser' && user.role === 'superuser') {
      throw new ForbiddenError('Only superusers can change a superuser', 'superuser_target');
    }
    return this.setMembership(actor, user, organization, 'org_remove_user');
  }

  async members(actor: Principal, organizationId: number, skip: number, limit: number): Promise<UserEntity[]> {
    await this.findVisible(actor, organizationId);
    return this.users.find({ where: { organizationId }, order: { id: 'ASC' }, skip, take: limit });
  }

  private async findVisible(actor: Principal, id: number): Promise<OrganizationEntity> {
    const organization = await this.organizations.findOne({ where: { id } });
    if (!organization || !this.policy.canSee(actor, { organizationId: organization.id })) throw organizationNotFound();
    return organization;
  }

  private async findManageable(actor: Principal, id: number): Promise<OrganizationEntity> {
    const organization = await this.findVisible(actor, id);
    this.policy.assert(actor, 'manage', { organizationId: organization.id }, organizationNotFound);
    return organization;
  }

  private async setMembership(
    actor: Principal,
    user: UserEntity,
    organization: OrganizationEntity,
    action: 'org_add_user' | 'org_remove_user',
  ): Promise<UserEntity> {
    const adding = action === 'org_add_user';
    return this.dataSource.transaction(async (manager) => {
      // Conditional on the membership the checks above saw, so of concurrent changes exactly one applies and audits.
      const result = await manager
        .createQueryBuilder()
        .update(UserEntity)
        .set({ organizationId: adding ? organization.id : null })
        .where('id = :id AND organization_id IS NOT DISTINCT FROM :seen', { id: user.id, seen: user.organizationId })
        .execute();
      if (!result.affected) {
        const current = await manager.findOne(UserEntity, { where: { id: user.id } });
        if (!current) throw userNotFound();
        // A concurrent add to the same organization won: this one is a repeat, answered as one.
        if (adding && current.organizationId === organization.id) return current;
        throw new ConflictError(
          `User '${user.username}' changed organization while this request ran; nothing was changed`,
          'membership_changed_concurrently',
        );
      }
      await this.audit.record(manager, {
        action,
        actor,
        organizationId: organization.id,
        resourceType: 'user',
        resourceId: user.id,
        detail: `${adding ? 'Added' : 'Removed'} user '${user.username}' ${adding ? 'to' : 'from'} organization '${organization.name}'`,
      });
      return manager.findOneOrFail(UserEntity, { where: { id: user.id } });
    });
  }

  /** Runs a write that sets an organization name, turning a lost uniqueness race into the same 400. */
  private async writeNamed<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'organizations_name_lower_key') throw nameTaken();
      throw error;
    }
  }
}

async function assertNameFree(manager: EntityManager, name: string, exceptId?: number): Promise<void> {
  const query = manager.createQueryBuilder(OrganizationEntity, 'o').where('lower(o.name) = lower(:name)', { name });
  if (exceptId !== undefined) query.andWhere('o.id <> :exceptId', { exceptId });
  if (await query.getExists()) throw nameTaken();
}

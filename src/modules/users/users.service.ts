import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AccessPolicy } from '../../common/auth/access-policy';
import { sameSecret } from '../../common/auth/same-secret';
import { applyCapabilityFlags, capabilityColumnsFrom } from '../../common/auth/capability-columns';
import { CAPABILITIES, Principal, Role } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { violatedUniqueConstraint } from '../../common/database/unique-violation';
import { ForbiddenError, InvalidRequestError, NotFoundError, UnauthenticatedError } from '../../common/errors/common-errors';
import { AuditService } from '../audit/audit.service';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionService } from '../auth/session.service';
import { OrganizationEntity } from '../orgs/organization.entity';
import { CreateUserDto, UpdateUserDto } from './users.dto';
import { UserEntity } from './user.entity';
import { UserRecord, userRowOf } from './user-principal';

/** Serializes user creation so that two simultaneous "first user" requests cannot both bootstrap. */
const USER_CREATION_LOCK_KEY = 7_310_442_020;

export function userNotFound(): NotFoundError {
  return new NotFoundError('User not found', 'user_not_found');
}

/** Which PATCH fields need which standing; checked in this order, the first refusal names its field. */
const SUPERUSER_ONLY_FIELDS = ['role', 'is_active', 'organization_id'] as const;
const CREDENTIAL_FIELDS = ['email', 'password'] as const;

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly policy: AccessPolicy,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates a user. With no users at all, anyone may create any role (bootstrap), given the
   * BOOTSTRAP_TOKEN when one is set. Afterwards the caller's right to create this account is checked
   * before anything about existing accounts, so anonymous callers cannot probe which usernames exist.
   */
  async create(actor: Principal | undefined, dto: CreateUserDto, bootstrapToken?: string): Promise<UserEntity> {
    const role = dto.role ?? 'user';
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query('SELECT pg_advisory_xact_lock($1)', [USER_CREATION_LOCK_KEY]);
        const bootstrap = (await manager.count(UserEntity)) === 0;
        if (bootstrap) this.assertBootstrapToken(bootstrapToken);
        const organizationId = bootstrap ? (dto.organization_id ?? null) : this.authorizeCreation(actor, dto, role);
        await this.assertUnique(manager, dto.username, dto.email);
        await assertOrganizationExists(manager, organizationId);
        const user = manager.create(UserEntity, {
          username: dto.username,
          email: dto.email.toLowerCase(),
          passwordHash,
          role,
          organizationId,
          ...capabilityColumnsFrom(dto),
        });
        await manager.save(user);
        await this.audit.record(manager, {
          action: 'user_create',
          actor: actor ?? null,
          username: actor ? undefined : user.username,
          organizationId: user.organizationId,
          resourceType: 'user',
          resourceId: user.id,
          detail: `Created user '${user.username}' with role ${role}${bootstrap ? ' (first user)' : ''}`,
        });
        return user;
      });
    } catch (error) {
      throw translateUniqueViolation(error) ?? error;
    }
  }

  list(skip: number, limit: number): Promise<UserEntity[]> {
    return this.users.find({ order: { id: 'ASC' }, skip, take: limit });
  }

  /** Self, admins of the user's organization and superusers may read a user; others get 403 or 404. */
  /** The calling user: the row its credential was checked against in this request, else read now. */
  async current(actor: Principal): Promise<UserRecord> {
    return userRowOf(actor) ?? this.get(actor, actor.id);
  }

  async get(actor: Principal, id: number): Promise<UserEntity> {
    const user = await this.findVisible(actor, id);
    if (actor.id !== user.id && actor.role === 'user') throw new ForbiddenError();
    return user;
  }

  async update(actor: Principal, id: number, dto: UpdateUserDto): Promise<UserEntity> {
    const target = await this.findVisible(actor, id);
    this.authorizeUpdate(actor, target, dto);
    const passwordHash = dto.password === undefined ? undefined : await this.hasher.hash(dto.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        const user = await manager.findOneOrFail(UserEntity, { where: { id } });
        const changed = await this.applyUpdate(manager, user, dto, passwordHash);
        await manager.save(user);
        if (dto.password !== undefined) await this.sessions.revokeAllOfUser(manager, user.id, 'password_change');
        if (changed.includes('is_active') && !user.isActive) await this.sessions.revokeAllOfUser(manager, user.id, 'deactivated');
        await this.audit.record(manager, {
          action: 'user_update',
          actor,
          organizationId: user.organizationId,
          resourceType: 'user',
          resourceId: user.id,
          detail: `Updated user '${user.username}': ${changed.join(', ') || 'no changes'}`,
        });
        return manager.findOneOrFail(UserEntity, { where: { id } });
      });
    } catch (error) {
      throw translateUniqueViolation(error) ?? error;
    }
  }

  async remove(actor: Principal, id: number): Promise<void> {
    if (actor.id === id) throw new InvalidRequestError('Superusers cannot delete themselves', 'cannot_delete_self');
    await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(UserEntity, { where: { id } });
      if (!user) throw userNotFound();
      // Of concurrent deletes only the one that removed the row answers 204 and audits.
      if (!(await manager.delete(UserEntity, { id })).affected) throw userNotFound();
      await this.audit.record(manager, {
        action: 'user_delete',
        actor,
        organizationId: user.organizationId,
        resourceType: 'user',
        resourceId: user.id,
        detail: `Deleted user '${user.username}'`,
      });
    });
  }

  /** A user the actor may know exists: self, same organization, or any for superusers. */
  async findVisible(actor: Principal, id: number): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { id } });
    if (!user) throw userNotFound();
    if (actor.id === user.id && actor.kind === 'user') return user;
    if (!this.policy.canSee(actor, user)) throw userNotFound();
    return user;
  }

  private assertBootstrapToken(presented: string | undefined): void {
    const expected = this.config.bootstrapToken;
    if (expected === undefined) return;
    if (presented === undefined || presented === '') {
      throw new UnauthenticatedError('Creating the first user requires the X-Bootstrap-Token header', 'bootstrap_token_required');
    }
    if (!sameSecret(presented, expected)) throw new ForbiddenError('Invalid bootstrap token', 'bootstrap_token_invalid');
  }

  /** Returns the organization the new user gets, or throws when the actor may not create it. */
  private authorizeCreation(actor: Principal | undefined, dto: CreateUserDto, role: Role): number | null {
    const wantsCapabilities = CAPABILITIES.some((capability) => dto[capability] === true);
    if (actor?.role === 'superuser') return dto.organization_id ?? null;
    if (actor?.role === 'admin') {
      if (role !== 'user') throw new ForbiddenError('Only superusers can create admin or superuser accounts', 'role_not_allowed');
      const organizationId = dto.organization_id ?? actor.organizationId;
      if (organizationId !== actor.organizationId) {
        throw new ForbiddenError('Admins can create users only in their own organization', 'organization_not_allowed');
      }
      if (wantsCapabilities && organizationId === null) {
        throw new ForbiddenError('Only an admin of an organization can grant capabilities', 'capability_not_allowed');
      }
      return organizationId;
    }
    if (actor) {
      // Plain users may create bare user accounts, as self-registration would give them.
      if (role !== 'user') throw new ForbiddenError('Only superusers can create admin or superuser accounts', 'role_not_allowed');
      if (dto.organization_id != null) {
        throw new ForbiddenError('Only admins and superusers can create users in an organization', 'organization_not_allowed');
      }
      if (wantsCapabilities) throw new ForbiddenError('Only admins and superusers can grant capabilities', 'capability_not_allowed');
      return null;
    }
    if (role !== 'user') {
      throw new ForbiddenError('Not enough permissions to create admin or superuser accounts', 'role_not_allowed');
    }
    if (!this.config.allowUnauthenticatedRegistration) {
      throw new ForbiddenError('Unauthenticated registration is disabled', 'registration_disabled');
    }
    if (dto.organization_id != null || wantsCapabilities) {
      throw new ForbiddenError('Self-registered accounts cannot choose an organization or capabilities', 'registration_fields_not_allowed');
    }
    return null;
  }

  /** Applies the spec's PATCH permission table; the first field the actor may not change is named. */
  private authorizeUpdate(actor: Principal, target: UserEntity, dto: UpdateUserDto): void {
    const isSuperuser = actor.role === 'superuser';
    const isSelf = actor.id === target.id;
    const adminOfTarget = this.policy.isAdminOf(actor, target.organizationId);
    if (!isSuperuser && target.role === 'superuser' && !isSelf) {
      throw new ForbiddenError('Only superusers can change a superuser', 'superuser_target');
    }
    for (const field of SUPERUSER_ONLY_FIELDS) {
      if (dto[field] !== undefined && !isSuperuser) throw fieldForbidden(field);
    }
    for (const capability of CAPABILITIES) {
      if (dto[capability] !== undefined && !isSuperuser && !adminOfTarget) throw fieldForbidden(capability);
    }
    for (const field of CREDENTIAL_FIELDS) {
      if (dto[field] !== undefined && !isSuperuser && !isSelf && !adminOfTarget) throw fieldForbidden(field);
    }
    if (isSelf && isSuperuser && dto.role !== undefined && dto.role !== 'superuser') {
      throw new ForbiddenError('Superusers cannot downgrade themselves', 'cannot_downgrade_self');
    }
    if (isSelf && dto.is_active === false) {
      throw new ForbiddenError('You cannot deactivate yourself', 'cannot_deactivate_self');
    }
  }

  /** Copies the requested changes onto the entity; returns the names of the fields that changed. */
  private async applyUpdate(
    manager: EntityManager,
    user: UserEntity,
    dto: UpdateUserDto,
    passwordHash: string | undefined,
  ): Promise<string[]> {
    const changed: string[] = [];
    if (dto.email !== undefined && dto.email.toLowerCase() !== user.email) {
      const email = dto.email.toLowerCase();
      if (await manager.exists(UserEntity, { where: { email } })) throw emailTaken();
      user.email = email;
      changed.push('email');
    }
    if (passwordHash !== undefined) {
      user.passwordHash = passwordHash;
      changed.push('password');
    }
    if (dto.role !== undefined && dto.role !== user.role) {
      user.role = dto.role;
      changed.push('role');
    }
    if (dto.is_active !== undefined && dto.is_active !== user.isActive) {
      user.isActive = dto.is_active;
      changed.push('is_active');
    }
    if (dto.organization_id !== undefined && dto.organization_id !== user.organizationId) {
      await assertOrganizationExists(manager, dto.organization_id);
      user.organizationId = dto.organization_id;
      changed.push('organization_id');
    }
    changed.push(...applyCapabilityFlags(user, dto));
    return changed;
  }

  private async assertUnique(manager: EntityManager, username: string, email: string): Promise<void> {
    if (await manager.exists(UserEntity, { where: { username } })) throw usernameTaken();
    if (await manager.exists(UserEntity, { where: { email: email.toLowerCase() } })) throw emailTaken();
  }
}

export async function assertOrganizationExists(manager: EntityManager, organizationId: number | null): Promise<void> {
  if (organizationId === null) return;
  if (!(await manager.exists(OrganizationEntity, { where: { id: organizationId } }))) {
    throw new InvalidRequestError(`Organization with ID ${organizationId} not found`, 'unknown_organization');
  }
}

function fieldForbidden(field: string): ForbiddenError {
  return new ForbiddenError(`Not allowed to change ${field}`, 'field_not_allowed');
}

function usernameTaken(): InvalidRequestError {
  return new InvalidRequestError('Username already registered', 'username_taken');
}

function emailTaken(): InvalidRequestError {
  return new InvalidRequestError('Email already registered', 'email_taken');
}

function translateUniqueViolation(error: unknown): InvalidRequestError | undefined {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === 'users_username_key') return usernameTaken();
  if (constraint === 'users_email_key') return emailTaken();
  return undefined;
}

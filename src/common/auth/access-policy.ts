import { Injectable } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { ForbiddenError } from '../errors/common-errors';
import { Capability, Principal } from './principal';

/** What a principal wants to do to an organization-scoped resource. */
export type Action = 'read' | 'manage' | Capability;

/** Anything that belongs to an organization (or to none: then only superusers reach it). */
export interface ScopedResource {
  organizationId: number | null;
}

export type Decision = 'allow' | 'not_found' | 'forbidden';

/**
 * The one answer to "may principal P do action A on resource R", used by every module.
 *
 * 1. Superusers may do anything.
 * 2. A resource outside the caller's organization (or with no organization, or a caller with no
 *    organization) does not exist for the caller: `not_found`, so nothing leaks.
 * 3. Inside the organization: admins may do anything, everyone may read, and each capability
 *    action needs its flag. `manage` (changing the organization's own objects) is admin-only.
 * There is no creator bypass: creating something grants nothing beyond these rules.
 */
@Injectable()
export class AccessPolicy {
  decide(principal: Principal, action: Action, resource: ScopedResource): Decision {
    if (principal.role === 'superuser') return 'allow';
    if (!this.sharesOrganization(principal, resource)) return 'not_found';
    if (principal.role === 'admin' || action === 'read') return 'allow';
    if (action === 'manage') return 'forbidden';
    return principal.capabilities.has(action) ? 'allow' : 'forbidden';
  }

  /** Throws the caller-facing error for anything but `allow`. */
  assert(principal: Principal, action: Action, resource: ScopedResource, notFound: () => DomainError): void {
    const decision = this.decide(principal, action, resource);
    if (decision === 'not_found') throw notFound();
    if (decision === 'forbidden') throw new ForbiddenError();
  }

  canSee(principal: Principal, resource: ScopedResource): boolean {
    return this.decide(principal, 'read', resource) === 'allow';
  }

  /** Capabilities that need no particular resource (e.g. creating a CA): superuser, admin, or the flag. */
  hasCapability(principal: Principal, capability: Capability): boolean {
    if (principal.role === 'superuser') return true;
    if (principal.organizationId === null) return false;
    return principal.role === 'admin' || principal.capabilities.has(capability);
  }

  /**
   * How a list must be filtered: everything, one organization, or nothing at all (a caller
   * without an organization sees empty lists).
   */
  listScope(principal: Principal): { all: true } | { organizationId: number } | { none: true } {
    if (principal.role === 'superuser') return { all: true };
    if (principal.organizationId === null) return { none: true };
    return { organizationId: principal.organizationId };
  }

  isAdminOf(principal: Principal, organizationId: number | null): boolean {
    return principal.role === 'admin' && organizationId !== null && principal.organizationId === organizationId;
  }

  private sharesOrganization(principal: Principal, resource: ScopedResource): boolean {
    return principal.organizationId !== null && principal.organizationId === resource.organizationId;
  }
}

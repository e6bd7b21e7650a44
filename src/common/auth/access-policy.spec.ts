import { AccessPolicy, Action } from './access-policy';
import { Capability, Principal, Role } from './principal';

function principal(role: Role, organizationId: number | null, capabilities: Capability[] = []): Principal {
  return { kind: 'user', id: 1, name: 'p', role, organizationId, capabilities: new Set(capabilities) };
}

describe('AccessPolicy.decide', () => {
  const policy = new AccessPolicy();
  const inOrg1 = { organizationId: 1 };
  const inOrg2 = { organizationId: 2 };
  const orgless = { organizationId: null };

  it.each<[string, Principal, Action, { organizationId: number | null }, string]>([
    ['superuser, any org', principal('superuser', null), 'can_delete_ca', inOrg2, 'allow'],
    ['superuser, org-less resource', principal('superuser', 1), 'manage', orgless, 'allow'],
    ['admin, own org', principal('admin', 1), 'can_delete_ca', inOrg1, 'allow'],
    ['admin, own org, manage', principal('admin', 1), 'manage', inOrg1, 'allow'],
    ['admin, other org', principal('admin', 1), 'read', inOrg2, 'not_found'],
    ['admin, org-less resource', principal('admin', 1), 'read', orgless, 'not_found'],
    ['org-less admin, org-less resource', principal('admin', null), 'read', orgless, 'not_found'],
    ['user, own org, read', principal('user', 1), 'read', inOrg1, 'allow'],
    ['user, own org, manage', principal('user', 1), 'manage', inOrg1, 'forbidden'],
    ['user, own org, capability missing', principal('user', 1), 'can_revoke_cert', inOrg1, 'forbidden'],
    ['user, own org, capability held', principal('user', 1, ['can_revoke_cert']), 'can_revoke_cert', inOrg1, 'allow'],
    ['user with capability, other org', principal('user', 1, ['can_revoke_cert']), 'can_revoke_cert', inOrg2, 'not_found'],
  ])('%s → %s', (_name, who, action, resource, expected) => {
    expect(policy.decide(who, action, resource)).toBe(expected);
  });

  it('scopes lists: all for superusers, own organization, nothing without one', () => {
    expect(policy.listScope(principal('superuser', null))).toEqual({ all: true });
    expect(policy.listScope(principal('user', 3))).toEqual({ organizationId: 3 });
    expect(policy.listScope(principal('admin', null))).toEqual({ none: true });
  });

  it('grants resource-free capabilities to superusers, admins with an organization, and flag holders', () => {
    expect(policy.hasCapability(principal('superuser', null), 'can_create_ca')).toBe(true);
    expect(policy.hasCapability(principal('admin', 1), 'can_create_ca')).toBe(true);
    expect(policy.hasCapability(principal('admin', null), 'can_create_ca')).toBe(false);
    expect(policy.hasCapability(principal('user', 1, ['can_create_ca']), 'can_create_ca')).toBe(true);
    expect(policy.hasCapability(principal('user', 1), 'can_create_ca')).toBe(false);
    expect(policy.hasCapability(principal('user', null, ['can_create_ca']), 'can_create_ca')).toBe(false);
  });
});

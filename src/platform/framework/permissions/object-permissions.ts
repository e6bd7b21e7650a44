import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import { OBJECT_TYPE_TABLE } from '../resource/resource-entities';
import { ConstraintSet, readConstraints } from './permission-constraints';

/** What a caller may do with one action on one object type: everything, nothing, or rows matching any constraint set. */
export type Restriction = { kind: 'all' } | { kind: 'none' } | { kind: 'some'; sets: ConstraintSet[] };

interface Grant {
  objectTypes: ReadonlySet<string>;
  actions: ReadonlySet<string>;
  /** null: unconstrained. */
  sets: ConstraintSet[] | null;
}

/**
 * NetBox's object permissions: enabled permissions assigned to the user directly or through a group
 * grant actions on object types, optionally constrained to matching objects. Superusers bypass them.
 * Grants are read once per principal object, i.e. once per request.
 */
@Injectable()
export class ObjectPermissions {
  private readonly grantsByPrincipal = new WeakMap<Principal, Promise<Grant[]>>();

  async restriction(manager: EntityManager, principal: Principal, objectType: string, action: string): Promise<Restriction> {
    if (principal.role === 'superuser') return { kind: 'all' };
    const grants = (await this.grants(manager, principal)).filter(
      (grant) => grant.objectTypes.has(objectType) && grant.actions.has(action),
    );
    if (grants.length === 0) return { kind: 'none' };
    if (grants.some((grant) => grant.sets === null)) return { kind: 'all' };
    return { kind: 'some', sets: grants.flatMap((grant) => grant.sets ?? []) };
  }

  private grants(manager: EntityManager, principal: Principal): Promise<Grant[]> {
    let grants = this.grantsByPrincipal.get(principal);
    if (!grants) {
      grants = this.loadGrants(manager, principal.id);
      this.grantsByPrincipal.set(principal, grants);
    }
    return grants;
  }

  private async loadGrants(manager: EntityManager, userId: number): Promise<Grant[]> {
    const rows = (await manager.query(
      `SELECT p.actions, p.constraints,
              array_agg(ot.app_label || '.' || ot.model) AS object_types
         FROM users_objectpermission p
         JOIN users_objectpermission_object_types pot ON pot.objectpermission_id = p.id
         JOIN ${OBJECT_TYPE_TABLE} ot ON ot.id = pot.objecttype_id
        WHERE p.enabled
          AND (EXISTS (SELECT 1 FROM users_objectpermission_users pu WHERE pu.objectpermission_id = p.id AND pu.user_id = $1)
            OR EXISTS (SELECT 1 FROM users_objectpermission_groups pg
                         JOIN users_group_users gu ON gu.group_id = pg.group_id
                        WHERE pg.objectpermission_id = p.id AND gu.user_id = $1))
        GROUP BY p.id`,
      [userId],
    )) as Array<{ actions: string[]; constraints: unknown; object_types: string[] }>;
    return rows.flatMap((row) => {
      const constraints = readConstraints(row.constraints);
      // A malformed constraint must never widen access: such a permission grants nothing.
      if (constraints.problems.length > 0) return [];
      return [{ objectTypes: new Set(row.object_types), actions: new Set(row.actions), sets: constraints.sets }];
    });
  }
}

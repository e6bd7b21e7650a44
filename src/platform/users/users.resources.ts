import { countsOf } from '../framework/resource/computed-properties';
import { throughFilter } from '../framework/resource/extra-filters';
import { boolean, choice, json, many, relation, stringList, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { readConstraints } from '../framework/permissions/permission-constraints';
import { ObjectTypeResource } from '../core/core.resources';
import { UserEntity } from '../../modules/users/user.entity';

/** The identity store shared with the PKI side (`users` table, managed by its users module). */
export const UserResource = defineResource({
  appLabel: 'users',
  model: 'user',
  path: 'users',
  verboseName: 'user',
  table: 'users',
  externalEntity: () => UserEntity,
  readOnly: true,
  fields: {
    username: text({ maxLength: 150, required: true, search: true }),
    email: text({ maxLength: 320, search: true }),
    is_active: boolean({ default: true }),
    role: choice(['superuser', 'admin', 'user'], { readOnly: true }),
  },
  display: (row) => String(row.username),
  naturalKey: 'username',
  brief: ['username'],
  ordering: ['username'],
  standard: { tags: false, customFields: false, created: 'created_at', lastUpdated: 'updated_at', changeLogged: false },
});

export const GroupResource = defineResource({
  appLabel: 'users',
  model: 'group',
  path: 'groups',
  verboseName: 'group',
  table: 'users_group',
  fields: {
    name: text({ maxLength: 150, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    users: many(() => UserResource),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
});

const ACTION_NAME = {
  regex: /^[a-z][a-z0-9_]{0,29}$/,
  message: 'Actions are lowercase words such as view, add, change, delete or approve.',
};

export const ObjectPermissionResource = defineResource({
  appLabel: 'users',
  model: 'objectpermission',
  path: 'permissions',
  verboseName: 'permission',
  table: 'users_objectpermission',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    enabled: boolean({ default: true }),
    object_types: many(() => ObjectTypeResource, { required: true }),
    actions: stringList({ required: true, itemPattern: ACTION_NAME }),
    constraints: json({
      nullable: true,
      validate: (value) => readConstraints(value).problems,
    }),
    groups: many(() => GroupResource),
    users: many(() => UserResource),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description', 'enabled', 'actions'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
});

/** A grouping of owners (NetBox 4.5). */
export const OwnerGroupResource = defineResource({
  appLabel: 'users',
  model: 'ownergroup',
  path: 'owner-groups',
  verboseName: 'owner group',
  table: 'users_ownergroup',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
  extensions: [countsOf({ member_count: { table: 'users_owner', column: 'group_id' } })],
});

/** A set of users and user groups that NetBox 4.5 objects may name as their `owner`. */
export const OwnerResource = defineResource({
  appLabel: 'users',
  model: 'owner',
  path: 'owners',
  verboseName: 'owner',
  table: 'users_owner',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    group: relation(() => OwnerGroupResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    user_groups: many(() => GroupResource),
    users: many(() => UserResource),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
  extraFilters: {
    user_id: throughFilter('id', 'SELECT owner_id FROM users_owner_users WHERE user_id IN (:values)'),
    user: throughFilter(
      'id',
      'SELECT j.owner_id FROM users_owner_users j JOIN users u ON u.id = j.user_id WHERE u.username IN (:values)',
      'text',
    ),
    user_group_id: throughFilter('id', 'SELECT owner_id FROM users_owner_user_groups WHERE group_id IN (:values)'),
    user_group: throughFilter(
      'id',
      'SELECT j.owner_id FROM users_owner_user_groups j JOIN users_group g ON g.id = j.group_id WHERE g.name IN (:values)',
      'text',
    ),
  },
});

import { choice, genericRelation, json, relation, text, datetime } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { OBJECT_TYPE_TABLE } from '../framework/resource/resource-entities';

/** NetBox's content types: one row per resource, kept in step with the declarations at boot. */
export const ObjectTypeResource = defineResource({
  appLabel: 'core',
  model: 'objecttype',
  path: 'object-types',
  verboseName: 'object type',
  table: OBJECT_TYPE_TABLE,
  fields: {
    app_label: text({ maxLength: 100, required: true, search: true }),
    model: text({ maxLength: 100, required: true, search: true }),
  },
  display: (row) => `${String(row.app_label)}.${String(row.model)}`,
  brief: ['app_label', 'model'],
  ordering: ['app_label', 'model'],
  uniqueTogether: [['app_label', 'model']],
  readOnly: true,
  standard: { tags: false, customFields: false, created: false, lastUpdated: false, changeLogged: false },
});

export const OBJECT_CHANGE_ACTIONS = [
  ['create', 'Created'],
  ['update', 'Updated'],
  ['delete', 'Deleted'],
] as const;

/** The change log: written by the framework in the transaction of each change, read-only over the API. */
export const ObjectChangeResource = defineResource({
  appLabel: 'core',
  model: 'objectchange',
  path: 'object-changes',
  verboseName: 'object change',
  table: 'core_objectchange',
  fields: {
    time: datetime({ required: true, readOnly: true }),
    // By object type: users.resources refers to the object types declared here.
    user: relation('users.user', { onDelete: 'SET NULL', readOnly: true }),
    user_name: text({ maxLength: 150, readOnly: true, search: true }),
    request_id: text({ maxLength: 128, readOnly: true }),
    action: choice(OBJECT_CHANGE_ACTIONS, { required: true, readOnly: true }),
    changed_object: genericRelation({ required: true, readOnly: true }),
    related_object: genericRelation({ readOnly: true }),
    object_repr: text({ maxLength: 200, readOnly: true, search: true }),
    message: text({ maxLength: 200, readOnly: true, search: true }),
    prechange_data: json({ readOnly: true, noFilter: true }),
    postchange_data: json({ readOnly: true, noFilter: true }),
  },
  display: (row) => `${String(row.object_repr)} ${String(row.action)}d`,
  brief: ['time', 'user_name', 'action', 'object_repr'],
  ordering: ['-time'],
  readOnly: true,
  standard: { tags: false, customFields: false, created: false, lastUpdated: false, changeLogged: false },
});

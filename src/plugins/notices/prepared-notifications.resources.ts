import {
  choice,
  ContactResource,
  datetime,
  defineResource,
  integer,
  json,
  longText,
  many,
  relation,
  text,
} from '../../platform/plugin-api';
import { NOTICES_API_PREFIX } from './api-prefix';
import { claimAction, deliveryEventAction, releaseAction } from './outbound-claims';
import { headerProblems } from './notification-templates.resources';
import { beforeNotificationUpdate, NOTIFICATION_STATUSES, recipientsSnapshot } from './prepared-notification-lifecycle';

/**
 * An outbound notification composed from a template for an event (or standalone), with its contacts,
 * rendered subject, bodies, headers, CSS and iCal, moved through its delivery states by the API
 * (prepared-notification-lifecycle.ts). `status` reads `{value, label}` like every platform choice,
 * so an event rule's condition `status.value = ready` matches it.
 */
export const PreparedNotificationResource = defineResource({
  appLabel: 'notices',
  model: 'preparednotification',
  path: 'prepared-notifications',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'prepared notification',
  graphqlName: 'prepared_notification',
  table: 'notices_preparednotification',
  fields: {
    template: relation('notices.notificationtemplate', { onDelete: 'PROTECT', required: true }),
    event_content_type: relation('core.objecttype', { onDelete: 'CASCADE' }),
    event_id: integer({ min: 1, max: 2_147_483_647, nullable: true }),
    status: choice(NOTIFICATION_STATUSES, { default: 'draft' }),
    contacts: many(() => ContactResource),
    recipients: json({ readOnly: true }),
    subject: text({ maxLength: 255, search: true }),
    body_text: longText({ search: true }),
    body_html: longText(),
    headers: json({ default: () => ({}), validate: headerProblems }),
    css: longText(),
    ical_content: longText(),
    approved_by: relation('users.user', { onDelete: 'SET NULL', readOnly: true }),
    approved_at: datetime({ nullable: true, readOnly: true }),
    sent_at: datetime({ nullable: true, readOnly: true }),
    delivered_at: datetime({ nullable: true, readOnly: true }),
    // When a recipient first opened it, as the mail worker reports (an `Open` delivery event).
    viewed_at: datetime({ nullable: true, readOnly: true }),
    // The outbound claim (outbound-claims.ts): who may send it now, how often it was tried, and when next.
    send_attempts: integer({ min: 0, max: 2_147_483_647, default: 0, readOnly: true }),
    claimed_until: datetime({ nullable: true, readOnly: true }),
    // Proof of the current claim, given only to the claimer (claim/ answers it): never read or written through the API.
    claim_token: text({ maxLength: 64, readOnly: true, writeOnly: true, noFilter: true }),
    next_attempt_at: datetime({ nullable: true, readOnly: true }),
    last_error: longText({ readOnly: true }),
    // Ids of the delivery events applied (the newest ones), so a replayed event is applied once: internal, never in the API.
    delivery_event_ids: json({ default: () => [], readOnly: true, writeOnly: true, noFilter: true }),
    // Carried by a status change only (journal message; when it happened), never kept on the row.
    message: longText({ writeOnly: true }),
    timestamp: datetime({ nullable: true, writeOnly: true }),
  },
  display: (row) => String(row.subject || `Notification ${row.id}`),
  brief: ['subject', 'status'],
  ordering: ['-created'],
  validate: (values) => {
    const problems: Record<string, string[]> = {};
    // A new notification is a draft: approval (ready) snapshots the recipients, which only a move does.
    if (values.id === undefined && (values.status ?? 'draft') !== 'draft')
      problems.status = ['A prepared notification is created as a draft; move it to ready with an update.'];
    if (values.id === undefined && (values.message || values.timestamp))
      problems.message = ['A message or timestamp goes with a change of status.'];
    const hasType = values.event_content_type_id !== null && values.event_content_type_id !== undefined;
    const hasId = values.event_id !== null && values.event_id !== undefined;
    if (hasType !== hasId) problems[hasType ? 'event_id' : 'event_content_type'] = ['event_content_type and event_id go together.'];
    return problems;
  },
  // Upstream's serializer writes the template and contacts under these names.
  inputAliases: { template_id: 'template', contact_ids: 'contacts' },
  beforeUpdate: beforeNotificationUpdate,
  extensions: [recipientsSnapshot],
  actions: [claimAction(() => PreparedNotificationResource), releaseAction, deliveryEventAction],
});

import { datetime, defineResource, longText, NotFoundError, text } from '../../platform/plugin-api';
import { eventProblems, nestedPointers, objectPointer, objectTypeLabelFilter } from './event-attachment';
import { NOTICES_API_PREFIX } from './api-prefix';

const EMAIL = { regex: /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, message: 'Enter a valid email address.' };

/**
 * A provider's email about an event, as the mail worker received it: subject, sender, time, the
 * body it parsed, and the raw message (RFC 5322 text) kept for re-parsing. The raw message is
 * write-only in the object's representation (lists stay small) and read at `{id}/raw/` (JSON `{id, email}`).
 */
export const EventNotificationResource = defineResource({
  appLabel: 'notices',
  model: 'eventnotification',
  path: 'eventnotification',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'event notification',
  graphqlName: 'event_notification',
  table: 'notices_eventnotification',
  fields: {
    ...objectPointer('event'),
    // Provider subjects routinely pass upstream's 100 characters; the worker must never fail on one.
    subject: text({ maxLength: 255, required: true, search: true }),
    email_from: text({ maxLength: 254, required: true, search: true, pattern: EMAIL }),
    email_received: datetime({ required: true }),
    email_body: longText({ search: true }),
    email: longText({ writeOnly: true, noFilter: true }),
  },
  display: (row) => String(row.subject),
  brief: ['subject', 'email_from', 'email_received'],
  ordering: ['email_received'],
  validateAsync: eventProblems,
  extraFilters: { event_content_type: objectTypeLabelFilter('event') },
  extensions: [nestedPointers(['event'])],
  actions: [
    {
      name: 'raw',
      method: 'GET',
      permission: 'view',
      openapi: {
        summary: 'The raw message as received (RFC 5322 text); 404 when none was kept',
        response: { type: 'object', required: ['id', 'email'], properties: { id: { type: 'integer' }, email: { type: 'string' } } },
      },
      handle: async ({ row }) => {
        if (!row.email) throw new NotFoundError('No raw message was kept for this notification.');
        return { id: row.id, email: String(row.email) };
      },
    },
  ],
});

import { choice, datetime, decimal, defineResource, integer, json, longText, NotFoundError, text } from '../../platform/plugin-api';
import { NOTICES_API_PREFIX } from './api-prefix';

export const INBOUND_EMAIL_STATUSES = [
  ['processed', 'Processed'],
  ['unparsed', 'Unparsed'],
] as const;

/** Why an email produced no records (libs/mail's reasons, plus the platform's own provider lookup). */
export const UNPARSED_REASONS = [
  ['unreadable_email', 'Unreadable email'],
  ['unknown_provider', 'Unknown sender'],
  ['unsupported_format', 'Unsupported format'],
  ['no_maintenance_data', 'No maintenance data'],
  ['provider_not_found', 'Provider not on the platform'],
  ['provider_mismatch', "Calendar names another provider than the sender's"],
  ['auth_failed', 'Sender not authenticated (DKIM/SPF/DMARC)'],
] as const;

/**
 * Every provider email the inbound-email endpoint took, one per Message-ID (emails without one are
 * keyed by the SHA-256 of their text): what it said (parser, the maintenances it touched) or why it
 * gave nothing (`reason`, `detail`, and in `parser` the closest parser), with the parser's `confidence`,
 * `reasons` and `uncertainties`. Read-only; the raw text is kept `raw_mail_retention_days`
 * (then blanked, the row stays so a late re-delivery is still recognised) and read at `{id}/raw/`.
 */
export const InboundEmailResource = defineResource({
  appLabel: 'notices',
  model: 'inboundemail',
  path: 'inbound-emails',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'inbound email',
  graphqlName: 'inbound_email',
  table: 'notices_inboundemail',
  readOnly: true,
  standard: { tags: false, customFields: false, changeLogged: false },
  fields: {
    message_id: text({ maxLength: 255, unique: true, search: true }),
    email_from: text({ maxLength: 254, search: true }),
    subject: text({ maxLength: 255, search: true }),
    email_received: datetime({ nullable: true }),
    parser: text({ maxLength: 50 }),
    status: choice(INBOUND_EMAIL_STATUSES, { default: 'unparsed' }),
    reason: text({ maxLength: 50 }),
    detail: longText(),
    attempts: integer({ min: 1, max: 2_147_483_647, default: 1 }),
    results: json({ default: () => [] }),
    // The parser's confidence in what it read (1: no guesses) and its notes; for an unparsed email, the closest parser's.
    confidence: decimal({ precision: 3, scale: 2, min: 0, max: 1, nullable: true }),
    reasons: json({ default: () => [] }),
    uncertainties: json({ default: () => [] }),
    // The mail worker's sender authentication (DKIM, SPF, DMARC results, Authentication-Results style); empty: not checked.
    authentication: longText(),
    raw: longText({ writeOnly: true, noFilter: true }),
  },
  display: (row) => String(row.subject || row.message_id),
  brief: ['message_id', 'email_from', 'subject', 'status'],
  ordering: ['-created'],
  actions: [
    {
      name: 'raw',
      method: 'GET',
      permission: 'view',
      openapi: {
        summary: 'The raw message as received (RFC 5322 text); 404 once the retention period blanked it',
        response: { type: 'object', required: ['id', 'email'], properties: { id: { type: 'integer' }, email: { type: 'string' } } },
      },
      handle: async ({ row }) => {
        if (!row.raw) throw new NotFoundError('The raw message is no longer kept.');
        return { id: row.id, email: String(row.raw) };
      },
    },
  ],
});

import { type ResourceExtension, type ResourceHookContext, type ResourceRow, ResourceValidationError } from '../../platform/plugin-api';

/**
 * The delivery states of a prepared notification and the rules of a move between them, applied to
 * every update through the API (PATCH, PUT, bulk): draft → ready (approval: the recipients are
 * snapshotted from the contacts, approved_by/at set), ready → sent, sent → delivered | failed,
 * failed → ready (a retry); delivered is final. Writing the same status again changes nothing. A
 * move may carry a `message` (written to the notification's journal) and a `timestamp` (when it
 * happened, for sent_at/delivered_at).
 */
export const NOTIFICATION_STATUSES = [
  ['draft', 'Draft'],
  ['ready', 'Ready'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
] as const;

export const ALLOWED_MOVES: Readonly<Record<string, readonly string[]>> = {
  draft: ['ready'],
  ready: ['sent'],
  sent: ['delivered', 'failed'],
  failed: ['ready'],
  delivered: [],
};

/** The journal kind of a move's message, as upstream's. */
const JOURNAL_KINDS: Readonly<Record<string, string>> = { ready: 'info', sent: 'info', delivered: 'success', failed: 'warning' };

const moment = (value: unknown): number | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).getTime();

/**
 * `beforeUpdate`: refuses a move the machine does not allow (400 naming the allowed ones) and a
 * `timestamp` in the future or before the step it follows; answers the server-set columns of the
 * move; writes the message's journal entry. `message` and `timestamp` are never kept on the row.
 */
export async function beforeNotificationUpdate(
  context: ResourceHookContext,
  existing: ResourceRow,
  changes: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const from = String(existing.status);
  const to = changes.status === undefined ? from : String(changes.status);
  const carried: Record<string, unknown> = { message: '', timestamp: null };
  const timestamp = moment(changes.timestamp);
  if (to === from) {
    if (timestamp !== null || (typeof changes.message === 'string' && changes.message !== ''))
      throw new ResourceValidationError({ status: ['A message or timestamp goes with a change of status.'] });
    return carried;
  }
  const allowed = ALLOWED_MOVES[from] ?? [];
  if (!allowed.includes(to)) {
    throw new ResourceValidationError({
      status: [`Cannot transition from '${from}' to '${to}'. Valid: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`],
    });
  }
  const now = Date.now();
  if (timestamp !== null && timestamp > now + 1000)
    throw new ResourceValidationError({ timestamp: ['The timestamp cannot be in the future.'] });
  const at = new Date(timestamp ?? now);
  if (to === 'ready') {
    carried.approved_by_id = context.scope.principal.kind === 'user' ? context.scope.principal.id : null;
    carried.approved_at = at;
    carried.recipients = null;
    // A (re-)approval starts the sending afresh: no claim, no failed attempts.
    Object.assign(carried, { send_attempts: 0, claimed_until: null, claim_token: '', next_attempt_at: null, last_error: '' });
  }
  if (to === 'sent') {
    const approved = moment(existing.approved_at);
    if (timestamp !== null && approved !== null && timestamp < approved)
      throw new ResourceValidationError({ timestamp: ['The timestamp cannot be before the approval.'] });
    if (existing.sent_at === null || existing.sent_at === undefined || from === 'failed') carried.sent_at = at;
  }
  if (to === 'delivered') {
    const sent = moment(existing.sent_at);
    if (timestamp !== null && sent !== null && timestamp < sent)
      throw new ResourceValidationError({ timestamp: ['The timestamp cannot be before the notification was sent.'] });
    if (existing.delivered_at === null || existing.delivered_at === undefined) carried.delivered_at = at;
  }
  const message = typeof changes.message === 'string' ? changes.message.trim() : '';
  if (message !== '') {
    await context.createChildren('extras.journalentry', [
      {
        assigned_object_type: 'notices.preparednotification',
        assigned_object_id: existing.id,
        kind: JOURNAL_KINDS[to] ?? 'info',
        comments: `Status: ${from} → ${to}\n\n${message}`,
      },
    ]);
  }
  return carried;
}

/**
 * The recipients snapshot of an approval, taken after the row and its contacts are written (so
 * contacts and status may change in one request) and before the change is recorded: the move to
 * ready cleared `recipients` (beforeNotificationUpdate), this fills it from the contacts with an
 * email, or refuses the move (400) when there are none. A new notification starts with none.
 */
export const recipientsSnapshot: ResourceExtension = {
  keys: ['status'],
  represent: async () => new Map(),
  snapshot: async () => new Map(),
  validate: async () => ({}),
  apply: async (manager, row, _body, creating) => {
    if (creating) {
      await manager.query(`UPDATE notices_preparednotification SET recipients = '[]' WHERE id = $1`, [row.id]);
      return;
    }
    if (row.status !== 'ready' || row.recipients !== null) return;
    const recipients = (await manager.query(
      `SELECT c.id AS contact_id, c.email, c.name FROM tenancy_contact c
         JOIN notices_preparednotification_contacts j ON j.contact_id = c.id
        WHERE j.preparednotification_id = $1 AND c.email <> '' ORDER BY c.name, c.id`,
      [row.id],
    )) as Array<{ contact_id: number; email: string; name: string }>;
    if (recipients.length === 0)
      throw new ResourceValidationError({
        contacts: ['Cannot approve notification with no recipients. Add contacts with an email address first.'],
      });
    await manager.query(`UPDATE notices_preparednotification SET recipients = $2 WHERE id = $1`, [
      row.id,
      // `id` (the contact's) too: NetBox clients such as pynetbox read a list of objects as records and write them back by id.
      JSON.stringify(
        recipients.map(({ contact_id, email, name }) => ({ id: Number(contact_id), email, name, contact_id: Number(contact_id) })),
      ),
    ]);
  },
};

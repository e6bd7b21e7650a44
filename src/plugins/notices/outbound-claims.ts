import { randomBytes } from 'node:crypto';
import {
  ConflictError,
  type ResourceAction,
  type ResourceActionContext,
  type ResourceDefinition,
  ResourceValidationError,
} from '../../platform/plugin-api';

/**
 * Exactly-once sending for mail workers (poll, webhook, several replicas): a sender first claims a
 * ready notification — one conditional UPDATE, so of two racing claims one wins — and holds it for
 * a lease while it sends. Then it moves the notification to sent (PATCH status, as the spec's
 * outbound function does), or releases the claim with the error: the notification stays ready and
 * is not claimable again before a backoff (1, 2, 4 … minutes, at most an hour); the
 * `outbound_max_attempts`-th failure moves it to failed with the error in its journal.
 */
const DEFAULT_LEASE_SECONDS = 300;
const MAX_BACKOFF_SECONDS = 3600;

/** Rows of an UPDATE … RETURNING: TypeORM's PostgreSQL driver answers `[rows, count]` for an UPDATE. */
async function updateReturning<T>(context: ResourceActionContext, sql: string, params: unknown[]): Promise<T[]> {
  const result = (await context.manager.query(sql, params)) as unknown[];
  return (Array.isArray(result[0]) ? result[0] : result) as T[];
}

export const backoffSeconds = (attempts: number) => Math.min(60 * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_SECONDS);

function leaseSeconds(body: unknown): number {
  const value = (body as Record<string, unknown> | null)?.lease_seconds;
  if (value === undefined || value === null) return DEFAULT_LEASE_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 10 || value > 3600)
    throw new ResourceValidationError({ lease_seconds: ['Give the lease in whole seconds, 10 to 3600.'] });
  return value;
}

interface ClaimRow {
  status: string;
  claimed_until: Date | string | null;
  next_attempt_at: Date | string | null;
}

/** Why a claim was refused, from the row as it is now. */
function refusal(row: ClaimRow | undefined): string {
  if (!row) return 'The notification no longer exists.';
  if (row.status !== 'ready') return `The notification is ${row.status}, not ready.`;
  if (row.claimed_until && new Date(row.claimed_until).getTime() > Date.now())
    return `Another sender holds the notification until ${new Date(row.claimed_until).toISOString()}.`;
  return `The next attempt is due at ${new Date(row.next_attempt_at as string).toISOString()}.`;
}

/** The claim action of prepared notifications (`resource`: their definition, named lazily as it declares this action). */
export const claimAction = (resource: () => ResourceDefinition): ResourceAction => ({
  name: 'claim',
  method: 'POST',
  permission: 'change',
  openapi: {
    summary:
      'Claim a ready notification for sending (one claimer wins; 409 when it is not ready, held by another sender, or not yet due after a failure)',
    request: {
      type: 'object',
      properties: { lease_seconds: { type: 'integer', minimum: 10, maximum: 3600, default: DEFAULT_LEASE_SECONDS } },
    },
    response: {
      type: 'object',
      required: ['claim_token', 'claimed_until', 'send_attempts', 'notification'],
      properties: {
        claim_token: { type: 'string' },
        claimed_until: { type: 'string', format: 'date-time' },
        send_attempts: { type: 'integer' },
        notification: { type: 'object' },
      },
    },
  },
  handle: async (context: ResourceActionContext) => {
    const lease = leaseSeconds(context.body);
    const token = randomBytes(16).toString('hex');
    const claimed = await updateReturning<{ claimed_until: Date; send_attempts: number }>(
      context,
      `UPDATE notices_preparednotification
          SET claimed_until = now() + make_interval(secs => $2::int), claim_token = $3, send_attempts = send_attempts + 1
        WHERE id = $1 AND status = 'ready'
          AND (claimed_until IS NULL OR claimed_until <= now()) AND (next_attempt_at IS NULL OR next_attempt_at <= now())
        RETURNING claimed_until, send_attempts`,
      [context.row.id, lease, token],
    );
    if (!claimed.length) {
      const [row] = (await context.manager.query(
        `SELECT status, claimed_until, next_attempt_at FROM notices_preparednotification WHERE id = $1`,
        [context.row.id],
      )) as ClaimRow[];
      throw new ConflictError(refusal(row));
    }
    const [notification] = await context.visibleRows(
      'notices.preparednotification',
      { id: [String(context.row.id)] },
      { limit: 1, offset: 0 },
    );
    const [serialized] = await context.serializer.serialize(context.manager, resource(), [notification], 'full', context.scope.baseUrl);
    return {
      claim_token: token,
      claimed_until: new Date(claimed[0].claimed_until).toISOString(),
      send_attempts: Number(claimed[0].send_attempts),
      notification: serialized,
    };
  },
});

export const releaseAction: ResourceAction = {
  name: 'release',
  method: 'POST',
  permission: 'change',
  openapi: {
    summary:
      'Give back a claim after a failed send, with the error: ready again after a backoff, or failed after outbound_max_attempts attempts or at once when the refusal is permanent',
    request: {
      type: 'object',
      required: ['claim_token', 'error'],
      properties: {
        claim_token: { type: 'string' },
        error: { type: 'string' },
        permanent: {
          type: 'boolean',
          description: 'The relay refused the email for good (an SMTP 5xx reply, SES MessageRejected): failed now, no retry',
        },
      },
    },
    response: {
      type: 'object',
      required: ['status', 'send_attempts', 'next_attempt_at'],
      properties: {
        status: { type: 'string', enum: ['ready', 'failed'] },
        send_attempts: { type: 'integer' },
        next_attempt_at: { type: 'string', format: 'date-time', nullable: true },
      },
    },
  },
  handle: async (context: ResourceActionContext) => {
    const body = (context.body ?? {}) as Record<string, unknown>;
    const problems: Record<string, string[]> = {};
    if (typeof body.claim_token !== 'string' || !body.claim_token) problems.claim_token = ['Give the claim_token of your claim.'];
    if (typeof body.error !== 'string' || !body.error.trim()) problems.error = ['Say why the send failed.'];
    if (body.permanent !== undefined && typeof body.permanent !== 'boolean') problems.permanent = ['Must be true or false.'];
    if (Object.keys(problems).length) throw new ResourceValidationError(problems);
    const error = String(body.error).trim().slice(0, 2000);
    const [row] = (await context.manager.query(
      `SELECT status, claim_token, send_attempts FROM notices_preparednotification WHERE id = $1 FOR UPDATE`,
      [context.row.id],
    )) as Array<{ status: string; claim_token: string; send_attempts: number }>;
    if (row.status !== 'ready' || row.claim_token !== body.claim_token)
      throw new ConflictError('This claim is not held: the notification moved on or another sender claimed it since.');
    const attempts = Number(row.send_attempts);
    const maxAttempts = Number(context.settings.outbound_max_attempts ?? 5);
    if (body.permanent === true || attempts >= maxAttempts) {
      await context.manager.query(
        `UPDATE notices_preparednotification SET status = 'failed', claimed_until = NULL, claim_token = '', next_attempt_at = NULL,
                last_error = $2, last_updated = now() WHERE id = $1`,
        [context.row.id, error],
      );
      const why =
        body.permanent === true
          ? `The relay refused the email for good: ${error}`
          : `Sending failed ${attempts} times; last error: ${error}`;
      await journal(context, 'warning', `Status: ready → failed\n\n${why}`);
      return { status: 'failed', send_attempts: attempts, next_attempt_at: null };
    }
    const [updated] = await updateReturning<{ next_attempt_at: Date }>(
      context,
      `UPDATE notices_preparednotification SET claimed_until = NULL, claim_token = '', last_error = $2,
              next_attempt_at = now() + make_interval(secs => $3::int) WHERE id = $1 RETURNING next_attempt_at`,
      [context.row.id, error, backoffSeconds(attempts)],
    );
    const next = new Date(updated.next_attempt_at).toISOString();
    await journal(context, 'warning', `Send attempt ${attempts} of ${maxAttempts} failed: ${error}. Next attempt after ${next}.`);
    return { status: 'ready', send_attempts: attempts, next_attempt_at: next };
  },
};

async function journal(context: ResourceActionContext, kind: string, comments: string): Promise<void> {
  await context.create('extras.journalentry', [
    { assigned_object_type: 'notices.preparednotification', assigned_object_id: context.row.id, kind, comments },
  ]);
}

/** Delivery events of the email service (the spec's table), and what each does. */
const DELIVERED_EVENTS = new Set(['Delivery']);
const FAILED_EVENTS = new Set(['Bounce', 'Complaint', 'Reject', 'Rendering Failure']);
const INFO_EVENTS = new Set(['Send', 'Open', 'Click', 'Delivery Delay']);
export const DELIVERY_EVENT_KINDS = [...DELIVERED_EVENTS, ...FAILED_EVENTS, ...INFO_EVENTS];
/** How many applied event ids a notification remembers (replays of older ones are refused by their age at the worker). */
const REMEMBERED_EVENT_IDS = 500;
const EVENT_ID_MAX = 200;

/**
 * A delivery event reported by the mail worker (SES/SNS or an SMTP DSN/complaint report), applied in
 * one locked step so events in any order end in one state and none is lost: Delivery → delivered
 * (from ready too, when it overtook the sender's move to sent; from failed too: the email reached a
 * recipient, a per-recipient failure stays in the journal); Bounce, Complaint, Reject, Rendering
 * Failure → failed unless already delivered (then a warning journal entry only); Send, Open, Click,
 * Delivery Delay → an info journal entry (the first Open also sets `viewed_at`). Every event is a journal entry `[<kind>] <message>`.
 * An event given with an `event_id` already applied to the notification is a replay: nothing changes.
 */
export const deliveryEventAction: ResourceAction = {
  name: 'delivery-event',
  method: 'POST',
  permission: 'change',
  openapi: {
    summary: 'Apply a delivery event (Delivery → delivered; Bounce, Complaint, Reject, Rendering Failure → failed; others: journal only)',
    request: {
      type: 'object',
      required: ['event', 'message'],
      properties: {
        event: { type: 'string', enum: DELIVERY_EVENT_KINDS },
        message: { type: 'string' },
        event_id: { type: 'string', maxLength: EVENT_ID_MAX, description: "The event's own id (SNS MessageId and the like): applied once" },
      },
    },
    response: {
      type: 'object',
      required: ['status', 'changed'],
      properties: { status: { type: 'string' }, changed: { type: 'boolean' }, duplicate: { type: 'boolean' } },
    },
  },
  handle: async (context: ResourceActionContext) => {
    const body = (context.body ?? {}) as Record<string, unknown>;
    const event = String(body.event ?? '');
    if (!DELIVERY_EVENT_KINDS.includes(event))
      throw new ResourceValidationError({ event: [`Give one of: ${DELIVERY_EVENT_KINDS.join(', ')}.`] });
    const message = typeof body.message === 'string' && body.message.trim() ? body.message.trim().slice(0, 2000) : 'unknown';
    if (body.event_id !== undefined && (typeof body.event_id !== 'string' || !body.event_id || body.event_id.length > EVENT_ID_MAX))
      throw new ResourceValidationError({ event_id: [`A non-empty string of at most ${EVENT_ID_MAX} characters.`] });
    const eventId = body.event_id as string | undefined;
    const [row] = (await context.manager.query(
      `SELECT status, delivery_event_ids FROM notices_preparednotification WHERE id = $1 FOR UPDATE`,
      [context.row.id],
    )) as Array<{ status: string; delivery_event_ids: unknown }>;
    const from = row.status;
    const applied = Array.isArray(row.delivery_event_ids) ? (row.delivery_event_ids as string[]) : [];
    if (eventId !== undefined) {
      if (applied.includes(eventId)) return { status: from, changed: false, duplicate: true };
      await context.manager.query(`UPDATE notices_preparednotification SET delivery_event_ids = $2 WHERE id = $1`, [
        context.row.id,
        JSON.stringify([...applied, eventId].slice(-REMEMBERED_EVENT_IDS)),
      ]);
    }
    let to = from;
    if (DELIVERED_EVENTS.has(event) && ['ready', 'sent', 'failed'].includes(from)) to = 'delivered';
    if (FAILED_EVENTS.has(event) && ['ready', 'sent'].includes(from)) to = 'failed';
    if (to !== from) {
      await context.manager.query(
        `UPDATE notices_preparednotification
            SET status = $2, claimed_until = NULL, claim_token = '', last_updated = now(),
                sent_at = COALESCE(sent_at, now()), delivered_at = CASE WHEN $3 THEN COALESCE(delivered_at, now()) ELSE delivered_at END
          WHERE id = $1`,
        [context.row.id, to, to === 'delivered'],
      );
    }
    if (event === 'Open')
      await context.manager.query(`UPDATE notices_preparednotification SET viewed_at = COALESCE(viewed_at, now()) WHERE id = $1`, [
        context.row.id,
      ]);
    const kind = FAILED_EVENTS.has(event) ? 'warning' : to !== from && to === 'delivered' ? 'success' : 'info';
    const move = to !== from ? `Status: ${from} → ${to}\n\n` : '';
    await journal(context, kind, `${move}[${event}] ${message}`);
    return { status: to, changed: to !== from };
  },
};

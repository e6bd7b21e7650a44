import { createHash } from 'node:crypto';
import {
  closestParser,
  DEFAULT_PROVIDER_MAP,
  MailParseError,
  parseMaintenanceEmail,
  parseProviderMap,
  parseRawEmail,
  parserNameFor,
  type MaintenanceEmail,
  type ParsedEmail,
  type ParsedMaintenance,
  type ParseReport,
  type ProviderMap,
} from '../../../libs/mail';
import { htmlText } from '../../../libs/mail/parsers/support/html';
import {
  NotFoundError,
  type PluginRoute,
  type PluginRouteContext,
  ResourceValidationError,
  RouteResponse,
} from '../../platform/plugin-api';
import { objectTypeIdSql } from './impact-places';
import { PAGE_PARAMETERS, PAGE_SCHEMA, pagedList } from './paged-list';
import { InboundEmailResource } from './inbound-emails.resources';
import { CLOSED_EVENT_STATUSES } from './notices.choices';

/**
 * The platform end of inbound mail: `POST inbound-email/` takes one raw provider email
 * (`message/rfc822`) and, in one transaction, records it (one row per Message-ID), parses it with
 * libs/mail, and applies what it says. Per maintenance: upserted by (provider, maintenance id);
 * applied only when its (stamp, sequence) is newer than the last applied notice's; NO-CHANGE keeps
 * the status; impacts per circuit by exact cid within the provider (unknown circuits → a warning
 * journal entry); impacts of a closed maintenance are frozen (reported, not retried); one event
 * notification per maintenance, older notices included. The same Message-ID again creates nothing,
 * unless it was left unparsed (then it is parsed again: the re-submission after adding a parser).
 */

const SUMMARY_MAX = 200;
const NAME_MAX = 100;
const EMAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export interface MaintenanceOutcome {
  maintenance: number;
  name: string;
  created: boolean;
  /** False when a newer notice was already applied (the maintenance kept its data). */
  applied: boolean;
  /** The maintenance was closed: its impacts were left as they were. */
  frozen: boolean;
  unknown_circuits: string[];
  event_notification: number;
}

/** The summary a maintenance takes: the parsed one, cut to 200 characters, or a default naming it. */
export function maintenanceSummary(parsed: ParsedMaintenance): string {
  const summary = parsed.summary.replace(/\s+/g, ' ').trim();
  if (!summary) return `${parsed.provider} maintenance ${parsed.maintenanceId}`.slice(0, SUMMARY_MAX);
  return summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary;
}

/** The provider map in force: `?parser=` names one parser for this email (empty: none); else the plugin's `provider_map` setting or the default. */
function providerMapFor(context: PluginRouteContext): ProviderMap {
  const asked = first(context.query.parser);
  // A parser name is stored with the email (at most 50 characters): a longer one names no parser.
  if (asked !== undefined && asked.trim().length > 50) throw new ResourceValidationError({ parser: ['No parser has a name that long.'] });
  if (asked !== undefined) return asked.trim() ? [['', asked.trim().toLowerCase()]] : [];
  const configured = String(context.settings.provider_map ?? '').trim();
  if (!configured) return DEFAULT_PROVIDER_MAP;
  try {
    return parseProviderMap(configured);
  } catch (error) {
    // A misconfigured platform, said plainly to the caller (the start cannot parse JSON-valued settings).
    throw new ResourceValidationError({
      parser: [`PLUGIN_NOTICES_PROVIDER_MAP: ${(error as Error).message}; name the parser with ?parser=.`],
    });
  }
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Problems with the parsed maintenances that make the email unsupported rather than half-applied. */
function windowProblem(maintenances: readonly ParsedMaintenance[]): string | null {
  for (const parsed of maintenances) {
    if (!parsed.maintenanceId) return 'a maintenance without its id';
    if (parsed.end < parsed.start) return `maintenance ${parsed.maintenanceId} ends before it starts`;
  }
  return null;
}

async function purgeExpiredRaw(context: PluginRouteContext): Promise<void> {
  const days = Number(context.settings.raw_mail_retention_days ?? 30);
  await context.manager.query(
    `UPDATE notices_inboundemail SET raw = '' WHERE raw <> '' AND created < now() - make_interval(days => $1::int)`,
    [days],
  );
  await context.manager.query(
    `UPDATE notices_eventnotification SET email = '' WHERE email <> '' AND created < now() - make_interval(days => $1::int)`,
    [days],
  );
}

interface InboundRow {
  id: number;
  status: string;
}

/** Claims the email's row by Message-ID; null when it was already processed (a duplicate). */
async function claimRow(
  context: PluginRouteContext,
  raw: string,
  email: ParsedEmail | null,
  messageId: string,
  authentication: string | undefined,
): Promise<InboundRow | null> {
  const inserted = (await context.manager.query(
    `INSERT INTO notices_inboundemail (message_id, email_from, subject, email_received, status, reason, detail, attempts, results, raw, parser, authentication)
     VALUES ($1, $2, $3, $4, 'unparsed', '', '', 1, '[]', $5, '', $6) ON CONFLICT (message_id) DO NOTHING RETURNING id`,
    [messageId, (email?.from ?? '').slice(0, 254), (email?.subject ?? '').slice(0, 255), email?.date ?? null, raw, authentication ?? ''],
  )) as Array<{ id: number }>;
  if (inserted.length) return { id: Number(inserted[0].id), status: 'new' };
  const [existing] = (await context.manager.query(`SELECT id, status FROM notices_inboundemail WHERE message_id = $1 FOR UPDATE`, [
    messageId,
  ])) as Array<{ id: number; status: string }>;
  if (existing.status === 'processed') return null;
  // A re-submission by the worker brings this delivery's authentication; a reprocess (undefined) keeps the stored one.
  await context.manager.query(
    `UPDATE notices_inboundemail SET attempts = attempts + 1, raw = CASE WHEN raw = '' THEN $2 ELSE raw END,
            authentication = COALESCE($3, authentication), last_updated = now() WHERE id = $1`,
    [existing.id, raw, authentication ?? null],
  );
  return { id: Number(existing.id), status: existing.status };
}

async function providerIds(context: PluginRouteContext, names: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const name of new Set(names)) {
    const [row] = (await context.manager.query(
      `SELECT id FROM circuits_provider WHERE lower(slug) = lower($1) OR lower(name) = lower($1) ORDER BY id LIMIT 1`,
      [name],
    )) as Array<{ id: number }>;
    if (row) found.set(name, Number(row.id));
  }
  return found;
}

async function writeImpacts(
  context: PluginRouteContext,
  maintenanceId: number,
  providerId: number,
  parsed: ParsedMaintenance,
): Promise<string[]> {
  const cids = parsed.circuits.map((circuit) => circuit.circuitId);
  const circuits = (await context.manager.query(`SELECT id, cid FROM circuits_circuit WHERE provider_id = $1 AND cid = ANY($2)`, [
    providerId,
    cids,
  ])) as Array<{ id: number; cid: string }>;
  const byCid = new Map(circuits.map(({ id, cid }) => [cid, Number(id)]));
  const unknown: string[] = [];
  for (const { circuitId, impact } of parsed.circuits) {
    const target = byCid.get(circuitId);
    if (target === undefined) {
      unknown.push(circuitId);
      continue;
    }
    const [existing] = (await context.manager.query(
      `SELECT id, impact FROM notices_impact
        WHERE event_content_type_id = ${objectTypeIdSql('notices.maintenance')} AND event_object_id = $1
          AND target_content_type_id = ${objectTypeIdSql('circuits.circuit')} AND target_object_id = $2`,
      [maintenanceId, target],
    )) as Array<{ id: number; impact: string }>;
    if (!existing) {
      await context.create('notices.impact', [
        {
          event_content_type: 'notices.maintenance',
          event_object_id: maintenanceId,
          target_content_type: 'circuits.circuit',
          target_object_id: target,
          impact,
        },
      ]);
    } else if (existing.impact !== impact) {
      await context.update('notices.impact', Number(existing.id), { impact });
    }
  }
  return unknown;
}

async function journal(context: PluginRouteContext, maintenanceId: number, comments: string): Promise<void> {
  await context.create('extras.journalentry', [
    { assigned_object_type: 'notices.maintenance', assigned_object_id: maintenanceId, kind: 'warning', comments },
  ]);
}

async function applyMaintenance(
  context: PluginRouteContext,
  parsed: ParsedMaintenance,
  providerId: number,
  email: ParsedEmail,
  raw: string,
): Promise<MaintenanceOutcome> {
  const name = parsed.maintenanceId.slice(0, NAME_MAX);
  // Serialises emails about one maintenance (two notices of a new one must not create it twice).
  await context.manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`notices-inbound:${providerId}:${name}`]);
  const [existing] = (await context.manager.query(
    `SELECT id, status, notice_stamp, notice_sequence FROM notices_maintenance WHERE provider_id = $1 AND name = $2 ORDER BY id LIMIT 1`,
    [providerId, name],
  )) as Array<{ id: number; status: string; notice_stamp: Date | string | null; notice_sequence: number | null }>;
  const outcome = { name, created: false, applied: true, frozen: false, unknown_circuits: [] as string[] };
  let maintenanceId: number;
  const window = { start: iso(parsed.start), end: iso(parsed.end) };
  const closing = parsed.status !== 'NO-CHANGE' && CLOSED_EVENT_STATUSES.has(parsed.status);
  if (!existing) {
    const status = parsed.status === 'NO-CHANGE' ? 'UNKNOWN' : parsed.status;
    const [row] = await context.create('notices.maintenance', [
      { name, summary: maintenanceSummary(parsed), provider: providerId, status, ...window },
    ]);
    maintenanceId = row.id;
    outcome.created = true;
    // A maintenance first seen closed is frozen from the start: its circuits are reported, not attached.
    if (closing) outcome.frozen = parsed.circuits.length > 0;
    else outcome.unknown_circuits = await writeImpacts(context, maintenanceId, providerId, parsed);
  } else {
    maintenanceId = Number(existing.id);
    const lastStamp = existing.notice_stamp === null ? null : new Date(existing.notice_stamp).getTime() / 1000;
    const lastSequence = existing.notice_sequence ?? -1;
    outcome.applied = lastStamp === null || parsed.stamp > lastStamp || (parsed.stamp === lastStamp && parsed.sequence > lastSequence);
    if (outcome.applied) {
      const changes: Record<string, unknown> = { ...window };
      if (parsed.status !== 'NO-CHANGE') changes.status = parsed.status;
      if (parsed.summary.trim()) changes.summary = maintenanceSummary(parsed);
      const openBefore = !CLOSED_EVENT_STATUSES.has(existing.status);
      // Impacts are written while the maintenance is open: before a closing update, after a re-opening one.
      if (openBefore) outcome.unknown_circuits = await writeImpacts(context, maintenanceId, providerId, parsed);
      await context.update('notices.maintenance', maintenanceId, changes);
      if (!openBefore) {
        const reopened = parsed.status !== 'NO-CHANGE' && !CLOSED_EVENT_STATUSES.has(parsed.status);
        if (reopened) outcome.unknown_circuits = await writeImpacts(context, maintenanceId, providerId, parsed);
        else outcome.frozen = parsed.circuits.length > 0;
      }
    }
  }
  if (outcome.applied) {
    await context.manager.query(`UPDATE notices_maintenance SET notice_stamp = $2, notice_sequence = $3 WHERE id = $1`, [
      maintenanceId,
      iso(parsed.stamp),
      parsed.sequence,
    ]);
  }
  if (outcome.unknown_circuits.length) {
    await journal(
      context,
      maintenanceId,
      `Circuits not found for provider "${parsed.provider}": ${outcome.unknown_circuits.join(', ')} (email ${email.messageId ?? 'without Message-ID'}). No impact recorded for them.`,
    );
  }
  if (outcome.frozen) {
    await journal(
      context,
      maintenanceId,
      `Impacts not changed: the maintenance is closed. The email ${email.messageId ?? ''} lists ${parsed.circuits.map((c) => `${c.circuitId} (${c.impact})`).join(', ')}.`,
    );
  }
  const [notification] = await context.create('notices.eventnotification', [
    {
      event_content_type: 'notices.maintenance',
      event_object_id: maintenanceId,
      subject: (email.subject || '(no subject)').slice(0, 255),
      email_from: EMAIL_ADDRESS.test(email.from) ? email.from : 'unknown@unknown.invalid',
      email_received: (email.date ?? new Date()).toISOString(),
      email_body: email.text || htmlText(email.html),
      email: raw,
    },
  ]);
  return { maintenance: maintenanceId, ...outcome, event_notification: notification.id };
}

async function markUnparsed(
  context: PluginRouteContext,
  rowId: number,
  reason: string,
  detail: string,
  parser = '',
  report: Partial<ParseReport> = {},
): Promise<void> {
  await context.manager.query(
    `UPDATE notices_inboundemail SET status = 'unparsed', reason = $2, detail = $3, parser = $4, confidence = $5, reasons = $6, uncertainties = $7,
            last_updated = now() WHERE id = $1`,
    [
      rowId,
      reason,
      detail,
      parser,
      report.confidence ?? null,
      JSON.stringify(report.reasons ?? []),
      JSON.stringify(report.uncertainties ?? []),
    ],
  );
}

/**
 * A parse failure, stored with the closest parser: one that reads the email when the sender's did not
 * (its name in `parser`, its notes and confidence beside), else the parser that failed.
 */
async function markParseFailure(
  context: PluginRouteContext,
  rowId: number,
  email: ParsedEmail | null,
  error: MailParseError,
  tried?: string,
) {
  const closest = email && error.reason !== 'provider_mismatch' ? await closestParser(email, tried) : null;
  const detail = closest ? `${error.message}; ${closest.detail} (name it with ?parser=${closest.parser})` : error.message;
  await markUnparsed(context, rowId, error.reason, detail, closest?.parser ?? tried ?? '', closest ?? {});
  return { detail, closest };
}

/** What the mail worker found of the sender (the inbound route's `authentication` and `auth_failed`). */
export interface SenderAuthentication {
  /** The results, stored on the email (undefined: keep what is stored). */
  results?: string;
  /** Why the worker's MAIL_REQUIRE_AUTH policy refused the sender: the email is kept unparsed (auth_failed), never applied. */
  failed?: string;
}

const AUTHENTICATION_MAX = 4000;

/** Takes one raw email; the answer says what came of it (201 processed, 200 duplicate or unparsed). */
export async function receiveInboundEmail(
  context: PluginRouteContext,
  raw: string,
  authentication: SenderAuthentication = {},
): Promise<RouteResponse> {
  const map = providerMapFor(context);
  await purgeExpiredRaw(context);
  let email: ParsedEmail | null = null;
  try {
    email = await parseRawEmail(raw);
  } catch (error) {
    if (!(error instanceof MailParseError)) throw error;
  }
  const messageId = (email?.messageId ?? `<sha256:${createHash('sha256').update(raw).digest('hex')}>`).slice(0, 255);
  const row = await claimRow(context, raw, email, messageId, authentication.results);
  if (!row) {
    const [existing] = (await context.manager.query(`SELECT id FROM notices_inboundemail WHERE message_id = $1`, [messageId])) as Array<{
      id: number;
    }>;
    return RouteResponse.json({ status: 'duplicate', inbound_email: Number(existing.id), message_id: messageId }, 'application/json', 200);
  }
  if (authentication.failed) {
    await markUnparsed(context, row.id, 'auth_failed', authentication.failed);
    return unparsedAnswer(row.id, messageId, 'auth_failed', authentication.failed);
  }
  let parsed: MaintenanceEmail;
  try {
    parsed = await parseMaintenanceEmail(raw, map);
  } catch (error) {
    if (!(error instanceof MailParseError)) throw error;
    const tried = email ? (parserNameFor(email.from, map) ?? undefined) : undefined;
    const { detail, closest } = await markParseFailure(context, row.id, email, error, tried);
    return unparsedAnswer(row.id, messageId, error.reason, detail, closest?.parser);
  }
  const problem = windowProblem(parsed.maintenances);
  if (problem) {
    await markUnparsed(context, row.id, 'unsupported_format', `${parsed.parser}: ${problem}`, parsed.parser, parsed);
    return unparsedAnswer(row.id, messageId, 'unsupported_format', `${parsed.parser}: ${problem}`);
  }
  const providers = await providerIds(
    context,
    parsed.maintenances.map((m) => m.provider),
  );
  const missing = parsed.maintenances.find((m) => !providers.has(m.provider));
  if (missing) {
    const detail = `no provider with slug or name "${missing.provider}" on the platform`;
    await markUnparsed(context, row.id, 'provider_not_found', detail, parsed.parser, parsed);
    return unparsedAnswer(row.id, messageId, 'provider_not_found', detail);
  }
  const results: MaintenanceOutcome[] = [];
  for (const maintenance of parsed.maintenances) {
    results.push(await applyMaintenance(context, maintenance, providers.get(maintenance.provider)!, parsed.email, raw));
  }
  await context.manager.query(
    `UPDATE notices_inboundemail SET status = 'processed', reason = '', detail = '', parser = $2, results = $3, confidence = $4, reasons = $5,
            uncertainties = $6, last_updated = now() WHERE id = $1`,
    [
      row.id,
      parsed.parser,
      JSON.stringify(results),
      parsed.confidence,
      JSON.stringify(parsed.reasons),
      JSON.stringify(parsed.uncertainties),
    ],
  );
  const report = { confidence: parsed.confidence, reasons: parsed.reasons, uncertainties: parsed.uncertainties };
  return RouteResponse.json(
    { status: 'processed', inbound_email: row.id, message_id: messageId, parser: parsed.parser, ...report, results },
    'application/json',
    201,
  );
}

function unparsedAnswer(id: number, messageId: string, reason: string, detail: string, closest?: string): RouteResponse {
  const answer = {
    status: 'unparsed',
    inbound_email: id,
    message_id: messageId,
    reason,
    detail,
    ...(closest ? { closest_parser: closest } : {}),
  };
  return RouteResponse.json(answer, 'application/json', 200);
}

function senderAuthentication(context: PluginRouteContext): SenderAuthentication {
  const results = first(context.query.authentication);
  const failed = first(context.query.auth_failed);
  for (const [name, value] of [
    ['authentication', results],
    ['auth_failed', failed],
  ] as const) {
    if (value !== undefined && value.length > AUTHENTICATION_MAX)
      throw new ResourceValidationError({ [name]: [`At most ${AUTHENTICATION_MAX} characters.`] });
  }
  return { results: results?.trim(), failed: failed?.trim() || undefined };
}

function rawBody(context: PluginRouteContext): string {
  const type = String(first(context.headers['content-type']) ?? '').toLowerCase();
  if (!type.startsWith('message/rfc822') || typeof context.body !== 'string' || !context.body.trim())
    throw new ResourceValidationError({ email: ['Send the raw message (RFC 5322) as the body, with Content-Type: message/rfc822.'] });
  return context.body;
}

const OUTCOME_SCHEMA = {
  type: 'object',
  required: ['status', 'inbound_email', 'message_id'],
  properties: {
    status: { type: 'string', enum: ['processed', 'duplicate', 'unparsed'] },
    inbound_email: { type: 'integer' },
    message_id: { type: 'string' },
    parser: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1, description: "The parser's confidence: 1 when it made no guess" },
    reasons: { type: 'array', items: { type: 'string' }, description: 'Why the parser read what it read' },
    uncertainties: { type: 'array', items: { type: 'string' }, description: 'Guesses it had to make' },
    reason: { type: 'string' },
    detail: { type: 'string' },
    closest_parser: { type: 'string', description: "Unparsed: a registered parser that reads the email (the sender's did not)" },
    results: { type: 'array', items: { type: 'object' } },
  },
};

export const INBOUND_EMAIL_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'inbound-email',
  permission: { objectType: 'notices.eventnotification', action: 'add' },
  openapi: {
    summary:
      'Take one raw provider email (message/rfc822): maintenance, impacts and event notification from it (201), or a duplicate / unparsed outcome (200)',
    parameters: [
      {
        name: 'parser',
        description: "The parser to read it with (the mail worker's provider map chose it); empty: none. Absent: the provider_map setting",
        schema: { type: 'string' },
      },
      {
        name: 'authentication',
        description: "The mail worker's DKIM / SPF / DMARC results for the sender, stored on the inbound email",
        schema: { type: 'string', maxLength: AUTHENTICATION_MAX },
      },
      {
        name: 'auth_failed',
        description:
          "Why the mail worker's authentication policy refused the sender: the email is kept unparsed (auth_failed), nothing applied",
        schema: { type: 'string', maxLength: AUTHENTICATION_MAX },
      },
    ],
    requestMediaType: 'message/rfc822',
    request: { type: 'string' },
    response: OUTCOME_SCHEMA,
  },
  handle: async (context) => receiveInboundEmail(context, rawBody(context), senderAuthentication(context)),
};

const ALL = { limit: 1000, offset: 0 };

export const UNPARSED_EMAILS_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'unparsed-emails',
  permission: { objectType: 'notices.inboundemail', action: 'view' },
  openapi: {
    summary: 'Inbound emails that gave no records, with the reason (re-submit one with unparsed-emails/{id}/reprocess/)',
    parameters: [...PAGE_PARAMETERS, { name: 'reason', description: 'Only this reason', schema: { type: 'string' } }],
    response: PAGE_SCHEMA,
  },
  handle: (context) =>
    pagedList(context, InboundEmailResource, {
      status: ['unparsed'],
      ...(context.query.reason ? { reason: ([] as string[]).concat(context.query.reason) } : {}),
    }),
};

const REPARSE_PARAMETERS = [
  { name: 'parser', description: 'The parser to read it with; absent: the provider_map setting', schema: { type: 'string' } },
  {
    name: 'accept_unauthenticated',
    description: 'true: parse an email whose sender failed authentication (auth_failed) all the same',
    schema: { type: 'boolean' },
  },
];

/** Parses a stored unparsed email again, with the parsers and provider map of this build; the answer is inbound-email/'s. */
async function reparseStored(context: PluginRouteContext, row: Record<string, unknown>): Promise<RouteResponse> {
  if (!row.raw) throw new ResourceValidationError({ raw: ['The raw message is no longer kept (past raw_mail_retention_days).'] });
  // Applying a possibly forged notice is the caller's explicit decision, never a side effect of a retry.
  if (row.reason === 'auth_failed' && first(context.query.accept_unauthenticated) !== 'true')
    throw new ResourceValidationError({
      accept_unauthenticated: ['The sender failed authentication; give accept_unauthenticated=true to parse it all the same.'],
    });
  return receiveInboundEmail(context, String(row.raw));
}

export const REPROCESS_UNPARSED_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'unparsed-emails/{id}/reprocess',
  permission: { objectType: 'notices.eventnotification', action: 'add' },
  openapi: {
    summary: 'Parse an unparsed email again (after adding a parser or provider); the answer is as inbound-email/',
    pathParameters: { id: { description: 'The inbound email', schema: { type: 'integer', minimum: 1 } } },
    parameters: REPARSE_PARAMETERS,
    response: OUTCOME_SCHEMA,
  },
  handle: async (context) => {
    const [row] = await context.visibleRows('notices.inboundemail', { id: [context.params.id], status: ['unparsed'] }, ALL);
    if (!row) throw new NotFoundError('No unparsed email with this id.');
    return reparseStored(context, row);
  },
};

export const REPARSE_INBOUND_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'inbound-email/{id}/reparse',
  permission: { objectType: 'notices.eventnotification', action: 'add' },
  openapi: {
    summary:
      'Re-run the parsers over a stored inbound email that gave no records (after a parser or provider map entry was added); a processed one is refused (it was applied once)',
    pathParameters: { id: { description: 'The inbound email', schema: { type: 'integer', minimum: 1 } } },
    parameters: REPARSE_PARAMETERS,
    response: OUTCOME_SCHEMA,
  },
  handle: async (context) => {
    const [row] = await context.visibleRows('notices.inboundemail', { id: [context.params.id] }, ALL);
    if (!row) throw new NotFoundError('No inbound email with this id.');
    if (row.status === 'processed')
      throw new ResourceValidationError({
        status: ['The email was processed: its maintenances are applied; re-parsing would apply it twice.'],
      });
    return reparseStored(context, row);
  },
};

export const INBOUND_ROUTES = [INBOUND_EMAIL_ROUTE, UNPARSED_EMAILS_ROUTE, REPROCESS_UNPARSED_ROUTE, REPARSE_INBOUND_ROUTE];

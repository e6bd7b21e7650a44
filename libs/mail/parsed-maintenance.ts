/**
 * What a provider parser reads out of one maintenance email: the BCOP fields (provider, account,
 * maintenance id, status, affected objects with their impact, window, stamp, sequence), framework-free
 * so the platform endpoint and the mail worker share it.
 */
export const BCOP_STATUSES = ['TENTATIVE', 'CONFIRMED', 'CANCELLED', 'IN-PROCESS', 'COMPLETED', 'RE-SCHEDULED'] as const;
/** NO-CHANGE: the email carries no status (BCOP's X-MAINTNOTE-STATUS absent); the current status is kept. */
export type ParsedStatus = (typeof BCOP_STATUSES)[number] | 'NO-CHANGE';

export const BCOP_IMPACTS = ['NO-IMPACT', 'REDUCED-REDUNDANCY', 'DEGRADED', 'OUTAGE'] as const;
export type ParsedImpact = (typeof BCOP_IMPACTS)[number];

export interface ParsedCircuit {
  circuitId: string;
  impact: ParsedImpact;
}

export interface ParsedMaintenance {
  /** The provider's name as the parser knows it (matched to a platform provider by slug or name). */
  provider: string;
  account: string;
  maintenanceId: string;
  status: ParsedStatus;
  circuits: ParsedCircuit[];
  /** Epoch seconds (UTC). */
  start: number;
  end: number;
  /** When the provider issued this notice, epoch seconds: orders notices of one maintenance with `sequence`. */
  stamp: number;
  /** BCOP SEQUENCE; 1 when the notice carries none (as circuit-maintenance-parser). */
  sequence: number;
  summary: string;
}

/** The email as the parsers see it, after MIME decoding. */
export interface ParsedEmail {
  messageId: string | null;
  subject: string;
  /** Bare sender address, lowercased. */
  from: string;
  /** The Date header (or null when missing or unreadable). */
  date: Date | null;
  text: string;
  html: string;
  /** Decoded text/calendar parts, inline or attached. */
  calendars: string[];
  /** Every non-inline attachment (calendars included), decoded. */
  attachments: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Why an email produced no records; `reason` is a stable code shown in the unparsed-emails list. */
export class MailParseError extends Error {
  constructor(
    readonly reason: 'unreadable_email' | 'unknown_provider' | 'unsupported_format' | 'no_maintenance_data' | 'provider_mismatch',
    detail: string,
  ) {
    super(detail);
    this.name = 'MailParseError';
  }
}

export const isBcopStatus = (value: string): value is (typeof BCOP_STATUSES)[number] =>
  (BCOP_STATUSES as readonly string[]).includes(value);
export const isBcopImpact = (value: string): value is ParsedImpact => (BCOP_IMPACTS as readonly string[]).includes(value);

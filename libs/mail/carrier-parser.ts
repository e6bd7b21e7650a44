import type { ParsedEmail, ParsedMaintenance } from './parsed-maintenance';

/** The parts of an email a carrier parser reads (shown in the carrier table of docs/mail-integration.md). */
export type MailPart = 'subject' | 'html' | 'text' | 'calendar' | 'csv' | 'xlsx';

/**
 * One carrier's notice format. A parser throws MailParseError (parsed-maintenance.ts) when the email
 * is not its format; `parse` may be async (XLSX attachments are read asynchronously).
 */
export interface CarrierParser {
  /** Parser name: the provider map's values, the CLI's `--provider`, the records' `provider`. */
  readonly name: string;
  /** The carrier's display name ('Zayo'). */
  readonly label: string;
  /** The carrier's real sender domains; a sender matches its domain or a subdomain of it, never a substring. */
  readonly senderDomains: readonly string[];
  /** What it reads, for the docs table. */
  readonly reads: readonly MailPart[];
  parse(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] | Promise<ParsedMaintenance[]>;
}

/** What a parser says about its reading, kept with the result. */
export interface ParseNotes {
  /** Why the parser read what it read. */
  reason(text: string): void;
  /** A guess it had to make; each one lowers the result's confidence. */
  uncertain(text: string): void;
}

/** The notes of one parse, with the confidence they give. */
export interface ParseReport {
  reasons: string[];
  uncertainties: string[];
  /** 1 with no guesses; each guess takes off UNCERTAINTY_COST, down to CONFIDENCE_FLOOR. */
  confidence: number;
}

export const UNCERTAINTY_COST = 0.15;
export const CONFIDENCE_FLOOR = 0.1;

/** A fresh ParseNotes and the report it fills. */
export function parseNotes(): { notes: ParseNotes; report: () => ParseReport } {
  const reasons: string[] = [];
  const uncertainties: string[] = [];
  return {
    notes: { reason: (text) => reasons.push(text), uncertain: (text) => uncertainties.push(text) },
    report: () => ({
      reasons: [...reasons],
      uncertainties: [...uncertainties],
      confidence: Math.max(CONFIDENCE_FLOOR, Math.round((1 - UNCERTAINTY_COST * uncertainties.length) * 100) / 100),
    }),
  };
}

import { authenticate, type AuthenticateResult, type DNSResolver } from 'mailauth';

/**
 * Sender authentication of inbound provider mail (DKIM, SPF, DMARC with mailauth), and the
 * MAIL_REQUIRE_AUTH policy that decides what it must prove:
 * - `dmarc` (default): when the From domain publishes a DMARC policy the message must pass DMARC
 *   (an aligned DKIM signature or an aligned SPF pass); a domain without a policy is accepted;
 * - `dkim`: a valid DKIM signature aligned with the From domain, whatever the domain publishes;
 * - `none`: nothing is checked.
 * A DNS failure is temporary (the sender retries); any other failure refuses the sender.
 */
export const MAIL_AUTH_POLICIES = ['dmarc', 'dkim', 'none'] as const;
export type MailAuthPolicy = (typeof MAIL_AUTH_POLICIES)[number];

/** What the SMTP session knows of the sending server (absent for mail taken from the bucket: SPF is then not checked). */
export interface SmtpPeer {
  ip?: string;
  helo?: string;
  /** The envelope sender (MAIL FROM). */
  mailFrom?: string;
}

export type AuthVerdict =
  | { outcome: 'accepted'; results: string }
  | { outcome: 'refused'; results: string; reason: string }
  | { outcome: 'temporary'; results: string; reason: string };

export interface AuthenticationSettings {
  policy: MailAuthPolicy;
  /** How DNS is asked (mailauth's resolver signature); tests give fixed records. */
  resolver?: DNSResolver;
  /** This host's name in the results. */
  hostname?: string;
}

const TEMPORARY = new Set(['temperror', 'temperr']);

/** The results as one line of Authentication-Results methods (`dkim=pass header.d=…; spf=…; dmarc=…`). */
function summary(result: AuthenticateResult): string {
  const rows = [
    ...(result.dkim?.results ?? []).map((row) => row.info),
    result.spf ? result.spf.info : 'spf=none (no connecting address)',
    result.dmarc ? result.dmarc.info : 'dmarc=none (not exactly one From address)',
  ];
  return rows.filter(Boolean).join('; ').replace(/\s+/g, ' ');
}

export async function verifySender(raw: Buffer, peer: SmtpPeer, settings: AuthenticationSettings): Promise<AuthVerdict> {
  if (settings.policy === 'none') return { outcome: 'accepted', results: '' };
  const result = await authenticate(raw, {
    ip: peer.ip,
    helo: peer.helo,
    sender: peer.mailFrom || undefined,
    mta: settings.hostname ?? 'mail-worker',
    resolver: settings.resolver,
    disableArc: true,
    disableBimi: true,
  });
  const results = summary(result);
  if (settings.policy === 'dkim') {
    const signatures = result.dkim?.results ?? [];
    if (signatures.some((row) => row.status.result === 'pass' && row.status.aligned)) return { outcome: 'accepted', results };
    if (signatures.some((row) => TEMPORARY.has(row.status.result)))
      return { outcome: 'temporary', results, reason: 'DKIM key lookup failed temporarily' };
    return { outcome: 'refused', results, reason: 'no valid DKIM signature aligned with the From domain (MAIL_REQUIRE_AUTH=dkim)' };
  }
  const dmarc = result.dmarc;
  if (!dmarc) return { outcome: 'refused', results, reason: 'DMARC cannot be evaluated: the message has not exactly one From address' };
  const verdict = dmarc.status.result;
  if (verdict === 'pass' || verdict === 'none') return { outcome: 'accepted', results };
  if (TEMPORARY.has(verdict)) return { outcome: 'temporary', results, reason: 'DMARC policy lookup failed temporarily' };
  return {
    outcome: 'refused',
    results,
    reason: `DMARC ${verdict} for ${dmarc.domain}${dmarc.policy ? ` (policy ${dmarc.policy})` : ''} (MAIL_REQUIRE_AUTH=dmarc)`,
  };
}

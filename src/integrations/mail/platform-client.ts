/**
 * The worker's only way to the platform: its REST API with `Authorization: Token`, a 30 s timeout
 * per call, and a typed error for any unexpected status (the caller decides what it means).
 */
const NOTICES = '/api/plugins/notices';
const TIMEOUT_MS = 30_000;

export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: platform answered ${status} ${body.slice(0, 300)}`);
    this.name = 'PlatformError';
  }
}

export interface PreparedNotification {
  id: number;
  status: string | { value: string };
  subject: string;
  body_text: string;
  body_html: string;
  css: string;
  ical_content: string;
  headers: Record<string, unknown> | null;
  recipients: Array<{ email: string; name?: string }> | null;
}

export interface Claim {
  claim_token: string;
  send_attempts: number;
  notification: PreparedNotification;
}

export interface InboundOutcome {
  status: 'processed' | 'duplicate' | 'unparsed';
  inbound_email: number;
  reason?: string;
}

export const statusValue = (status: PreparedNotification['status']) => (typeof status === 'string' ? status : status?.value);

export class PlatformClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call(method: string, path: string, what: string, body?: string, contentType = 'application/json') {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Token ${this.token}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': contentType } : {}),
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T, what };
  }

  private static expect(answer: { status: number; text: string; what: string }, ...ok: number[]) {
    if (!ok.includes(answer.status)) throw new PlatformError(answer.status, answer.text, answer.what);
  }

  /**
   * Posts one raw email; `parser` is the provider map's choice (null: none matched); `authentication`
   * the sender's results and, when the policy refused the sender, why (the platform keeps it unparsed).
   */
  async postInboundEmail(
    raw: string,
    parser: string | null,
    authentication: { results: string; failed?: string } = { results: '' },
  ): Promise<InboundOutcome> {
    const query = new URLSearchParams({ parser: parser ?? '', authentication: authentication.results });
    if (authentication.failed) query.set('auth_failed', authentication.failed);
    const answer = await this.call('POST', `${NOTICES}/inbound-email/?${query.toString()}`, 'inbound email', raw, 'message/rfc822');
    PlatformClient.expect(answer, 200, 201);
    return answer.json();
  }

  /** Ids of the ready notifications, every page. */
  async readyNotificationIds(): Promise<number[]> {
    const ids: number[] = [];
    let path: string | null = `${NOTICES}/prepared-notifications/?status=ready&limit=100`;
    while (path) {
      const answer = await this.call('GET', path, 'list ready notifications');
      PlatformClient.expect(answer, 200);
      const page = answer.json() as { next: string | null; results: Array<{ id: number }> };
      ids.push(...page.results.map((row) => row.id));
      path = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
    }
    return ids;
  }

  async notification(id: number): Promise<PreparedNotification | null> {
    const answer = await this.call('GET', `${NOTICES}/prepared-notifications/${id}/`, `notification ${id}`);
    if (answer.status === 404) return null;
    PlatformClient.expect(answer, 200);
    return answer.json();
  }

  /** The claim, or null when another sender has it or it is not ready or not due (409). */
  async claim(id: number, leaseSeconds: number): Promise<Claim | null> {
    const answer = await this.call(
      'POST',
      `${NOTICES}/prepared-notifications/${id}/claim/`,
      `claim ${id}`,
      JSON.stringify({ lease_seconds: leaseSeconds }),
    );
    if (answer.status === 409 || answer.status === 404) return null;
    PlatformClient.expect(answer, 200);
    return answer.json();
  }

  /** Gives a claim back after a failed send; `permanent` (the relay refused it for good) fails the notification at once. */
  async release(
    id: number,
    claimToken: string,
    error: string,
    permanent = false,
  ): Promise<{ status: string; next_attempt_at: string | null }> {
    const answer = await this.call(
      'POST',
      `${NOTICES}/prepared-notifications/${id}/release/`,
      `release ${id}`,
      JSON.stringify({ claim_token: claimToken, error, permanent }),
    );
    PlatformClient.expect(answer, 200);
    return answer.json();
  }

  /** A status move with its journal message (sent, delivered, failed). */
  async moveStatus(id: number, status: string, message: string): Promise<{ ok: boolean; status: number; text: string }> {
    const answer = await this.call(
      'PATCH',
      `${NOTICES}/prepared-notifications/${id}/`,
      `move ${id} to ${status}`,
      JSON.stringify({ status, message }),
    );
    return { ok: answer.status === 200, status: answer.status, text: answer.text };
  }

  /** A delivery event (tracking.ts); the platform applies it in one locked step, once per `eventId`. */
  async deliveryEvent(
    id: number,
    event: string,
    message: string,
    eventId?: string,
  ): Promise<{ status: string; changed: boolean; duplicate?: boolean } | null> {
    const answer = await this.call(
      'POST',
      `${NOTICES}/prepared-notifications/${id}/delivery-event/`,
      `delivery event on ${id}`,
      JSON.stringify({ event, message, event_id: eventId }),
    );
    if (answer.status === 404) return null;
    PlatformClient.expect(answer, 200);
    return answer.json();
  }

  async journal(id: number, kind: string, comments: string): Promise<void> {
    const answer = await this.call(
      'POST',
      '/api/extras/journal-entries/',
      `journal entry on notification ${id}`,
      JSON.stringify({ assigned_object_type: 'notices.preparednotification', assigned_object_id: id, kind, comments }),
    );
    PlatformClient.expect(answer, 201);
  }
}

import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { AppConfig } from '../../common/config/app-config';
import { EgressDeniedError, EgressPolicy, type ResolveAll } from '../../common/http/egress-policy';
import type { AcmeProblemDocument } from './acme-problem';

/** RFC 8555 §8.3: the key authorization is short; anything much longer is not one. */
const MAX_RESPONSE_BYTES = 8192;
const TIMEOUT_MS = 10_000;

/**
 * The http-01 check (RFC 8555 §8.3): GET http://<domain>:<ACME_HTTP01_PORT>/.well-known/acme-challenge/<token> must
 * answer 200 with the key authorization. A request the server makes on its own behalf to a name a client chose, so
 * it goes through the egress policy (EGRESS_ALLOW decides whether internal addresses may be reached). Redirects are
 * not followed. ACME_VALIDATION_ADDRESS (test rigs) connects to that address instead of the name's, still under
 * the policy.
 */
@Injectable()
export class AcmeHttp01Validator {
  private readonly egress: EgressPolicy;

  constructor(
    private readonly config: AppConfig,
    egress: EgressPolicy,
  ) {
    const address = config.acme.validationAddress;
    const pinned: ResolveAll | undefined = address === undefined ? undefined : () => Promise.resolve([{ address, family: isIP(address) }]);
    this.egress = pinned === undefined ? egress : new EgressPolicy(egress.settings, pinned);
  }

  /** Undefined when the answer is the key authorization, else the problem to record on the challenge. */
  async validate(domain: string, token: string, keyAuthorization: string): Promise<AcmeProblemDocument | undefined> {
    const url = `http://${domain}:${this.config.acme.http01Port}/.well-known/acme-challenge/${token}`;
    let answer;
    try {
      answer = await this.egress.request(url, {
        headers: { Accept: 'text/plain, */*', 'User-Agent': 'pki-acme-validator' },
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        overflow: 'truncate',
      });
    } catch (error) {
      const detail =
        error instanceof EgressDeniedError
          ? `${url} may not be fetched: ${error.message}`
          : `Fetching ${url} failed: ${(error as Error).message}`;
      return { type: 'urn:ietf:params:acme:error:connection', detail, status: 400 };
    }
    if (answer.status !== 200) {
      return { type: 'urn:ietf:params:acme:error:unauthorized', detail: `${url} answered HTTP ${answer.status}, not 200`, status: 403 };
    }
    // §8.3: whitespace around the key authorization is ignored.
    const body = answer.body.toString('utf8').trim();
    if (body !== keyAuthorization) {
      return {
        type: 'urn:ietf:params:acme:error:incorrectResponse',
        detail: `${url} did not answer the key authorization for this challenge`,
        status: 403,
      };
    }
    return undefined;
  }
}

import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { AppConfig } from '../../common/config/app-config';
import type { AcmeProblemDocument } from './acme-problem';

/** Per query attempt; node:dns retries `tries` times per server. */
const TIMEOUT_MS = 5_000;
const TRIES = 2;

/**
 * The dns-01 check (RFC 8555 §8.4): a TXT record of `_acme-challenge.<domain>` must hold the base64url SHA-256 of
 * the key authorization. Asked of the resolvers ACME_DNS_RESOLVERS names (the system's when unset) through
 * node:dns's Resolver. The egress policy does not apply: the packets go to an address the operator configured, the
 * client only chooses the name asked about, and following delegations is the resolver's job.
 */
@Injectable()
export class AcmeDns01Validator {
  private readonly resolver: Resolver;

  constructor(config: AppConfig) {
    this.resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
    if (config.acme.dnsResolvers.length > 0) this.resolver.setServers([...config.acme.dnsResolvers]);
  }

  /** Undefined when a TXT record holds the digest, else the problem to record on the challenge. */
  async validate(domain: string, keyAuthorization: string): Promise<AcmeProblemDocument | undefined> {
    const name = `_acme-challenge.${domain}`;
    const expected = createHash('sha256').update(keyAuthorization).digest('base64url');
    let records: string[][];
    try {
      records = await this.resolver.resolveTxt(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return { type: 'urn:ietf:params:acme:error:dns', detail: `No TXT record for ${name} could be read (${code})`, status: 400 };
    }
    // A TXT record may arrive split in strings of at most 255 octets: its value is their concatenation.
    if (records.some((strings) => strings.join('') === expected)) return undefined;
    return {
      type: 'urn:ietf:params:acme:error:incorrectResponse',
      detail: `No TXT record for ${name} holds the digest of this challenge's key authorization (${records.length} found)`,
      status: 403,
    };
  }
}

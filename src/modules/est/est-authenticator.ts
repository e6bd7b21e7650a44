import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Request } from 'express';
import { Repository } from 'typeorm';
import { certificatePemToDer } from '@libs/x509';
import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { UnauthenticatedError } from '../../common/errors/common-errors';
import { ServiceAccountTokenResolver } from '../service-accounts/service-account-token.resolver';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import { EstBadRequestError, EstUnauthenticatedError } from './est-errors';

const BASIC = /^Basic ([A-Za-z0-9+/]+={0,2})$/i;

/**
 * The two ways an EST client proves who it is. HTTP Basic: the username is the service account's
 * name (or its numeric id), the password one of its `pki_sa_…` tokens. A client certificate: TLS
 * ends at the ingress, which forwards the certificate in the configured header; the header is
 * believed only on connections from the configured proxy addresses.
 */
@Injectable()
export class EstAuthenticator {
  private readonly trustedProxies = new BlockList();

  constructor(
    private readonly config: AppConfig,
    private readonly tokens: ServiceAccountTokenResolver,
    @InjectRepository(ServiceAccountEntity) private readonly accounts: Repository<ServiceAccountEntity>,
  ) {
    for (const entry of config.est.trustedProxies) {
      const [address, bits] = entry.split('/');
      const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.trustedProxies.addAddress(address, type);
      else this.trustedProxies.addSubnet(address, Number(bits), type);
    }
  }

  /** The service account of the request's Basic credentials; undefined when it sends none. */
  async basic(request: Request): Promise<Principal | undefined> {
    const header = request.headers.authorization;
    if (header === undefined) return undefined;
    const match = BASIC.exec(header.trim());
    if (!match) throw new EstUnauthenticatedError();
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new EstUnauthenticatedError();
    const username = decoded.slice(0, colon);
    let principal: Principal;
    try {
      principal = await this.tokens.resolve(decoded.slice(colon + 1));
    } catch (error) {
      if (error instanceof UnauthenticatedError) throw new EstUnauthenticatedError('Could not validate credentials');
      throw error;
    }
    // Either spelling is compared in constant time: the username is a second factor only in that a token of another account fails.
    const named = sameText(username.toLowerCase(), principal.name.toLowerCase()) || sameText(username, String(principal.id));
    if (!named) throw new EstUnauthenticatedError('Could not validate credentials');
    return principal;
  }

  /**
   * The DER of the client certificate the ingress forwarded, or undefined: no header configured, none
   * sent, or sent by a peer that is not a trusted proxy (then it is ignored, as if absent).
   */
  clientCertificate(request: Request): Uint8Array | undefined {
    const name = this.config.est.clientCertHeader;
    if (name === undefined) return undefined;
    const value = request.headers[name];
    if (typeof value !== 'string' || value.trim() === '' || !this.fromTrustedProxy(request)) return undefined;
    try {
      return certificatePemToDer(decodeURIComponent(value));
    } catch {
      throw new EstBadRequestError('invalid_client_certificate', `The ${name} header does not hold a URL-encoded PEM certificate`);
    }
  }

  /** The service account that obtained a certificate, acting again (undefined: deleted or disabled). */
  async accountPrincipal(id: number): Promise<Principal | undefined> {
    const account = await this.accounts.findOne({ where: { id } });
    if (!account || account.disabledAt !== null) return undefined;
    return {
      kind: 'service_account',
      id: account.id,
      name: account.name,
      role: 'user',
      organizationId: account.organizationId,
      capabilities: capabilitiesOf(account),
    };
  }

  /** The TCP peer itself, never X-Forwarded-For: the header is only as trustworthy as the connection that carried it. */
  private fromTrustedProxy(request: Request): boolean {
    const peer = request.socket.remoteAddress;
    if (peer === undefined) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer);
    if (mapped) return this.trustedProxies.check(mapped[1], 'ipv4');
    return this.trustedProxies.check(peer, isIP(peer) === 4 ? 'ipv4' : 'ipv6');
  }
}

function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { UnauthenticatedError } from '../../common/errors/common-errors';
import { ServiceAccountTokenEntity } from './service-account-token.entity';
import { parseToken, secretMatches } from './service-account-token.codec';

/** last_used_at is written at most this often per token, so a busy token costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;


/**
 * Turns a `pki_sa_…` token into a service-account principal. Malformed, unknown, revoked and expired
 * tokens, wrong secrets, and tokens of disabled or deleted accounts all get the same 401.
 */
@Injectable()
export class ServiceAccountTokenResolver {
  constructor(
    @InjectRepository(ServiceAccountTokenEntity) private readonly tokens: Repository<ServiceAccountTokenEntity>,
    private readonly config: AppConfig,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    const parsed = parseToken(credential);
    if (!parsed) throw invalid();
    const token = await this.tokens.findOne({ where: { publicId: parsed.publicId }, relations: { serviceAccount: true } });
    if (!token || !secretMatches(this.config.serviceAccountTokenPepper, parsed.secret, token.secretDigest)) throw invalid();
    const account = token.serviceAccount;
    const now = Date.now();
    if (!account || account.disabledAt || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now)) throw invalid();
    if (!token.lastUsedAt || now - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.tokens.update({ id: token.id }, { lastUsedAt: () => 'now()' });
    }
    return {
      kind: 'service_account',
      id: account.id,
      name: account.name,
      role: 'user',
      organizationId: account.organizationId,
      capabilities: capabilitiesOf(account),
    };
  }
}

function invalid(): UnauthenticatedError {
  return new UnauthenticatedError('Could not validate credentials', 'invalid_credentials');
}

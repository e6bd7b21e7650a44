import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { UnauthenticatedError } from '../../common/errors/common-errors';
import { parseToken, secretMatches } from './service-account-token.codec';

/** last_used_at is written at most this often per token, so a busy token costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The token and its account in one statement (plain SQL: this runs on every request of the account). */
const RESOLVE_SQL = `
  SELECT t.id, t.secret_digest, t.expires_at, t.revoked_at, t.last_used_at,
         a.id AS account_id, a.name, a.organization_id, a.disabled_at,
         a.can_create_ca, a.can_create_cert, a.can_revoke_cert, a.can_export_private_key, a.can_delete_ca
    FROM service_account_tokens t
    JOIN service_accounts a ON a.id = t.service_account_id
   WHERE t.public_id = $1`;

interface ResolveRow {
  id: number;
  secret_digest: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  account_id: number;
  name: string;
  organization_id: number;
  disabled_at: Date | null;
  can_create_ca: boolean;
  can_create_cert: boolean;
  can_revoke_cert: boolean;
  can_export_private_key: boolean;
  can_delete_ca: boolean;
}

/**
 * Turns a `pki_sa_…` token into a service-account principal. Malformed, unknown, revoked and expired
 * tokens, wrong secrets, and tokens of disabled or deleted accounts all get the same 401.
 */
@Injectable()
export class ServiceAccountTokenResolver {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    const parsed = parseToken(credential);
    if (!parsed) throw invalid();
    const [row] = (await this.dataSource.query(RESOLVE_SQL, [parsed.publicId])) as ResolveRow[];
    if (!row || !secretMatches(this.config.serviceAccountTokenPepper, parsed.secret, row.secret_digest)) throw invalid();
    const now = Date.now();
    if (row.disabled_at || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= now)) throw invalid();
    if (!row.last_used_at || now - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.dataSource.query('UPDATE service_account_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
    }
    return {
      kind: 'service_account',
      id: row.account_id,
      name: row.name,
      role: 'user',
      organizationId: row.organization_id,
      capabilities: capabilitiesOf({
        canCreateCa: row.can_create_ca,
        canCreateCert: row.can_create_cert,
        canRevokeCert: row.can_revoke_cert,
        canExportPrivateKey: row.can_export_private_key,
        canDeleteCa: row.can_delete_ca,
      }),
    };
  }
}

function invalid(): UnauthenticatedError {
  return new UnauthenticatedError('Could not validate credentials', 'invalid_credentials');
}

import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { AuditService } from '../audit/audit.service';
import { PrivateKeyVault } from '../pki/private-key-vault';
import { ServiceAccountsService } from '../service-accounts/service-accounts.service';
import { AcmeEabKeyEntity } from './acme.entities';

/** A new EAB key: the HMAC key (base64url) exists in plaintext only in this value. */
export interface CreatedEabKey {
  entity: AcmeEabKeyEntity;
  hmacKey: string;
}

/** External Account Binding keys (RFC 8555 §7.3.4) issued to service accounts by those who manage them. */
@Injectable()
export class AcmeEabService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly vault: PrivateKeyVault,
    private readonly audit: AuditService,
  ) {}

  async create(actor: Principal, serviceAccountId: number): Promise<CreatedEabKey> {
    const account = await this.serviceAccounts.get(actor, serviceAccountId);
    const hmacKey = randomBytes(32).toString('base64url');
    const entity = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(
        manager.create(AcmeEabKeyEntity, {
          keyId: `eab_${randomBytes(12).toString('hex')}`,
          hmacKey: this.vault.encrypt(hmacKey),
          serviceAccountId: account.id,
          usedAt: null,
        }),
      );
      await this.audit.record(manager, {
        action: 'acme_eab_key_create',
        actor,
        organizationId: account.organizationId,
        resourceType: 'service_account',
        resourceId: account.id,
        detail: `Created ACME EAB key ${saved.keyId}`,
      });
      return saved;
    });
    return { entity, hmacKey };
  }
}

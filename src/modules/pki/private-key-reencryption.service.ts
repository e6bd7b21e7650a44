import { Injectable } from '@nestjs/common';
import { DataSource, EntityTarget, Not, IsNull } from 'typeorm';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CertificateEntity } from './certificate.entity';
import { PrivateKeyVault } from './private-key-vault';

export interface ReencryptionReport {
  cas: number;
  certificates: number;
}

/**
 * Moves every stored private key to the current encryption key (after PRIVATE_KEY_ENCRYPTION_KEY
 * changed and the old key went to PRIVATE_KEY_ENCRYPTION_OLD_KEYS). Each row is decrypted and
 * re-encrypted in one transaction; keys already under the current key are left alone, so a run
 * that stops half-way is simply repeated.
 */
@Injectable()
export class PrivateKeyReencryption {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vault: PrivateKeyVault,
  ) {}

  async run(): Promise<ReencryptionReport> {
    return this.dataSource.transaction(async (manager) => {
      const rewrite = async (entity: EntityTarget<{ id: number; privateKey: string | null }>): Promise<number> => {
        const rows = await manager.find(entity, { select: { id: true, privateKey: true }, where: { privateKey: Not(IsNull()) } });
        let changed = 0;
        for (const row of rows) {
          if (row.privateKey === null || !this.vault.needsReencryption(row.privateKey)) continue;
          await manager.update(entity, { id: row.id }, { privateKey: this.vault.encrypt(this.vault.decrypt(row.privateKey)) });
          changed++;
        }
        return changed;
      };
      return { cas: await rewrite(CertificateAuthorityEntity), certificates: await rewrite(CertificateEntity) };
    });
  }
}

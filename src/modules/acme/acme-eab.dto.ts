import { ApiProperty } from '@nestjs/swagger';
import type { CreatedEabKey } from './acme-eab.service';

/** A new External Account Binding key; hmac_key is shown only in this response. */
export class CreatedEabKeyDto {
  @ApiProperty({ description: 'The EAB key id (certbot --eab-kid, lego --kid)' }) key_id: string;
  @ApiProperty({ description: 'The HMAC key, base64url (certbot --eab-hmac-key, lego --hmac); shown only in this response' })
  hmac_key: string;
  @ApiProperty() service_account_id: number;
  @ApiProperty() created_at: Date;

  static from({ entity, hmacKey }: CreatedEabKey): CreatedEabKeyDto {
    return Object.assign(new CreatedEabKeyDto(), {
      key_id: entity.keyId,
      hmac_key: hmacKey,
      service_account_id: entity.serviceAccountId,
      created_at: entity.createdAt,
    });
  }
}

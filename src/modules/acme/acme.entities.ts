import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { CertificateAuthorityEntity } from '../pki/certificate-authority.entity';
import { CertificateEntity } from '../pki/certificate.entity';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import type { AcmeProblemDocument } from './acme-problem';

/**
 * A nonce handed out in Replay-Nonce, consumed (deleted) by the one request that uses it. Kept in the database so
 * that every replica accepts the nonces of every other one.
 */
@Entity('acme_nonces')
@Index('acme_nonces_created_at_idx', ['createdAt'])
export class AcmeNonceEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'acme_nonces_pkey' })
  value: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/**
 * An External Account Binding key (RFC 8555 §7.3.4): issued to a service account through the API, used once to
 * bind a new ACME account to that service account. The HMAC key is encrypted at rest.
 */
@Entity('acme_eab_keys')
@Index('acme_eab_keys_key_id_key', ['keyId'], { unique: true })
@Index('acme_eab_keys_service_account_id_idx', ['serviceAccountId'])
export class AcmeEabKeyEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'acme_eab_keys_pkey' })
  id: number;

  @Column({ name: 'key_id', type: 'varchar', length: 64 })
  keyId: string;

  @Column({ name: 'hmac_key', type: 'text' })
  hmacKey: string;

  @Column({ name: 'service_account_id', type: 'integer' })
  serviceAccountId: number;

  @ManyToOne(() => ServiceAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_account_id', foreignKeyConstraintName: 'acme_eab_keys_service_account_id_fkey' })
  serviceAccount?: ServiceAccountEntity;

  /** Set when an account was bound with the key; a used key binds nothing more. */
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export type AcmeAccountStatus = 'valid' | 'deactivated' | 'revoked';

/** An ACME account of one CA's directory, known by its key's RFC 7638 thumbprint. */
@Entity('acme_accounts')
@Index('acme_accounts_ca_id_key_thumbprint_key', ['caId', 'keyThumbprint'], { unique: true })
@Index('acme_accounts_service_account_id_idx', ['serviceAccountId'])
export class AcmeAccountEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'acme_accounts_pkey' })
  id: number;

  @Column({ name: 'ca_id', type: 'integer' })
  caId: number;

  @ManyToOne(() => CertificateAuthorityEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ca_id', foreignKeyConstraintName: 'acme_accounts_ca_id_fkey' })
  ca?: CertificateAuthorityEntity;

  @Column({ name: 'key_thumbprint', type: 'varchar', length: 64 })
  keyThumbprint: string;

  @Column({ type: 'jsonb' })
  jwk: Record<string, string>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  contact: string[];

  @Column({ type: 'varchar', length: 16 })
  status: AcmeAccountStatus;

  /** The service account whose issuance policy and capabilities the account's orders are issued under. */
  @Column({ name: 'service_account_id', type: 'integer', nullable: true })
  serviceAccountId: number | null;

  @ManyToOne(() => ServiceAccountEntity, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'service_account_id', foreignKeyConstraintName: 'acme_accounts_service_account_id_fkey' })
  serviceAccount?: ServiceAccountEntity | null;

  /** The EAB key id the account was bound with, if any (reported back as externalAccountBinding). */
  @Column({ name: 'eab_key_id', type: 'varchar', length: 64, nullable: true })
  eabKeyId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export type AcmeOrderStatus = 'pending' | 'ready' | 'processing' | 'valid' | 'invalid';

export interface AcmeIdentifier {
  type: 'dns';
  value: string;
}

@Entity('acme_orders')
@Index('acme_orders_account_id_idx', ['accountId'])
@Index('acme_orders_replaces_certificate_id_key', ['replacesCertificateId'], { unique: true, where: "status <> 'invalid'" })
export class AcmeOrderEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'acme_orders_pkey' })
  id: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ManyToOne(() => AcmeAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'acme_orders_account_id_fkey' })
  account?: AcmeAccountEntity;

  @Column({ type: 'varchar', length: 16 })
  status: AcmeOrderStatus;

  @Column({ type: 'jsonb' })
  identifiers: AcmeIdentifier[];

  @Column({ type: 'timestamptz' })
  expires: Date;

  @Column({ name: 'certificate_id', type: 'integer', nullable: true })
  certificateId: number | null;

  @ManyToOne(() => CertificateEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'certificate_id', foreignKeyConstraintName: 'acme_orders_certificate_id_fkey' })
  certificate?: CertificateEntity | null;

  @Column({ type: 'jsonb', nullable: true })
  error: AcmeProblemDocument | null;

  /**
   * RFC 9773 `replaces`: the certificate this order renews, as the client named it (its certID) and by id. Of the
   * orders that are not invalid, one at most replaces a given certificate.
   */
  @Column({ type: 'varchar', length: 128, nullable: true })
  replaces: string | null;

  @Column({ name: 'replaces_certificate_id', type: 'integer', nullable: true })
  replacesCertificateId: number | null;

  @ManyToOne(() => CertificateEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'replaces_certificate_id', foreignKeyConstraintName: 'acme_orders_replaces_certificate_id_fkey' })
  replacesCertificate?: CertificateEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export type AcmeAuthorizationStatus = 'pending' | 'valid' | 'invalid' | 'deactivated' | 'expired' | 'revoked';

@Entity('acme_authorizations')
@Index('acme_authorizations_order_id_idx', ['orderId'])
export class AcmeAuthorizationEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'acme_authorizations_pkey' })
  id: number;

  @Column({ name: 'order_id', type: 'integer' })
  orderId: number;

  @ManyToOne(() => AcmeOrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id', foreignKeyConstraintName: 'acme_authorizations_order_id_fkey' })
  order?: AcmeOrderEntity;

  /** The order's name; a wildcard keeps its `*.` here and is answered as `{value: base name, wildcard: true}`. */
  @Column({ name: 'identifier_value', type: 'varchar', length: 253 })
  identifierValue: string;

  @Column({ type: 'varchar', length: 16 })
  status: AcmeAuthorizationStatus;

  @Column({ type: 'timestamptz' })
  expires: Date;
}

export type AcmeChallengeStatus = 'pending' | 'processing' | 'valid' | 'invalid';

@Entity('acme_challenges')
@Index('acme_challenges_authorization_id_idx', ['authorizationId'])
export class AcmeChallengeEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'acme_challenges_pkey' })
  id: number;

  @Column({ name: 'authorization_id', type: 'integer' })
  authorizationId: number;

  @ManyToOne(() => AcmeAuthorizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'acme_challenges_authorization_id_fkey' })
  authorization?: AcmeAuthorizationEntity;

  @Column({ type: 'varchar', length: 16 })
  type: 'http-01' | 'dns-01';

  @Column({ type: 'varchar', length: 64 })
  token: string;

  @Column({ type: 'varchar', length: 16 })
  status: AcmeChallengeStatus;

  @Column({ name: 'validated_at', type: 'timestamptz', nullable: true })
  validatedAt: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  error: AcmeProblemDocument | null;
}

export const ROLES = ['superuser', 'admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** The five capability flags a user or service account may hold. */
export const CAPABILITIES = ['can_create_ca', 'can_create_cert', 'can_revoke_cert', 'can_export_private_key', 'can_delete_ca'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export type PrincipalKind = 'user' | 'service_account';

/**
 * Whoever is calling: a user with a session, or (later) a service account with an API token.
 * Every authorization decision is made on this one type.
 */
export interface Principal {
  kind: PrincipalKind;
  id: number;
  /** Username or service-account name, as recorded in audit entries. */
  name: string;
  /** Service accounts act as role `user`. */
  role: Role;
  organizationId: number | null;
  capabilities: ReadonlySet<Capability>;
  /** For user sessions: what logout needs to revoke and blocklist. */
  session?: { id: string; tokenId: string; expiresAt: Date };
  /** For platform API tokens (`Authorization: Token …`): read-only tokens may only read. */
  apiToken?: { id: number; writeEnabled: boolean };
}

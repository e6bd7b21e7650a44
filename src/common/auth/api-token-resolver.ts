import { Principal } from './principal';

/**
 * Turns a platform API token (`Authorization: Token <key>`) into its user's principal, or throws.
 * Implemented by the platform's users app; the authentication guard only knows this type.
 */
export abstract class ApiTokenResolver {
  abstract resolve(key: string): Promise<Principal>;
}

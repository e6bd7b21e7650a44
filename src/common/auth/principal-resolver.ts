import { Principal } from './principal';

/**
 * Turns a bearer credential into a principal, or throws UnauthenticatedError. Implemented by the
 * auth module (user JWTs) and extended for service-account tokens; the guard only knows this type.
 */
export abstract class PrincipalResolver {
  abstract resolve(credential: string): Promise<Principal>;
}

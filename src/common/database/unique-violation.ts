import { QueryFailedError } from 'typeorm';

/**
 * The name of the unique constraint a failed INSERT/UPDATE violated, or undefined for any other
 * error. Services check uniqueness first for a friendly message; this catches the race where two
 * requests pass that check at once.
 */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' ? driverError.constraint : undefined;
}

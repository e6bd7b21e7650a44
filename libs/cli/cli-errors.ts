/** A mistake in how the CLI was invoked (bad value, unknown key, missing confirmation): exit status 2. */
export class UsageError extends Error {}

/** The command ran as asked but could not do its job (nothing stored under a key, not logged in): exit status 1. */
export class CommandFailure extends Error {}

/**
 * How late a timer or an answer may come on a loaded machine, added to the timeout a test expects an
 * answer after. Without the timeout under test the answer comes only when jest's own limit ends the
 * test, so a wide margin still tells the two apart.
 */
export const LOADED_MACHINE_LATENESS_MS = 5000;

/**
 * Time a `beforeAll`/`afterAll` hook gets when it names none (test/support/e2e-environment.ts), and
 * a test that boots apps itself. Booting an app on a fresh PGlite database and seeding its users and
 * a token takes a few seconds on a quiet 2-core machine and 7 s at load 10; files that seed many
 * fixtures in their hooks take a few times that. This leaves room for a machine loaded far beyond
 * that, while a hook that hangs still ends.
 */
export const SETUP_HOOK_TIMEOUT_MS = 180_000;

/**
 * How long a spawned server process may take to answer /health: 2–4 s on a quiet 2-core machine,
 * 35–50 s at load 20 (PGlite's start alone takes most of that).
 */
export const PROCESS_BOOT_TIMEOUT_MS = 120_000;

/** A test that boots server processes one after another: room for three boots on such a machine. */
export const PROCESS_TEST_TIMEOUT_MS = 3 * PROCESS_BOOT_TIMEOUT_MS;

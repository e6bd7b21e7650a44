/**
 * The apps a test file has started and not yet closed, so that the file's end can close what its
 * own hooks did not: a boot that outlived its hook's timeout goes on in the background, and if it
 * outlived the file too, pg would open connections after jest tore the file's module registry down
 * (every lazy `require` then answers undefined: "Cannot read properties of undefined (reading
 * 'Socket')"). test/support/e2e-environment.ts calls {@link closeRunningApps} once the file's
 * hooks are done.
 */
interface Closable {
  close(): Promise<void>;
}

const running = new Set<Promise<Closable>>();

/** Where the e2e environment finds {@link closeRunningApps} on the test file's global object. */
export const CLOSE_RUNNING_APPS = Symbol.for('e2e.closeRunningApps');

/** Remembers a boot until the app it yields has been closed; returns the same promise. */
export function trackBoot<T extends Closable>(boot: Promise<T>): Promise<T> {
  running.add(boot);
  boot.catch(() => running.delete(boot));
  return boot;
}

/** Forgets an app whose close has begun. */
export function forgetBoot(boot: Promise<Closable>): void {
  running.delete(boot);
}

/** Waits for every boot still under way and closes every app left open. */
export async function closeRunningApps(): Promise<void> {
  const boots = [...running];
  running.clear();
  const apps = await Promise.all(boots.map((boot) => boot.catch(() => undefined)));
  await Promise.all(apps.filter((app) => app !== undefined).map((app) => app.close()));
}

(globalThis as Record<symbol, unknown>)[CLOSE_RUNNING_APPS] = closeRunningApps;

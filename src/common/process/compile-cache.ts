import * as nodeModule from 'node:module';

/** `module.enableCompileCache` (Node 22.1+), absent from Node 20 and its types. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/**
 * Turns on Node's on-disk cache of compiled module code, so a start after the first one skips
 * compiling the ~3 000 modules of the application (the larger part of a cold start). The runtime
 * keeps it in `NODE_COMPILE_CACHE` when set, else in the OS temporary directory, keyed by Node
 * version and file content, and falls back to compiling when the directory cannot be written.
 * Node 20 has no such cache: there this does nothing. Imported first by the entry point, before
 * the modules it should cover are loaded.
 */
export function enableCompileCache(enable: EnableCompileCache | undefined): boolean {
  if (typeof enable !== 'function') return false;
  try {
    enable();
    return true;
  } catch {
    // A cache is an optimisation: a runtime that refuses it starts as it would without.
    return false;
  }
}

enableCompileCache((nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache);

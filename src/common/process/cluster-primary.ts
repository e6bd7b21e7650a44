import cluster, { Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { serveClusterMetrics } from '../metrics/cluster-metrics';
import type { AppConfig } from '../config/app-config';

/** Time the primary allows beyond SHUTDOWN_GRACE_SECONDS, so a worker's own overrun exit comes first. */
const SHUTDOWN_MARGIN_MS = 2000;

/**
 * HTTP server processes: WEB_CONCURRENCY, by default one per available CPU, with a PostgreSQL
 * server. The embedded database lives inside one process and serves only that one (its socket
 * server would interleave the statements of several connections; see docs/architecture.md).
 */
export function serverProcessCount(config: Pick<AppConfig, 'databaseUrl' | 'webConcurrency'>): number {
  if (!config.databaseUrl) return 1;
  return config.webConcurrency ?? availableParallelism();
}

/** What to do about a worker that exited while the cluster was not shutting down. */
export type ExitDecision = { action: 'replace'; delayMs: number } | { action: 'give-up'; reason: 'first-start' | 'crash-loop' };

/**
 * When to replace a dead worker and when to stop trying. The first worker failing to start is
 * final (a single process would exit 1 too). Otherwise a replacement waits 0.5 s, doubled for each
 * failure in a row (at most 30 s); a worker that serves for a minute ends the streak. Five
 * replacements in a row that die before listening are a crash loop: give up.
 */
export class RestartPolicy {
  static readonly BASE_DELAY_MS = 500;
  static readonly MAX_DELAY_MS = 30_000;
  static readonly STABLE_AFTER_MS = 60_000;
  static readonly MAX_START_FAILURES = 5;

  private anyListened = false;
  private crashStreak = 0;
  private startFailures = 0;

  /** A worker started listening. Returns true for the first one of the cluster's life. */
  listening(): boolean {
    this.startFailures = 0;
    const first = !this.anyListened;
    this.anyListened = true;
    return first;
  }

  /** A worker has served for {@link STABLE_AFTER_MS}. */
  stable(): void {
    this.crashStreak = 0;
  }

  exited(wasListening: boolean): ExitDecision {
    if (!wasListening) {
      if (!this.anyListened) return { action: 'give-up', reason: 'first-start' };
      if (++this.startFailures >= RestartPolicy.MAX_START_FAILURES) return { action: 'give-up', reason: 'crash-loop' };
    } else {
      this.crashStreak++;
    }
    const failures = this.crashStreak + this.startFailures;
    return { action: 'replace', delayMs: Math.min(RestartPolicy.MAX_DELAY_MS, RestartPolicy.BASE_DELAY_MS * 2 ** (failures - 1)) };
  }
}

export interface ClusterPrimaryOptions {
  /** Worker processes to keep running (2 or more). */
  processes: number;
  /** Variables every worker gets on top of the primary's environment. */
  workerEnv: Record<string, string>;
  shutdownGraceSeconds: number;
  logger: Logger;
}

interface WorkerState {
  worker: Worker;
  listening: boolean;
  stableTimer?: NodeJS.Timeout;
}

/**
 * The primary of a node:cluster of HTTP servers sharing one port. It serves nothing itself: it
 * starts one worker (which migrates the database and proves the configuration), starts the others
 * once that one listens, replaces a worker that dies, and on SIGTERM/SIGINT has every worker drain
 * its requests and exits 0 once all have exited cleanly.
 *
 * A worker that dies is replaced as {@link RestartPolicy} decides; when it gives up (the first worker
 * failed to start, or replacements crash-loop) the primary exits 1.
 */
export class ClusterPrimary {
  private readonly workers = new Map<number, WorkerState>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private readonly policy = new RestartPolicy();
  private shuttingDown = false;
  private exitCode = 0;

  constructor(private readonly options: ClusterPrimaryOptions) {}

  start(): void {
    const { logger, processes } = this.options;
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    process.once('SIGTERM', (signal) => this.shutdown(signal, 0));
    process.once('SIGINT', (signal) => this.shutdown(signal, 0));
    serveClusterMetrics();
    logger.info({ processes }, 'starting server processes');
    this.fork({});
  }

  private fork(extraEnv: Record<string, string>): void {
    const worker = cluster.fork({ ...this.options.workerEnv, ...extraEnv });
    const state: WorkerState = { worker, listening: false };
    this.workers.set(worker.id, state);
    worker.once('listening', () => this.onListening(state));
  }

  private onListening(state: WorkerState): void {
    state.listening = true;
    state.stableTimer = setTimeout(() => this.policy.stable(), RestartPolicy.STABLE_AFTER_MS);
    state.stableTimer.unref();
    if (!this.policy.listening() || this.shuttingDown) return;
    // The first worker has applied the migrations; the others need not take the migration lock.
    for (let i = 1; i < this.options.processes; i++) this.fork({ MIGRATE_ON_START: 'false' });
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const state = this.workers.get(worker.id);
    this.workers.delete(worker.id);
    clearTimeout(state?.stableTimer);
    const { logger } = this.options;
    if (this.shuttingDown) {
      // A worker stopped before it could install its own signal handling dies of the signal: no failure.
      const clean = code === 0 || (signal === 'SIGTERM' && !state?.listening);
      if (!clean) this.exitCode = 1;
      this.finishShutdownWhenEmpty();
      return;
    }
    const fields = { exited_worker: worker.id, pid: worker.process.pid, code, signal };
    const decision = this.policy.exited(state?.listening ?? false);
    if (decision.action === 'give-up') {
      if (decision.reason === 'first-start') {
        logger.fatal(fields, 'server process failed to start');
        process.exit(1);
      }
      logger.fatal(fields, 'server processes keep failing at start; stopping');
      this.shutdown(undefined, 1);
      return;
    }
    logger.error({ ...fields, restart_in_ms: decision.delayMs }, 'server process exited unexpectedly; replacing it');
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (!this.shuttingDown) this.fork({ MIGRATE_ON_START: 'false' });
    }, decision.delayMs);
    this.restartTimers.add(timer);
  }

  /**
   * Asks every worker to drain and exit (each applies SHUTDOWN_GRACE_SECONDS itself); exits once all
   * have, with 1 when any failed or when the whole shutdown overruns the grace period.
   */
  private shutdown(signal: NodeJS.Signals | undefined, exitCode: number): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.exitCode = exitCode;
    const { logger, shutdownGraceSeconds } = this.options;
    logger.info({ signal, processes: this.workers.size }, 'shutting down');
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    for (const { worker } of this.workers.values()) worker.process.kill('SIGTERM');
    const overrun = setTimeout(
      () => {
        logger.error({ grace_seconds: shutdownGraceSeconds }, 'shutdown overran its grace period');
        for (const { worker } of this.workers.values()) worker.process.kill('SIGKILL');
        process.exit(1);
      },
      shutdownGraceSeconds * 1000 + SHUTDOWN_MARGIN_MS,
    );
    overrun.unref();
    this.finishShutdownWhenEmpty();
  }

  private finishShutdownWhenEmpty(): void {
    if (this.workers.size > 0) return;
    this.options.logger.info('shutdown complete');
    process.exit(this.exitCode);
  }
}

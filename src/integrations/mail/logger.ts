import pino from 'pino';

/** The worker's JSON log lines (pino, as the platform's); secrets are never passed to it. */
export type Logger = pino.Logger;

export const createWorkerLogger = (level = process.env.LOG_LEVEL ?? 'info'): Logger => pino({ name: 'mail-worker', level });

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A probe that takes longer than this counts as a failure: a hung database must not hang probes. */
export const DATABASE_PROBE_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(private readonly dataSource: DataSource) {}

  /** True when the database answers `SELECT 1` within the probe timeout. */
  async databaseAnswers(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_PROBE_TIMEOUT_MS);
    });
    const probe = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

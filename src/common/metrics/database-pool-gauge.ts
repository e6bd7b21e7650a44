import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Metrics } from './metrics';

/** Reads this process's pg pool into the database pool gauge at each scrape. */
@Injectable()
export class DatabasePoolGauge {
  constructor(dataSource: DataSource, metrics: Metrics) {
    metrics.readAtScrape(metrics.databasePool, () => {
      const pool = (dataSource.driver as unknown as { master?: Pool }).master;
      if (!pool) return;
      metrics.databasePool.set({ state: 'total' }, pool.totalCount);
      metrics.databasePool.set({ state: 'idle' }, pool.idleCount);
      metrics.databasePool.set({ state: 'waiting' }, pool.waitingCount);
    });
  }
}

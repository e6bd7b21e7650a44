import { Global, Module } from '@nestjs/common';
import { DatabasePoolGauge } from './database-pool-gauge';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

@Global()
@Module({ providers: [Metrics, DatabasePoolGauge], controllers: [MetricsController], exports: [Metrics] })
export class MetricsModule {}

import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import cluster from 'node:cluster';
import type { Response } from 'express';
import { Public } from '../auth/authenticated.decorator';
import { sameSecret } from '../auth/same-secret';
import { AppConfig } from '../config/app-config';
import { UnauthenticatedError } from '../errors/common-errors';
import { ClusterMetricsClient } from './cluster-metrics';
import { Metrics } from './metrics';

@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  private readonly clusterMetrics: ClusterMetricsClient | undefined;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {
    this.clusterMetrics = cluster.isWorker ? new ClusterMetricsClient(metrics.registry) : undefined;
  }

  @Get()
  @Public()
  @ApiOperation({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics of this process, or of all its cluster workers summed',
    description: 'Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set.',
  })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'Prometheus text exposition format 0.0.4',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 401, description: 'METRICS_TOKEN is set and the bearer token is missing or wrong' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() response: Response): Promise<void> {
    const expected = this.config.metricsToken;
    if (expected !== undefined) {
      const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
      if (!sameSecret(presented, expected)) throw new UnauthenticatedError('A valid metrics token is required', 'invalid_metrics_token');
    }
    const text = this.clusterMetrics ? await this.clusterMetrics.clusterText() : await this.metrics.registry.metrics();
    response.type(this.metrics.registry.contentType).send(text);
  }
}

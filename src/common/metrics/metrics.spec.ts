import { Metrics } from './metrics';

describe('Metrics', () => {
  it('answers a scrape whose database-read gauge fails, without that gauge and saying so', async () => {
    const metrics = new Metrics();
    metrics.readAtScrape(metrics.jobQueueDepth, () => Promise.reject(new Error('connect ECONNREFUSED')));
    metrics.jobQueueDepth.set({ queue: 'webhooks', status: 'pending' }, 3);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toContain('metrics_gauge_read_ok{gauge="jobs_queue_depth"} 0');
    expect(text).not.toMatch(/^jobs_queue_depth\{/m);
  });

  it('gives up a reader that does not answer within two seconds', async () => {
    const metrics = new Metrics();
    metrics.readAtScrape(metrics.jobQueueDepth, () => new Promise<void>(() => undefined));
    const started = Date.now();
    const text = await metrics.registry.metrics();
    // Two seconds, plus room for a loaded machine's late timers; without the limit the scrape never ends.
    expect(Date.now() - started).toBeLessThan(2000 + 5000);
    expect(text).toContain('metrics_gauge_read_ok{gauge="jobs_queue_depth"} 0');
  });

  it('reports a gauge that was read, and that it was', async () => {
    const metrics = new Metrics();
    metrics.readAtScrape(metrics.jobQueueDepth, () => metrics.jobQueueDepth.set({ queue: 'webhooks', status: 'pending' }, 2));
    const text = await metrics.registry.metrics();
    expect(text).toContain('jobs_queue_depth{queue="webhooks",status="pending"} 2');
    expect(text).toContain('metrics_gauge_read_ok{gauge="jobs_queue_depth"} 1');
  });
});

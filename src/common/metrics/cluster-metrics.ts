import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, Registry } from 'prom-client';

const REQUEST = 'pki:cluster-metrics-request';
const RESPONSE = 'pki:cluster-metrics-response';
const TIMEOUT_MS = 5_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: string;
}
interface MetricsResponse {
  type: typeof RESPONSE;
  id: string;
  text?: string;
  error?: string;
}

/**
 * In a cluster's primary: answers a worker that was scraped with the sum of every worker's series
 * (prom-client asks each worker for its registry over IPC), so a scrape of any worker sees the pod.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsRequest) => {
    if (message?.type !== REQUEST) return;
    const reply = (answer: Omit<MetricsResponse, 'type' | 'id'>) => worker.send({ type: RESPONSE, id: message.id, ...answer });
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In a cluster's worker: offers `registry` to the primary's aggregation and asks it for the cluster's text. */
export class ClusterMetricsClient {
  private readonly pending = new Map<string, (response: MetricsResponse) => void>();

  constructor(registry: Registry) {
    // Constructing it installs prom-client's worker-side listener; setRegistries names what it reports.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
    process.on('message', (message: MetricsResponse) => {
      if (message?.type === RESPONSE) this.pending.get(message.id)?.(message);
    });
  }

  clusterText(): Promise<string> {
    const id = randomUUID();
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('the cluster primary did not answer with metrics'));
      }, TIMEOUT_MS);
      this.pending.set(id, (response) => {
        clearTimeout(timer);
        this.pending.delete(id);
        if (response.text !== undefined) resolve(response.text);
        else reject(new Error(response.error ?? 'no metrics'));
      });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
  }
}

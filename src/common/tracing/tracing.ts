import type { IncomingMessage, RequestOptions } from 'node:http';
import { type Attributes, diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation, type UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { Logger } from 'pino';
import type { TracingSettings } from './tracing-settings';

/** A started tracer: `shutdown` exports the spans still buffered, then stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Registers the global tracer provider and the HTTP (node:http and fetch), Express and pg instrumentations. This module is
 * only ever imported dynamically, by a process whose settings turn tracing on, and before that
 * process loads express or pg: the instrumentations patch those modules as they are required.
 *
 * What spans carry is kept free of secrets: no request or response header is recorded (the
 * instrumentation's default), query-string values are replaced (keys stay), outgoing requests record
 * their origin only (a webhook URL's path or query may be its secret), and pg statements are recorded
 * with their placeholders, never the bound values.
 */
export function startTracing(settings: TracingSettings, logger: Logger): Tracing {
  // The SDK reports its own trouble (a collector that refuses or cannot be reached) only through diag.
  const sdkLogger = logger.child({ component: 'opentelemetry' });
  const fields = (args: unknown[]) => (args.length > 0 ? { details: args } : {});
  diag.setLogger(
    {
      error: (message, ...args) => sdkLogger.error(fields(args), message),
      warn: (message, ...args) => sdkLogger.warn(fields(args), message),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: sampler(settings),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesUrl }))],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes, every few seconds from each prober, would bury the requests.
        ignoreIncomingRequestHook: (request) => /^\/(health|metrics)(\/|\?|$)/.test(request.url ?? ''),
        startIncomingSpanHook: incomingQueryWithoutValues,
        startOutgoingSpanHook: outgoingOriginOnly,
      }),
      // fetch (the mail worker's calls to the API, PeeringDB) goes through undici, not node:http.
      new UndiciInstrumentation({ startSpanHook: fetchOriginOnly }),
      // Middleware spans (body parsers, CORS, ...) would outnumber the rest; the route handler's is kept.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Queries outside a request (the job poller's, every second) would each start a trace of their own.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}

function sampler(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
  }
}

/** `url.query` with each value replaced: filters may hold personal data, and a client may send a token there. */
function incomingQueryWithoutValues(request: IncomingMessage): Attributes {
  const query = request.url?.split('?', 2)[1];
  if (!query) return {};
  const keys = [...new URLSearchParams(query).keys()];
  return { 'url.query': keys.map((key) => `${encodeURIComponent(key)}=REDACTED`).join('&') };
}

function outgoingOriginOnly(request: RequestOptions): Attributes {
  const host = request.hostname ?? request.host ?? 'localhost';
  const port = request.port === undefined || request.port === null ? '' : `:${request.port}`;
  return { 'url.full': `${request.protocol ?? 'http:'}//${host}${port}` };
}

function fetchOriginOnly(request: UndiciRequest): Attributes {
  return { 'url.full': request.origin, 'url.path': undefined, 'url.query': undefined };
}

/**
 * Whether and how a process exports traces, read from the standard OpenTelemetry variables. Kept
 * free of OpenTelemetry imports: every process reads its settings, only a tracing one loads the SDK.
 */

export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

export interface TracingSettings {
  /** Where finished spans are POSTed, as OTLP/HTTP JSON. */
  tracesUrl: string;
  /** The `service.name` resource attribute of every span. */
  serviceName: string;
  sampler: TracesSampler;
  /** Fraction of new traces kept by the ratio samplers (OTEL_TRACES_SAMPLER_ARG). */
  samplerRatio: number;
}

/** How the caller's configuration reader exposes a variable and collects a problem with it. */
export interface SettingSource {
  value(name: string): string | undefined;
  problem(variable: string, message: string): void;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);

/**
 * Tracing is on when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is) or OTEL_EXPORTER_OTLP_ENDPOINT
 * (the traces path `/v1/traces` appended, as the OTLP specification says) is set and OTEL_SDK_DISABLED
 * is not true; undefined otherwise. Every variable is read, so each reader's list of names is whole.
 */
export function readTracingSettings(source: SettingSource, defaultServiceName: string): TracingSettings | undefined {
  const tracesEndpoint = readEndpoint(source, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = readEndpoint(source, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const disabled = TRUE_WORDS.has((source.value('OTEL_SDK_DISABLED') ?? '').toLowerCase());
  const serviceName = source.value('OTEL_SERVICE_NAME') ?? defaultServiceName;
  const sampler = readSampler(source);
  const samplerRatio = readRatio(source);
  const tracesUrl = tracesEndpoint ?? (endpoint === undefined ? undefined : `${endpoint.replace(/\/+$/, '')}/v1/traces`);
  if (disabled || tracesUrl === undefined) return undefined;
  return { tracesUrl, serviceName, sampler, samplerRatio };
}

function readEndpoint(source: SettingSource, name: string): string | undefined {
  const value = source.value(name);
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (['http:', 'https:'].includes(url.protocol) && url.username === '' && url.password === '') return value;
  } catch {
    // reported below
  }
  // Not echoed: a collector URL may carry credentials.
  source.problem(name, 'must be an http(s) URL without credentials, such as http://otel-collector:4318');
  return undefined;
}

function readSampler(source: SettingSource): TracesSampler {
  const value = source.value('OTEL_TRACES_SAMPLER');
  if (value === undefined) return 'parentbased_always_on';
  const sampler = TRACES_SAMPLERS.find((choice) => choice === value.toLowerCase());
  if (sampler === undefined)
    source.problem('OTEL_TRACES_SAMPLER', `must be one of ${TRACES_SAMPLERS.join(', ')} (got ${JSON.stringify(value)})`);
  return sampler ?? 'parentbased_always_on';
}

function readRatio(source: SettingSource): number {
  const value = source.value('OTEL_TRACES_SAMPLER_ARG');
  if (value === undefined) return 1;
  const ratio = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN;
  if (!(ratio >= 0 && ratio <= 1)) {
    source.problem('OTEL_TRACES_SAMPLER_ARG', `must be a ratio from 0 to 1 (got ${JSON.stringify(value)})`);
    return 1;
  }
  return ratio;
}

import { readConfig } from '../config/app-config';
import { InvalidConfigurationError } from '../config/env-reader';
import { readMailWorkerConfig } from '../../integrations/mail/config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    readConfig(env);
    return [];
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.lines();
    throw error;
  }
};

describe('tracing settings', () => {
  it('are off without an OTLP endpoint, whatever else is set', () => {
    expect(readConfig({}).config.tracing).toBeUndefined();
    expect(readConfig({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }).config.tracing).toBeUndefined();
  });

  it('append /v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT and default the service name and sampler', () => {
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).config.tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'pki-inventory',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
  });

  it('take OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, over the generic endpoint, with the standard sampler variables', () => {
    const { config } = readConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp/spans',
      OTEL_SERVICE_NAME: 'pki-eu',
      OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(config.tracing).toEqual({
      tracesUrl: 'https://traces.example.com/otlp/spans',
      serviceName: 'pki-eu',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
    });
  });

  it('are off with OTEL_SDK_DISABLED=true even with an endpoint', () => {
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).config.tracing).toBeUndefined();
  });

  it('refuse bad values, one line each, without echoing an endpoint', () => {
    const lines = problemsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://user:s3cret@collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '1.5',
    });
    expect(lines.map((line) => line.split(' ')[2]).sort()).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_TRACES_SAMPLER',
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('are read by the mail worker too, with its own service name and its one-line problems', () => {
    const base = { PLATFORM_URL: 'http://pki:8000', PLATFORM_API_TOKEN: 'token', ENABLE_OUTBOUND_POLLING: 'false' };
    expect(readMailWorkerConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).config?.tracing).toEqual(
      expect.objectContaining({ tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'pki-mail-worker' }),
    );
    expect(readMailWorkerConfig({ ...base, OTEL_TRACES_SAMPLER_ARG: 'half' }).problems).toEqual([
      'OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got "half")',
    ]);
  });
});

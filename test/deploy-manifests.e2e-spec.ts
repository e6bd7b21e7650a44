import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readConfig } from '../src/common/config/app-config';
import { readMailWorkerConfig } from '../src/integrations/mail/config';
import { settingVariable } from '../src/platform/plugins/plugin-settings';
import { AVAILABLE_PLUGINS } from '../src/plugins';

/**
 * The Kubernetes manifests (deploy/kubernetes): the example overlay renders with kubectl's kustomize,
 * every object validates against the Kubernetes API schemas, and every setting the server reads is
 * wired in the API's Deployment or listed in docs/operations.md as left at its default.
 */

const ROOT = join(__dirname, '..');
const OVERLAY = join(ROOT, 'deploy', 'kubernetes', 'overlays', 'example');
const VALIDATE = join(ROOT, 'deploy', 'kubernetes', 'validate.mjs');

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
};

function validate(source: string) {
  const run = spawnSync(process.execPath, [VALIDATE, source], { encoding: 'utf8' });
  return {
    status: run.status,
    stderr: run.stderr,
    ...(JSON.parse(run.stdout) as { objects: unknown[]; errors: Array<{ message: string }> }),
  };
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const objects = parseAllDocuments(execFileSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8' })).map(
    (document) => document.toJS() as Manifest,
  );
  const find = (kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (!found) throw new Error(`${kind} ${name} is not rendered`);
    return found;
  };
  const api = find('Deployment', 'pki');
  const apiContainer = api.spec.template.spec.containers[0];
  const configMapsOf = (container: any): Manifest[] =>
    (container.envFrom ?? []).map((source: any) => find('ConfigMap', source.configMapRef.name));

  it('renders the example overlay and every object validates against the Kubernetes schemas', () => {
    const result = validate(OVERLAY);
    expect(result.errors).toEqual([]);
    expect(result.status).toBe(0);
    expect(result.objects).toEqual(
      expect.arrayContaining(
        [
          ['apps/v1', 'Deployment', 'pki'],
          ['apps/v1', 'Deployment', 'mail-worker'],
          ['batch/v1', 'Job', 'pki-migrate'],
          ['v1', 'Service', 'pki'],
          ['networking.k8s.io/v1', 'Ingress', 'pki'],
          ['autoscaling/v2', 'HorizontalPodAutoscaler', 'pki'],
          ['policy/v1', 'PodDisruptionBudget', 'pki'],
          ['networking.k8s.io/v1', 'NetworkPolicy', 'pki-api'],
        ].map(([apiVersion, kind, name]) => ({ apiVersion, kind, name })),
      ),
    );
  });

  it('refuses an object that breaks its schema, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    try {
      const file = join(dir, 'broken.yaml');
      writeFileSync(
        file,
        readFileSync(join(ROOT, 'deploy', 'kubernetes', 'base', 'api-deployment.yaml'), 'utf8').replace('replicas: 2', 'replicas: two'),
      );
      const result = validate(file);
      expect(result.status).toBe(1);
      expect(result.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('spec/replicas must be integer') })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** The variables named in docs/operations.md's "Settings left at their defaults". */
  const documentedDefaults = () => {
    const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const section = operations.split('\n## ').find((part) => part.startsWith('Settings left at their defaults'));
    if (!section) throw new Error('docs/operations.md has no "Settings left at their defaults" section');
    return new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));
  };
  const wiredIn = (container: any) =>
    new Set<string>([
      ...container.env.map((variable: { name: string }) => variable.name),
      ...configMapsOf(container).flatMap((configMap) => Object.keys(configMap.data ?? {})),
    ]);
  /** What is read but neither wired nor documented as defaulted; what is wired but not read (a misspelt name is silently ignored). */
  const wiringGaps = (container: any, read: readonly string[]) => {
    const wired = wiredIn(container);
    const defaulted = documentedDefaults();
    return {
      unwired: read.filter((name) => !wired.has(name) && !defaulted.has(name)),
      unread: [...wired].filter((name) => !read.includes(name)),
    };
  };

  it('wires every setting the server reads, or lists it in docs/operations.md as left at its default', () => {
    const read = [
      ...readConfig({}).variables,
      ...AVAILABLE_PLUGINS.flatMap((plugin) => Object.keys(plugin.settings ?? {}).map((name) => settingVariable(plugin.name, name))),
    ];
    expect(wiringGaps(apiContainer, read)).toEqual({ unwired: [], unread: [] });
  });

  it('wires every setting the mail worker reads, or lists it as left at its default', () => {
    const read = new Set<string>(['LOG_LEVEL']);
    // The names the worker's configuration reader asks for, recorded as it reads an empty environment.
    readMailWorkerConfig(
      new Proxy({} as Record<string, string | undefined>, {
        get: (_target, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      }),
    );
    expect(read.size).toBeGreaterThan(10);
    const worker = find('Deployment', 'mail-worker').spec.template.spec.containers[0];
    expect(wiringGaps(worker, [...read])).toEqual({ unwired: [], unread: [] });
  });

  it('rolls the API with no unavailable pod, drains it before SIGKILL, and probes it', () => {
    const settings = Object.assign({}, ...configMapsOf(apiContainer).map((configMap) => configMap.data)) as Record<string, string>;
    expect(api.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(api.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(settings.SHUTDOWN_GRACE_SECONDS));
    expect(settings.MIGRATE_ON_START).toBe('false');
    expect(apiContainer.readinessProbe.httpGet.path).toBe('/health');
    expect(apiContainer.livenessProbe.httpGet.path).toBe('/health/live');
    expect(apiContainer.startupProbe.httpGet.path).toBe('/health/live');
    expect(apiContainer.resources.requests).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
    expect(apiContainer.resources.limits.memory).toBeDefined();
    expect(api.spec.template.spec.affinity.podAntiAffinity).toBeDefined();
    expect(find('Job', 'pki-migrate').spec.template.spec.containers[0].args).toEqual(['migrate']);
    expect(find('Deployment', 'mail-worker').spec.template.spec.containers[0].args).toEqual(['mail-worker']);
  });

  it('lets CSR uploads as large as the server accepts through the ingress, over TLS', () => {
    const ingress = find('Ingress', 'pki');
    const settings = Object.assign({}, ...configMapsOf(apiContainer).map((configMap) => configMap.data)) as Record<string, string>;
    const limit = ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '';
    expect(limit).toMatch(/^\d+m$/);
    expect(parseInt(limit, 10) * 1024 * 1024).toBeGreaterThanOrEqual(Number(settings.MAX_BODY_SIZE));
    expect(ingress.spec.tls[0].hosts).toEqual([ingress.spec.rules[0].host]);
  });
});

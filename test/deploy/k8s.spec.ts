// Static checks of the Kubernetes manifests in deploy/k8s. No cluster runs on the development
// machines, so the manifests are parsed here (multi-document YAML), every object is validated
// against the Kubernetes OpenAPI schema of its kind with `kubernetes-models` (the KEDA ScaledObject,
// a CRD, against a small Ajv schema of the KEDA fields the manifest uses), and the behaviour the
// deployment relies on is asserted: non-root containers, probes on the right endpoints and ports,
// resources, grace periods that outlast a job, PDBs, Ingress routing, queue-depth autoscaling, a
// Secret template that holds placeholders only, network policies (default deny, then what each app
// needs, evaluated on addresses and ports), the gVisor runtime the project-code pods ask for, and
// the Localhost seccomp profile browser-worker's Chromium keeps its sandbox with (and its installer).
// `kubectl kustomize` also builds the kustomizations when kubectl is installed.
//
// Note: kubernetes-models checks types, formats (quantities, ports) and required fields; like the
// API server's non-strict mode it does not reject unknown fields, so the behaviour checks below
// read every field they rely on by its exact name.
import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { DaemonSet, Deployment, type IDaemonSet, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import {
  Ingress,
  NetworkPolicy,
  type IIngress,
  type INetworkPolicy,
  type INetworkPolicyPeer,
  type INetworkPolicyPort,
} from 'kubernetes-models/networking.k8s.io/v1';
import { RuntimeClass, type IRuntimeClass } from 'kubernetes-models/node.k8s.io/v1';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  ConfigMap,
  Namespace,
  PersistentVolumeClaim,
  Secret,
  Service,
  type IConfigMap,
  type IContainer,
  type IPersistentVolumeClaim,
  type IPodSpec,
  type ISecret,
  type IService,
} from 'kubernetes-models/v1';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { BlockList, isIPv6 } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { QueueName } from '../../libs/queue/src/queue-names.js';
import { exists, readCompose, readRepoFile, repoPath, serviceEnv } from './deploy-files.js';

// ------------------------------------------------------------------------------------------------
// Reading deploy/k8s
// ------------------------------------------------------------------------------------------------

const k8sDir = 'deploy/k8s';
const namespace = 'suite';
/** The namespace of the node-setup DaemonSet (node-seccomp/): privileged, nothing else runs there. */
const nodeSetupNamespace = 'suite-node-setup';
const nodeSeccompDir = `${k8sDir}/node-seccomp`;
/** browser-worker's Localhost seccomp profile, relative to the kubelet's seccomp folder. */
const browserWorkerProfile = 'profiles/browser-worker.json';
const secretTemplatePath = `${k8sDir}/secret.template.yaml`;
const secretName = 'suite-secrets';
const configMapName = 'suite-config';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [key: string]: unknown;
}

interface Manifest {
  file: string;
  object: K8sObject;
}

interface Kustomization {
  namespace?: string;
  resources?: string[];
  images?: { name: string; newTag?: string; newName?: string }[];
}

/** Every file under deploy/k8s, relative to the repository root. */
function listFiles(dir: string): string[] {
  return readdirSync(repoPath(dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
}

/** Every document of a multi-document YAML file; a file with a syntax error fails loudly. */
function readDocuments(file: string): unknown[] {
  return parseAllDocuments(readRepoFile(file)).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as unknown;
  });
}

const yamlFiles = listFiles(k8sDir).filter((f) => /\.ya?ml$/.test(f));
const kustomizationFiles = yamlFiles.filter((f) => /(^|\/)kustomization\.ya?ml$/.test(f));
const manifestFiles = yamlFiles.filter((f) => !kustomizationFiles.includes(f));
const kustomizations = new Map(kustomizationFiles.map((f) => [f, parse(readRepoFile(f)) as Kustomization]));
const kustomization = kustomizations.get(`${k8sDir}/kustomization.yaml`)!;

/** Every object of every manifest, the Secret template included. */
const manifests: Manifest[] = manifestFiles.flatMap((file) =>
  readDocuments(file)
    .filter((doc) => doc !== null && doc !== undefined)
    .map((object) => ({ file, object: object as K8sObject })),
);

const ofKind = <T>(kind: string): T[] =>
  manifests.filter((m) => m.object.kind === kind).map((m) => m.object as unknown as T);
const byName = <T extends { metadata?: { name?: string } }>(items: T[], name: string): T => {
  const found = items.find((item) => item.metadata?.name === name);
  if (!found) throw new Error(`no object named ${name}`);
  return found;
};

const deployments = ofKind<IDeployment>('Deployment');
const services = ofKind<IService>('Service');
const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');
const ingresses = ofKind<IIngress>('Ingress');
const jobs = ofKind<IJob>('Job');
const configMap = byName(ofKind<IConfigMap>('ConfigMap'), configMapName);
const secretTemplate = byName(ofKind<ISecret>('Secret'), secretName);

interface Workload {
  kind: string;
  name: string;
  pod: IPodSpec;
}
const workloads: Workload[] = [
  ...deployments.map((d) => ({ kind: 'Deployment', name: d.metadata!.name!, pod: d.spec!.template.spec! })),
  ...jobs.map((j) => ({ kind: 'Job', name: j.metadata!.name!, pod: j.spec!.template.spec! })),
];
/**
 * The seccomp profile of each workload: the runtime's default, but for browser-worker, whose
 * Chromium keeps its namespace sandbox under a Localhost profile (deploy/seccomp/browser-worker.json).
 */
const seccompProfileOf = (workload: string) =>
  workload === 'Deployment/browser-worker'
    ? { type: 'Localhost', localhostProfile: browserWorkerProfile }
    : { type: 'RuntimeDefault' };
const containersOf = (pod: IPodSpec): IContainer[] => [...(pod.initContainers ?? []), ...pod.containers];
const allContainers = workloads.flatMap((w) =>
  containersOf(w.pod).map((container) => ({ workload: `${w.kind}/${w.name}`, pod: w.pod, container })),
);

/** The app Deployments, the port their probes answer on and whether they take HTTP traffic. */
const apps = [
  { name: 'jobs-api', port: 8080, portEnv: 'PORT', http: true },
  { name: 'agent-gateway', port: 8081, portEnv: 'PORT', http: true },
  { name: 'project-host', port: 8082, portEnv: 'PORT', http: true },
  { name: 'browser-worker', port: 8083, portEnv: 'HEALTH_PORT', http: false },
  { name: 'project-worker', port: 8084, portEnv: 'HEALTH_PORT', http: false },
  { name: 'push-worker', port: 8085, portEnv: 'HEALTH_PORT', http: false },
] as const;
/** The Deployments that run project code (in bubblewrap, in gVisor). */
const projectCodeApps: readonly string[] = ['project-host', 'project-worker'];
const httpApps = apps.filter((a) => a.http);

const deployment = (name: string): IDeployment => byName(deployments, name);
const podOf = (name: string): IPodSpec => deployment(name).spec!.template.spec!;
const mainContainer = (name: string): IContainer => {
  const container = podOf(name).containers.find((c) => c.name === name);
  if (!container) throw new Error(`Deployment ${name} has no container named ${name}`);
  return container;
};
const envValue = (container: IContainer, name: string): string | undefined =>
  container.env?.find((e) => e.name === name)?.value;

/** Resolves a named or numbered container port to its number. */
function portNumber(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** Kubernetes quantities ("500m", "1", "1536Mi", "2Gi") as numbers of cores or bytes. */
function quantity(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(value);
  if (!match) return Number.NaN;
  const factors: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
  };
  return Number(match[1]) * (match[2] ? factors[match[2]]! : 1);
}

const schemaModels: Record<string, (object: K8sObject) => { validate(): void }> = {
  'v1/Namespace': (o) => new Namespace(o as never),
  'v1/ConfigMap': (o) => new ConfigMap(o as never),
  'v1/Secret': (o) => new Secret(o as never),
  'v1/Service': (o) => new Service(o as never),
  'v1/PersistentVolumeClaim': (o) => new PersistentVolumeClaim(o as never),
  'apps/v1/Deployment': (o) => new Deployment(o as never),
  'apps/v1/DaemonSet': (o) => new DaemonSet(o as never),
  'batch/v1/Job': (o) => new Job(o as never),
  'policy/v1/PodDisruptionBudget': (o) => new PodDisruptionBudget(o as never),
  'networking.k8s.io/v1/Ingress': (o) => new Ingress(o as never),
  'networking.k8s.io/v1/NetworkPolicy': (o) => new NetworkPolicy(o as never),
  'node.k8s.io/v1/RuntimeClass': (o) => new RuntimeClass(o as never),
};
/** Kinds that live outside any namespace. */
const clusterScoped = new Set(['Namespace', 'RuntimeClass']);
const keda = (m: Manifest): boolean => m.object.apiVersion.startsWith('keda.sh/');

/** The suite's namespace, but the node-setup one for the files of node-seccomp/. */
const namespaceOfFile = (file: string): string =>
  file.startsWith(`${nodeSeccompDir}/`) ? nodeSetupNamespace : namespace;

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
if (!hasKubectl) console.warn('NOTE: kubectl is not installed: the `kubectl kustomize` checks are skipped.');
const itWithKubectl = hasKubectl ? it : it.skip;

// ------------------------------------------------------------------------------------------------
// Files, kustomizations and schemas
// ------------------------------------------------------------------------------------------------

describe('deploy/k8s: files and kustomizations', () => {
  it('finds the manifests of every app, the migration and the autoscaler', () => {
    expect(deployments.map((d) => d.metadata!.name).sort()).toEqual(
      [...apps.map((a) => a.name), 'pgbouncer'].sort(),
    );
    expect(jobs.map((j) => j.metadata!.name)).toEqual(['suite-migrate']);
    expect(manifests.some((m) => m.object.kind === 'ScaledObject')).toBe(true);
  });

  it('every kustomization resource exists', () => {
    for (const [file, k] of kustomizations) {
      for (const resource of k.resources ?? []) {
        expect({ file, resource, exists: exists(join(dirname(file), resource)) }).toEqual({
          file,
          resource,
          exists: true,
        });
      }
    }
  });

  it('every manifest is listed in a kustomization, except the Secret template (so apply -k never overwrites the real Secret)', () => {
    const listed = new Set(
      [...kustomizations].flatMap(([file, k]) => (k.resources ?? []).map((r) => join(dirname(file), r))),
    );
    const unlisted = manifestFiles.filter((f) => !listed.has(f));
    expect(unlisted).toEqual([secretTemplatePath]);
  });

  it('the kustomizations and every namespaced manifest put the suite in one namespace', () => {
    for (const [file, k] of kustomizations) {
      // The gVisor RuntimeClass is cluster-scoped: its kustomization sets no namespace.
      if (file === `${k8sDir}/gvisor/kustomization.yaml`) expect(k.namespace).toBeUndefined();
      else expect({ file, namespace: k.namespace }).toEqual({ file, namespace: namespaceOfFile(file) });
    }
    for (const { file, object } of manifests) {
      if (object.kind === 'Namespace') expect(object.metadata.name).toBe(namespaceOfFile(file));
      if (clusterScoped.has(object.kind)) {
        expect({ file, kind: object.kind, namespace: object.metadata.namespace }).toEqual({
          file,
          kind: object.kind,
          namespace: undefined,
        });
      } else {
        expect({ file, kind: object.kind, namespace: object.metadata.namespace }).toMatchObject({
          namespace: namespaceOfFile(file),
        });
      }
    }
  });

  it('the migration Job is a pre-deploy step in its own kustomization, not part of apply -k deploy/k8s', () => {
    const migrate = kustomizations.get(`${k8sDir}/migrate/kustomization.yaml`);
    expect(migrate?.resources).toEqual(['migrate-job.yaml']);
    expect(kustomization.resources?.some((r) => r.includes('migrate'))).toBe(false);
  });

  it.each(
    manifests.filter((m) => !keda(m)).map((m) => [`${m.object.kind}/${m.object.metadata.name}`, m] as const),
  )('%s validates against the Kubernetes schema of its kind', (_name, { object }) => {
    const model = schemaModels[`${object.apiVersion}/${object.kind}`];
    expect(model).toBeDefined();
    expect(() => model!(object).validate()).not.toThrow();
  });

  it('the schema validation rejects a broken object (the validator is live)', () => {
    const broken = structuredClone(deployment('jobs-api')) as unknown as K8sObject & {
      spec: { template: { spec: { containers: { ports: { containerPort: unknown }[] }[] } } };
    };
    broken.spec.template.spec.containers[0]!.ports[0]!.containerPort = 'http';
    expect(() => schemaModels['apps/v1/Deployment']!(broken).validate()).toThrow(/containerPort/);
  });

  it('the KEDA ScaledObject matches the KEDA CRD fields it uses (keda.sh/v1alpha1, checked with Ajv)', () => {
    // A subset of the ScaledObject CRD (keda.sh/v1alpha1, KEDA 2.12+): the fields used here with
    // their types; unknown fields are rejected so a misspelt one cannot be silently ignored.
    const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
    const schema = {
      type: 'object',
      required: ['apiVersion', 'kind', 'metadata', 'spec'],
      properties: {
        apiVersion: { const: 'keda.sh/v1alpha1' },
        kind: { const: 'ScaledObject' },
        metadata: { type: 'object', required: ['name'] },
        spec: {
          type: 'object',
          additionalProperties: false,
          required: ['scaleTargetRef', 'triggers'],
          properties: {
            scaleTargetRef: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                name: { type: 'string' },
                envSourceContainerName: { type: 'string' },
              },
            },
            minReplicaCount: { type: 'integer', minimum: 0 },
            maxReplicaCount: { type: 'integer', minimum: 1 },
            idleReplicaCount: { type: 'integer', minimum: 0 },
            pollingInterval: { type: 'integer', minimum: 1 },
            cooldownPeriod: { type: 'integer', minimum: 0 },
            advanced: {
              type: 'object',
              additionalProperties: false,
              properties: {
                restoreToOriginalReplicaCount: { type: 'boolean' },
                scalingModifiers: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['formula', 'target'],
                  properties: {
                    formula: { type: 'string' },
                    target: { type: 'string' },
                    activationTarget: { type: 'string' },
                    metricType: { enum: ['AverageValue', 'Value'] },
                  },
                },
                horizontalPodAutoscalerConfig: {
                  type: 'object',
                  additionalProperties: false,
                  properties: { name: { type: 'string' }, behavior: { type: 'object' } },
                },
              },
            },
            triggers: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['type', 'metadata'],
                properties: {
                  type: { type: 'string' },
                  name: { type: 'string' },
                  metricType: { enum: ['AverageValue', 'Value', 'Utilization'] },
                  useCachedMetrics: { type: 'boolean' },
                  metadata: stringMap,
                  authenticationRef: {
                    type: 'object',
                    required: ['name'],
                    properties: { name: { type: 'string' }, kind: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    };
    const validate = new Ajv({ allErrors: true }).compile(schema);
    const scaledObjects = manifests.filter((m) => m.object.kind === 'ScaledObject');
    expect(scaledObjects).toHaveLength(1);
    for (const { object } of scaledObjects) {
      validate(object);
      expect(validate.errors ?? []).toEqual([]);
    }
    // The HPA behaviour KEDA passes on is a real autoscaling/v2 behavior.
    const spec = scaledObjects[0]!.object.spec as {
      advanced: { horizontalPodAutoscalerConfig: { behavior: unknown } };
    };
    const hpa = new HorizontalPodAutoscaler({
      metadata: { name: 'keda-behavior' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'browser-worker' },
        maxReplicas: 1,
        behavior: spec.advanced.horizontalPodAutoscalerConfig.behavior as never,
      },
    });
    expect(() => hpa.validate()).not.toThrow();
  });

  it('the HPA alternative shown in the ScaledObject comment is a valid autoscaling/v2 HPA on the same list', () => {
    const text = readRepoFile(`${k8sDir}/keda-scaledobject.yaml`);
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.startsWith('#   apiVersion: autoscaling/v2'));
    expect(start).toBeGreaterThanOrEqual(0);
    const block: string[] = [];
    for (const line of lines.slice(start)) {
      if (!line.startsWith('#   ')) break;
      block.push(line.slice(4));
    }
    const hpa = parse(block.join('\n')) as K8sObject & {
      spec: { scaleTargetRef: { name: string }; metrics: { external: { metric: { selector: unknown } } }[] };
    };
    expect(() => new HorizontalPodAutoscaler(hpa as never).validate()).not.toThrow();
    expect(hpa.spec.scaleTargetRef.name).toBe('browser-worker');
    expect(JSON.stringify(hpa.spec.metrics)).toContain('suite:browser-jobs:wait');
  });

  itWithKubectl(
    'kubectl kustomize builds the base, the migration, the RuntimeClass and the profile installer, with the pinned image tags',
    () => {
      for (const dir of [k8sDir, `${k8sDir}/migrate`, `${k8sDir}/gvisor`, nodeSeccompDir]) {
        const result = spawnSync('kubectl', ['kustomize', repoPath(dir)], { encoding: 'utf8' });
        expect({ dir, status: result.status, stderr: result.stderr }).toEqual({ dir, status: 0, stderr: '' });
        const built = parseAllDocuments(result.stdout).map((d) => d.toJS() as K8sObject);
        expect(built.length).toBeGreaterThan(0);
        for (const object of built) {
          if (clusterScoped.has(object.kind) && object.kind !== 'Namespace') {
            expect(object.metadata.namespace).toBeUndefined();
            continue;
          }
          const expected = namespaceOfFile(`${dir}/`);
          expect(
            object.metadata.namespace ?? (object.kind === 'Namespace' ? object.metadata.name : undefined),
          ).toBe(expected);
          const model = schemaModels[`${object.apiVersion}/${object.kind}`];
          if (model) expect(() => model(object).validate()).not.toThrow();
        }
        expect(built.some((o) => o.kind === 'Secret')).toBe(false);
        expect(result.stdout).not.toMatch(/image: \S+:latest\b/);
      }
    },
  );
});

// ------------------------------------------------------------------------------------------------
// Pod security
// ------------------------------------------------------------------------------------------------

describe('deploy/k8s: pod security', () => {
  it.each(allContainers.map((c) => [`${c.workload} ${c.container.name}`, c] as const))(
    '%s runs as uid 1000, non-root, no privilege escalation, all capabilities dropped, RuntimeDefault seccomp (browser-worker: its Localhost profile)',
    (_name, { workload, pod, container }) => {
      const sc = container.securityContext ?? {};
      const podSc = pod.securityContext ?? {};
      expect(sc.runAsNonRoot ?? podSc.runAsNonRoot).toBe(true);
      expect(sc.runAsUser ?? podSc.runAsUser).toBe(1000);
      expect(sc.allowPrivilegeEscalation).toBe(false);
      expect(sc.privileged ?? false).toBe(false);
      expect(sc.capabilities?.drop).toEqual(['ALL']);
      expect(sc.capabilities?.add ?? []).toEqual([]);
      expect(sc.seccompProfile ?? podSc.seccompProfile).toEqual(seccompProfileOf(workload));
      if (sc.seccompProfile && podSc.seccompProfile) expect(sc.seccompProfile).toEqual(podSc.seccompProfile);
    },
  );

  it.each(allContainers.map((c) => [`${c.workload} ${c.container.name}`, c] as const))(
    '%s has a read-only root filesystem and a writable /tmp emptyDir',
    (_name, { pod, container }) => {
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
      const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(tmp).toBeDefined();
      expect(pod.volumes?.find((v) => v.name === tmp!.name)?.emptyDir).toBeDefined();
    },
  );

  it.each(workloads.map((w) => [`${w.kind}/${w.name}`, w] as const))(
    '%s does not mount a service-account token (the apps never call the Kubernetes API)',
    (_name, { pod }) => {
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.hostNetwork ?? false).toBe(false);
      expect(pod.hostPID ?? false).toBe(false);
    },
  );

  it('the namespace enforces the restricted Pod Security Standard', () => {
    const ns = byName(ofKind<K8sObject>('Namespace'), namespace);
    expect(ns.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });
});

// ------------------------------------------------------------------------------------------------
// Images and resources
// ------------------------------------------------------------------------------------------------

describe('deploy/k8s: images and resources', () => {
  it.each(allContainers.map((c) => [`${c.workload} ${c.container.name}`, c] as const))(
    '%s uses a version-tagged image, never latest or untagged',
    (_name, { container }) => {
      const image = container.image ?? '';
      const tag = /^[^@]+:([^:/@]+)$/.exec(image)?.[1];
      expect({ image, tag }).toEqual({ image, tag: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    },
  );

  it('each app runs its own image target of deploy/Dockerfile', () => {
    for (const { name } of apps) expect(mainContainer(name).image).toMatch(new RegExp(`/suite-${name}:`));
    expect(jobs[0]!.spec!.template.spec!.containers[0]!.image).toMatch(/\/suite-migrate:/);
  });

  it('the kustomization image overrides name real images and pin version tags', () => {
    const images = new Set(allContainers.map((c) => (c.container.image ?? '').replace(/:[^:/]+$/, '')));
    for (const k of kustomizations.values()) {
      for (const image of k.images ?? []) {
        expect(images.has(image.name)).toBe(true);
        expect(image.newTag).toMatch(/^\d+\.\d+\.\d+/);
      }
    }
  });

  it.each(allContainers.map((c) => [`${c.workload} ${c.container.name}`, c] as const))(
    '%s requests and limits CPU and memory, requests no higher than limits',
    (_name, { container }) => {
      const { requests = {}, limits = {} } = container.resources ?? {};
      for (const resource of ['cpu', 'memory']) {
        const request = quantity(requests[resource] as string | number | undefined);
        const limit = quantity(limits[resource] as string | number | undefined);
        expect({ resource, request: request > 0, limit: limit > 0 }).toEqual({
          resource,
          request: true,
          limit: true,
        });
        expect(request).toBeLessThanOrEqual(limit);
      }
    },
  );

  it('the worker runs one job per pod (WORKER_CONCURRENCY=1) with at least 1 CPU and 1.5 GiB requested for Chromium', () => {
    expect(configMap.data?.WORKER_CONCURRENCY).toBe('1');
    const worker = mainContainer('browser-worker');
    expect(envValue(worker, 'WORKER_CONCURRENCY')).toBeUndefined(); // the ConfigMap's value applies
    expect(quantity(worker.resources?.requests?.cpu as string)).toBeGreaterThanOrEqual(1);
    expect(quantity(worker.resources?.requests?.memory as string)).toBeGreaterThanOrEqual(1.5 * 2 ** 30);
  });

  it("Chromium gets a memory-backed /dev/shm larger than Docker's 64 MiB, and the memory limit leaves room for it", () => {
    const pod = podOf('browser-worker');
    const worker = mainContainer('browser-worker');
    const mount = worker.volumeMounts?.find((m) => m.mountPath === '/dev/shm');
    const shm = pod.volumes?.find((v) => v.name === mount?.name)?.emptyDir;
    expect(shm?.medium).toBe('Memory');
    const shmBytes = quantity(shm?.sizeLimit as string);
    expect(shmBytes).toBeGreaterThan(64 * 2 ** 20);
    // Memory-backed emptyDir pages count against the container's memory limit.
    const limit = quantity(worker.resources?.limits?.memory as string);
    const request = quantity(worker.resources?.requests?.memory as string);
    expect(limit).toBeGreaterThanOrEqual(request + shmBytes * 0.5);
  });
});

// ------------------------------------------------------------------------------------------------
// Probes, ports and termination
// ------------------------------------------------------------------------------------------------

describe('deploy/k8s: probes and termination', () => {
  it.each(apps.map((a) => [a.name, a] as const))(
    '%s: liveness on /health, readiness on /health/ready and a startup probe, on the port the app listens on',
    (name, { port, portEnv }) => {
      const container = mainContainer(name);
      expect(envValue(container, portEnv)).toBe(String(port));
      const probes = {
        liveness: container.livenessProbe?.httpGet,
        readiness: container.readinessProbe?.httpGet,
        startup: container.startupProbe?.httpGet,
      };
      expect(probes.liveness?.path).toBe('/health');
      expect(probes.readiness?.path).toBe('/health/ready');
      expect(probes.startup?.path).toBe('/health');
      for (const probe of Object.values(probes)) expect(portNumber(container, probe?.port)).toBe(port);
      // Liveness must not restart a pod that is merely waiting for Postgres/Redis.
      expect(container.livenessProbe?.httpGet?.path).not.toBe('/health/ready');
      // The startup probe gives the app time to boot before liveness may kill it.
      const startup = container.startupProbe!;
      expect((startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3)).toBeGreaterThanOrEqual(30);
    },
  );

  it.each(apps.map((a) => [a.name, a] as const))(
    '%s: pods ask Prometheus to scrape /metrics on the port the app listens on, which the container declares',
    (name, { port }) => {
      const annotations = deployment(name).spec!.template.metadata?.annotations ?? {};
      expect(annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
      expect(mainContainer(name).ports?.map((p) => p.containerPort)).toContain(port);
      expect(envValue(mainContainer(name), 'METRICS_ENABLED')).not.toBe('false');
    },
  );

  it("the worker's grace period outlasts the longest job (JOB_TIMEOUT_MS, 5 minutes) so SIGTERM drains instead of killing it", () => {
    const jobTimeoutSeconds = Number(configMap.data?.JOB_TIMEOUT_MS) / 1000;
    expect(jobTimeoutSeconds).toBe(300);
    const grace = podOf('browser-worker').terminationGracePeriodSeconds ?? 30;
    expect(grace).toBeGreaterThan(300);
    expect(grace).toBeGreaterThanOrEqual(jobTimeoutSeconds + 30);
  });

  it.each(httpApps.map((a) => [a.name] as const))(
    '%s sleeps in preStop so endpoints drain before SIGTERM, within its grace period',
    (name) => {
      const preStop = mainContainer(name).lifecycle?.preStop;
      const seconds =
        preStop?.sleep?.seconds ?? Number(preStop?.exec?.command?.join(' ').match(/^sleep (\d+)$/)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(5);
      const grace = podOf(name).terminationGracePeriodSeconds ?? 30;
      expect(grace).toBeGreaterThanOrEqual(seconds + 20);
    },
  );

  it.each(httpApps.map((a) => [a.name] as const))(
    '%s rolls out without dropping below its replica count',
    (name) => {
      const spec = deployment(name).spec!;
      expect(spec.replicas).toBeGreaterThanOrEqual(2);
      expect(spec.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    },
  );
});

// ------------------------------------------------------------------------------------------------
// Availability: PDBs, spreading, Services
// ------------------------------------------------------------------------------------------------

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

describe('deploy/k8s: availability', () => {
  it.each(apps.map((a) => [a.name] as const))(
    '%s has a PodDisruptionBudget that selects its pods and still lets a node drain',
    (name) => {
      const labels = deployment(name).spec!.template.metadata!.labels;
      const matching = pdbs.filter((p) => selects(p.spec?.selector?.matchLabels, labels));
      expect(matching).toHaveLength(1);
      const spec = matching[0]!.spec!;
      // minAvailable equal to the replica count (or 100%) would block every eviction.
      if (spec.minAvailable !== undefined) {
        expect(Number(spec.minAvailable)).toBeLessThan(deployment(name).spec!.replicas ?? 1);
      } else {
        expect(spec.maxUnavailable).toBeDefined();
        expect(String(spec.maxUnavailable)).not.toMatch(/^0%?$/);
      }
    },
  );

  it.each(apps.map((a) => [a.name] as const))('%s spreads its replicas over nodes', (name) => {
    const pod = podOf(name);
    const labels = deployment(name).spec!.template.metadata!.labels;
    const spread = (pod.topologySpreadConstraints ?? []).filter((c) =>
      selects(c.labelSelector?.matchLabels, labels),
    );
    const antiAffinity = pod.affinity?.podAntiAffinity;
    expect(spread.some((c) => c.topologyKey === 'kubernetes.io/hostname') || antiAffinity !== undefined).toBe(
      true,
    );
  });

  it.each(apps.map((a) => [a.name] as const))("%s's Deployment selector matches its pod labels", (name) => {
    const spec = deployment(name).spec!;
    expect(selects(spec.selector.matchLabels, spec.template.metadata?.labels)).toBe(true);
  });

  it.each(apps.map((a) => [a.name, a] as const))(
    '%s has a Service that selects its pods and targets its container port',
    (name, { port }) => {
      const service = byName(services, name);
      expect(selects(service.spec?.selector, deployment(name).spec!.template.metadata!.labels)).toBe(true);
      const container = mainContainer(name);
      for (const p of service.spec?.ports ?? [])
        expect(portNumber(container, p.targetPort as number | string)).toBe(port);
    },
  );

  it('the artifacts volume is a ReadWriteMany claim mounted at ARTIFACTS_DIR by jobs-api, agent-gateway and the worker', () => {
    const dir = configMap.data?.ARTIFACTS_DIR;
    expect(dir).toBe('/data/artifacts');
    const claims = ofKind<IPersistentVolumeClaim>('PersistentVolumeClaim');
    for (const name of ['jobs-api', 'agent-gateway', 'browser-worker']) {
      const mount = mainContainer(name).volumeMounts?.find((m) => m.mountPath === dir);
      expect(mount?.readOnly ?? false).toBe(false);
      const claimName = podOf(name).volumes?.find((v) => v.name === mount?.name)?.persistentVolumeClaim
        ?.claimName;
      expect(claimName).toBeDefined();
      expect(byName(claims, claimName!).spec?.accessModes).toEqual(['ReadWriteMany']);
    }
  });

  it('the migration Job runs once with a deadline and never restarts in place', () => {
    const job = jobs[0]!;
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    expect(job.spec?.backoffLimit).toBeLessThanOrEqual(3);
    expect(job.spec?.activeDeadlineSeconds).toBeGreaterThan(0);
    const env = job.spec!.template.spec!.containers[0]!.env ?? [];
    expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe(secretName);
  });
});

// ------------------------------------------------------------------------------------------------
// Ingress
// ------------------------------------------------------------------------------------------------

interface Route {
  service: string;
  port: string | number | undefined;
}

/** The backend an Ingress sends `host` + `path` to, with the Kubernetes matching rules. */
function route(host: string, path: string): Route | undefined {
  const hostMatches = (ruleHost: string | undefined) =>
    ruleHost === undefined ||
    ruleHost === host ||
    (ruleHost.startsWith('*.') &&
      host.endsWith(ruleHost.slice(1)) &&
      !host.slice(0, -ruleHost.length + 1).includes('.'));
  const candidates = ingresses.flatMap((ing) =>
    (ing.spec?.rules ?? [])
      .filter((rule) => hostMatches(rule.host))
      .flatMap((rule) => (rule.http?.paths ?? []).map((p) => ({ ...p, exactHost: rule.host === host }))),
  );
  const matches = candidates.filter((p) => {
    const rulePath = p.path ?? '/';
    if (p.pathType === 'Exact') return path === rulePath;
    const prefix = rulePath.replace(/\/$/, '');
    return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
  });
  // Exact host before wildcard, then the longest path, then Exact before Prefix.
  matches.sort(
    (a, b) =>
      Number(b.exactHost) - Number(a.exactHost) ||
      (b.path ?? '/').length - (a.path ?? '/').length ||
      Number(b.pathType === 'Exact') - Number(a.pathType === 'Exact'),
  );
  const best = matches[0]?.backend.service;
  return best ? { service: best.name, port: best.port?.name ?? best.port?.number } : undefined;
}

const hostOf = (url: string | undefined): string => new URL(url ?? 'http://unset.invalid').hostname;
const runnerHost = hostOf(configMap.data?.PUBLIC_RUNNER_URL);
const controlPlaneHost = hostOf(configMap.data?.PUBLIC_URL);
const projectDomain = configMap.data?.PROJECT_HOST_DOMAIN ?? '';

describe('deploy/k8s: ingress', () => {
  it('there is one Ingress', () => {
    expect(ingresses).toHaveLength(1);
  });

  it.each(['/a2a', '/a2a/tasks', '/mcp', '/mcp/sse', '/.well-known/agent-card.json'])(
    'the runner origin routes %s to agent-gateway',
    (path) => {
      expect(route(runnerHost, path)?.service).toBe('agent-gateway');
    },
  );

  it.each([
    '/',
    '/docs',
    '/docs/index.html',
    '/openapi.json',
    '/health',
    '/health/ready',
    '/v1',
    '/v1/jobs/abc/events',
    '/a2aa',
    '/mcpx',
  ])('the runner origin routes %s to jobs-api', (path) => {
    expect(route(runnerHost, path)?.service).toBe('jobs-api');
  });

  it('the control-plane host and every project host (wildcard under PROJECT_HOST_DOMAIN) route to project-host', () => {
    expect(route(controlPlaneHost, '/')?.service).toBe('project-host');
    expect(route(controlPlaneHost, '/v1/projects')?.service).toBe('project-host');
    expect(route(`my-project.${projectDomain}`, '/api/user/login')?.service).toBe('project-host');
    expect(projectDomain).not.toBe('localhost');
  });

  it('every Ingress backend names an existing Service and one of its ports', () => {
    for (const ing of ingresses) {
      for (const rule of ing.spec?.rules ?? []) {
        for (const p of rule.http?.paths ?? []) {
          const backend = p.backend.service!;
          const service = byName(services, backend.name);
          const ports = service.spec?.ports ?? [];
          expect(ports.some((sp) => sp.name === backend.port?.name || sp.port === backend.port?.number)).toBe(
            true,
          );
        }
      }
    }
  });

  it('every Ingress host is covered by a TLS entry', () => {
    for (const ing of ingresses) {
      const tlsHosts = (ing.spec?.tls ?? []).flatMap((t) => t.hosts ?? []);
      for (const rule of ing.spec?.rules ?? []) expect(tlsHosts).toContain(rule.host);
    }
  });

  it('streams (SSE) pass through: nginx proxy buffering off and timeouts beyond the 5-minute job limit', () => {
    const annotations = ingresses[0]!.metadata?.annotations ?? {};
    expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(300);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThan(300);
  });

  it('jobs-api does not also proxy to the gateway (the Ingress routes those paths)', () => {
    const names = (mainContainer('jobs-api').env ?? []).map((e) => e.name);
    expect(names).not.toContain('GATEWAY_URL');
    expect(configMap.data?.GATEWAY_URL).toBeUndefined();
  });
});

// ------------------------------------------------------------------------------------------------
// Autoscaling
// ------------------------------------------------------------------------------------------------

interface ScaledObjectSpec {
  scaleTargetRef: { apiVersion?: string; kind?: string; name: string };
  minReplicaCount?: number;
  maxReplicaCount?: number;
  advanced?: { scalingModifiers?: { formula: string; target: string } };
  triggers: { type: string; name?: string; metadata: Record<string, string> }[];
}
const scaledObject = manifests.find((m) => m.object.kind === 'ScaledObject')?.object as
  (K8sObject & { spec: ScaledObjectSpec }) | undefined;

describe('deploy/k8s: worker autoscaling', () => {
  // BullMQ keys: `<prefix>:<queue>:wait`, prefix REDIS_PREFIX (default `suite`, libs/queue).
  const waitList = `suite:${QueueName.BrowserJobs}:wait`;

  it('the ScaledObject targets the browser-worker Deployment', () => {
    const target = scaledObject!.spec.scaleTargetRef;
    expect(target.name).toBe('browser-worker');
    expect(target.kind ?? 'Deployment').toBe('Deployment');
    expect(deployment(target.name)).toBeDefined();
  });

  it('the ScaledObject scales on the BullMQ wait list of the browser-jobs queue', () => {
    expect(waitList).toBe('suite:browser-jobs:wait');
    const lists = scaledObject!.spec.triggers
      .filter((t) => t.type === 'redis')
      .map((t) => t.metadata.listName);
    expect(lists).toContain(waitList);
    for (const trigger of scaledObject!.spec.triggers) {
      expect(Number(trigger.metadata.listLength)).toBeGreaterThanOrEqual(1);
    }
  });

  it('replicas follow waiting plus running jobs, so busy workers are not scaled away when the wait list empties', () => {
    const triggers = scaledObject!.spec.triggers;
    const active = triggers.find((t) => t.metadata.listName === `suite:${QueueName.BrowserJobs}:active`);
    const wait = triggers.find((t) => t.metadata.listName === waitList);
    const formula = scaledObject!.spec.advanced?.scalingModifiers?.formula ?? '';
    expect(formula.replace(/\s+/g, '')).toMatch(
      new RegExp(`^(${wait?.name}\\+${active?.name}|${active?.name}\\+${wait?.name})$`),
    );
    expect(scaledObject!.spec.minReplicaCount).toBeGreaterThanOrEqual(0);
    expect(scaledObject!.spec.maxReplicaCount).toBeGreaterThan(scaledObject!.spec.minReplicaCount ?? 0);
  });

  it("the scaler's Redis address and password come from env the worker container defines, with TLS matching REDIS_URL", () => {
    const worker = mainContainer('browser-worker');
    const names = new Set((worker.env ?? []).map((e) => e.name));
    const tls = (secretTemplate.stringData?.REDIS_URL ?? '').startsWith('rediss://');
    for (const { metadata } of scaledObject!.spec.triggers) {
      for (const key of [
        'addressFromEnv',
        'passwordFromEnv',
        'hostFromEnv',
        'portFromEnv',
        'usernameFromEnv',
      ]) {
        if (metadata[key]) expect(names.has(metadata[key])).toBe(true);
      }
      expect(metadata.addressFromEnv ?? metadata.address ?? metadata.hostFromEnv).toBeDefined();
      expect(metadata.enableTLS).toBe(String(tls));
    }
  });
});

// ------------------------------------------------------------------------------------------------
// Secrets and configuration
// ------------------------------------------------------------------------------------------------

interface SecretRef {
  workload: string;
  env: string;
  name: string;
  key: string;
  optional: boolean;
}
const secretRefs: SecretRef[] = allContainers.flatMap(({ workload, container }) =>
  (container.env ?? []).flatMap((e) => {
    const ref = e.valueFrom?.secretKeyRef;
    return ref
      ? [{ workload, env: e.name, name: ref.name ?? '', key: ref.key, optional: ref.optional ?? false }]
      : [];
  }),
);

/** The env names a container gets: `env` plus the keys of every ConfigMap/Secret in `envFrom`. */
function envNames(container: IContainer): Set<string> {
  const names = new Set((container.env ?? []).map((e) => e.name));
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef?.name === configMapName)
      for (const key of Object.keys(configMap.data ?? {})) names.add(key);
    if (from.secretRef?.name === secretName)
      for (const key of Object.keys(secretTemplate.stringData ?? {})) names.add(key);
  }
  return names;
}

describe('deploy/k8s: PgBouncer between the apps and Postgres', () => {
  const ini = byName(ofKind<IConfigMap>('ConfigMap'), 'pgbouncer').data?.['pgbouncer.ini'] ?? '';
  const setting = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*(.+)$`, 'm').exec(ini)?.[1]?.trim();
  const secretEnv = (container: IContainer, name: string) =>
    container.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef?.key;

  it('pools in transaction mode on 6432, behind a Service, with PgBouncer 1.21 or later', () => {
    expect(setting('pool_mode')).toBe('transaction');
    expect(setting('listen_port')).toBe('6432');
    expect(setting('auth_file')).toBe('/etc/pgbouncer-auth/userlist.txt');
    const container = podOf('pgbouncer').containers[0]!;
    expect(container.image).toMatch(/pgbouncer:1\.(2[1-9]|[3-9]\d)\.\d+$/);
    const auth = podOf('pgbouncer').volumes?.find((v) => v.name === 'auth')?.secret;
    expect(auth?.items).toEqual([{ key: 'PGBOUNCER_USERLIST', path: 'userlist.txt' }]);
    expect(secretTemplate.stringData?.PGBOUNCER_USERLIST).toContain('REPLACE_ME');
    expect(byName(services, 'pgbouncer').spec?.ports?.[0]?.port).toBe(6432);
  });

  it('the apps name it in DATABASE_URL with DATABASE_POOLER=pgbouncer, and keep a direct URL; the migration goes direct', () => {
    expect(configMap.data?.DATABASE_POOLER).toBe('pgbouncer');
    expect(new URL(secretTemplate.stringData!.DATABASE_URL!).host).toBe('pgbouncer:6432');
    expect(new URL(secretTemplate.stringData!.DIRECT_DATABASE_URL!).port).toBe('5432');
    for (const { name } of apps) {
      expect({ name, url: secretEnv(mainContainer(name), 'DATABASE_URL') }).toEqual({
        name,
        url: 'DATABASE_URL',
      });
      expect({ name, direct: secretEnv(mainContainer(name), 'DIRECT_DATABASE_URL') }).toEqual({
        name,
        direct: 'DIRECT_DATABASE_URL',
      });
    }
    expect(secretEnv(jobs[0]!.spec!.template.spec!.containers[0]!, 'DATABASE_URL')).toBe(
      'DIRECT_DATABASE_URL',
    );
  });

  it('only the apps may connect to it, and it reaches Postgres alone', () => {
    const labels = deployment('pgbouncer').spec!.template.metadata!.labels!;
    const policies = networkPolicies.filter((p) =>
      labelSelectorMatches(p.spec?.podSelector as LabelSelector, labels),
    );
    const from = policies.flatMap((p) =>
      (p.spec?.ingress ?? []).flatMap((rule) =>
        (rule.from ?? []).map((peer) => ({
          ports: (rule.ports ?? []).map((port) => port.port),
          apps: (peer.podSelector as LabelSelector | undefined)?.matchExpressions?.[0]?.values ?? [],
        })),
      ),
    );
    expect(from).toEqual([{ ports: [6432], apps: expect.arrayContaining(apps.map((a) => a.name)) }]);
    expect(from[0]!.apps).toHaveLength(apps.length);
    const egress = policies.flatMap((p) => p.spec?.egress ?? []);
    const ipBlocks = egress.flatMap((rule) =>
      (rule.to ?? []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock.cidr] : [])),
    );
    expect(ipBlocks).toEqual([byName(networkPolicies, 'postgres').spec!.egress![0]!.to![0]!.ipBlock!.cidr]);
    for (const { name } of apps) {
      const toPooler = networkPolicies.some(
        (p) =>
          labelSelectorMatches(p.spec?.podSelector as LabelSelector, podLabels[name]!) &&
          (p.spec?.egress ?? []).some(
            (rule) =>
              portMatches(rule.ports, 6432) &&
              (rule.to ?? []).some((peer) => labelSelectorMatches(peer.podSelector as LabelSelector, labels)),
          ),
      );
      expect({ name, toPooler }).toEqual({ name, toPooler: true });
    }
  });
});

describe('deploy/k8s: secrets and configuration', () => {
  const values = Object.entries(secretTemplate.stringData ?? {});

  it('the Secret template holds placeholders only: every value is REPLACE_ME… or empty, and no data block', () => {
    expect(secretTemplate.data).toBeUndefined();
    expect(values.length).toBeGreaterThan(0);
    for (const [key, value] of values) {
      expect({ key, placeholder: value === '' || value.includes('REPLACE_ME') }).toEqual({
        key,
        placeholder: true,
      });
    }
    expect(readRepoFile(secretTemplatePath)).toMatch(/TEMPLATE ONLY/);
  });

  it('the Secret template carries no credential-looking value (hex/base64 tokens, passwords in URLs)', () => {
    for (const [key, value] of values) {
      const stripped = value.replace(/REPLACE_ME[A-Za-z0-9_]*/g, '');
      expect({ key, token: /[A-Za-z0-9+/=_-]{20,}/.test(stripped) }).toEqual({ key, token: false });
      const url = /^[a-z]+s?:\/\/([^@/]*)@/.exec(value);
      if (url)
        expect({
          key,
          userinfo: url[1]!
            .split(':')
            .every((p) => p === '' || p === 'default' || p.startsWith('REPLACE_ME')),
        }).toEqual({ key, userinfo: true });
    }
  });

  it('every env value taken from a Secret names suite-secrets and a key its template defines', () => {
    expect(secretRefs.length).toBeGreaterThan(0);
    const keys = new Set(values.map(([key]) => key));
    for (const ref of secretRefs) {
      expect({ ...ref, nameOk: ref.name === secretName, keyOk: keys.has(ref.key) }).toMatchObject({
        nameOk: true,
        keyOk: true,
      });
    }
  });

  it('references to empty (optional) template keys are optional, references to required ones are not', () => {
    const template = secretTemplate.stringData ?? {};
    for (const ref of secretRefs) {
      expect({ workload: ref.workload, key: ref.key, optional: ref.optional }).toEqual({
        workload: ref.workload,
        key: ref.key,
        optional: template[ref.key] === '',
      });
    }
  });

  it('the required secrets reach the apps that need them', () => {
    const needs: Record<string, string[]> = {
      'jobs-api': ['API_KEYS', 'DATABASE_URL', 'REDIS_URL'],
      'agent-gateway': ['API_KEYS', 'DATABASE_URL', 'REDIS_URL'],
      'project-host': ['PLATFORM_ADMIN_TOKEN', 'AUTH_SECRET', 'DATABASE_URL', 'REDIS_URL'],
      'browser-worker': ['DATABASE_URL', 'REDIS_URL'],
      'project-worker': ['PLATFORM_ADMIN_TOKEN', 'AUTH_SECRET', 'DATABASE_URL', 'REDIS_URL'],
      'push-worker': ['DATABASE_URL', 'REDIS_URL'],
    };
    for (const [app, keys] of Object.entries(needs)) {
      const fromSecret = secretRefs
        .filter((r) => r.workload === `Deployment/${app}` && !r.optional)
        .map((r) => r.env);
      expect({ app, keys: keys.filter((k) => !fromSecret.includes(k)) }).toEqual({ app, keys: [] });
    }
  });

  it('no secret value is written into a manifest or the ConfigMap', () => {
    const secretKeys = [
      'API_KEYS',
      'PLATFORM_ADMIN_TOKEN',
      'AUTH_SECRET',
      'DATABASE_URL',
      'REDIS_URL',
      'REDIS_PASSWORD',
    ];
    for (const key of secretKeys) expect(configMap.data?.[key]).toBeUndefined();
    for (const { workload, container } of allContainers) {
      for (const e of container.env ?? []) {
        expect({
          workload,
          env: e.name,
          literal: secretKeys.includes(e.name) && e.value !== undefined,
        }).toMatchObject({
          literal: false,
        });
      }
    }
  });

  it('ConfigMap references name the suite ConfigMap', () => {
    for (const { container } of allContainers) {
      for (const from of container.envFrom ?? [])
        if (from.configMapRef) expect(from.configMapRef.name).toBe(configMapName);
      for (const e of container.env ?? []) {
        if (e.valueFrom?.configMapKeyRef) expect(e.valueFrom.configMapKeyRef.name).toBe(configMapName);
      }
    }
  });

  it.each(apps.map((a) => [a.name] as const))(
    '%s gets every variable docker-compose gives it (except what the Ingress or unset optional values replace)',
    (name) => {
      // Compose values that stay unset in Kubernetes: GATEWAY_URL (the Ingress routes /a2a, /mcp),
      // and optional integrations an operator adds when used.
      const notInK8s = new Set([
        'GATEWAY_URL',
        'OPENAI_BASE_URL',
        'ANTHROPIC_BASE_URL',
        'HOSTED_BROWSER_WS_URL',
        'IDP_CLIENT_ID',
        'IDP_ISSUER_URL',
        // Webhook egress exceptions: unset (public-only, the system resolver) unless an operator adds them.
        'PUSH_ALLOWED_HOSTS',
        'PUSH_DNS_SERVERS',
      ]);
      const composeNames = Object.keys(serviceEnv(readCompose().services[name]!)).filter(
        (n) => !notInK8s.has(n),
      );
      const k8sNames = envNames(mainContainer(name));
      expect({ name, missing: composeNames.filter((n) => !k8sNames.has(n)) }).toEqual({ name, missing: [] });
    },
  );
});

// ------------------------------------------------------------------------------------------------
// Project code: gVisor for the pods that run it, and no way around the OS sandbox
// ------------------------------------------------------------------------------------------------

const runtimeClasses = ofKind<IRuntimeClass>('RuntimeClass');

describe('deploy/k8s: project code runs in bubblewrap inside gVisor, never unsandboxed', () => {
  it('project-host and project-worker pods ask for the gvisor RuntimeClass, which the repo ships (runsc handler, gVisor nodes only)', () => {
    for (const name of projectCodeApps) expect(podOf(name).runtimeClassName).toBe('gvisor');
    const gvisor = byName(runtimeClasses, 'gvisor');
    expect(gvisor.handler).toBe('runsc');
    // Scheduled only where runsc is installed: a pod never lands on a node that cannot run it.
    expect(Object.keys(gvisor.scheduling?.nodeSelector ?? {}).length).toBeGreaterThan(0);
    for (const toleration of gvisor.scheduling?.tolerations ?? []) {
      expect(gvisor.scheduling?.nodeSelector?.[toleration.key ?? '']).toBe(toleration.value);
    }
    // Its own kustomization (cluster-scoped, and GKE Sandbox already has one): never in the base.
    expect(kustomizations.get(`${k8sDir}/gvisor/kustomization.yaml`)?.resources).toEqual([
      'runtimeclass.yaml',
    ]);
    expect(kustomization.resources?.some((r) => r.includes('gvisor'))).toBe(false);
  });

  it('only project-host and project-worker run project code, so the other workloads keep the default runtime', () => {
    for (const w of workloads) {
      const expected = projectCodeApps.includes(w.name) ? 'gvisor' : undefined;
      expect({ workload: w.name, runtimeClassName: w.pod.runtimeClassName }).toEqual({
        workload: w.name,
        runtimeClassName: expected,
      });
    }
  });

  it('no pod loosens its confinement to make room for a sandbox (no Unconfined profile, Localhost only for browser-worker, no unmasked /proc, no host namespaces)', () => {
    for (const { workload, pod, container } of allContainers) {
      const profiles = [pod.securityContext?.seccompProfile, container.securityContext?.seccompProfile];
      for (const profile of profiles) {
        if (profile)
          expect({ workload, seccomp: profile }).toEqual({ workload, seccomp: seccompProfileOf(workload) });
      }
      const appArmor = [pod.securityContext?.appArmorProfile, container.securityContext?.appArmorProfile];
      for (const profile of appArmor) {
        if (profile)
          expect({ workload, appArmor: profile.type }).toEqual({ workload, appArmor: 'RuntimeDefault' });
      }
      expect({ workload, procMount: container.securityContext?.procMount ?? 'Default' }).toEqual({
        workload,
        procMount: 'Default',
      });
      expect(pod.hostIPC ?? false).toBe(false);
      expect(pod.hostUsers ?? true).toBe(true);
    }
  });

  it('nothing selects the unsandboxed process mode; project-host states bubblewrap explicitly', () => {
    expect(configMap.data?.PROJECT_CODE_SANDBOX).toBeUndefined();
    for (const { workload, container } of allContainers) {
      expect({ workload, mode: envValue(container, 'PROJECT_CODE_SANDBOX') ?? 'unset' }).not.toEqual({
        workload,
        mode: 'process',
      });
    }
    expect(envValue(mainContainer('project-host'), 'PROJECT_CODE_SANDBOX')).toBe('bubblewrap');
    for (const file of manifestFiles)
      expect(readRepoFile(file)).not.toMatch(/PROJECT_CODE_SANDBOX\W+process\b/);
  });

  it('job browsers are public-only in the ConfigMap every app reads', () => {
    expect(configMap.data?.BROWSER_NETWORK_POLICY).toBe('public-only');
    expect(envValue(mainContainer('browser-worker'), 'BROWSER_NETWORK_POLICY')).toBeUndefined();
    expect((mainContainer('browser-worker').envFrom ?? []).map((f) => f.configMapRef?.name)).toContain(
      configMapName,
    );
  });
});

// ------------------------------------------------------------------------------------------------
// Chromium's sandbox: browser-worker's Localhost seccomp profile and the DaemonSet that installs it
// ------------------------------------------------------------------------------------------------

const nodeSetup = manifests.filter((m) => m.file.startsWith(`${nodeSeccompDir}/`)).map((m) => m.object);
const installer = byName(ofKind<IDaemonSet>('DaemonSet'), 'seccomp-profiles');
const installerPod = installer.spec!.template.spec!;
const kubeletProfiles = '/var/lib/kubelet/seccomp/profiles';

describe("deploy/k8s: browser-worker keeps Chromium's sandbox under a Localhost profile the repo installs", () => {
  it('browser-worker asks for profiles/browser-worker.json at pod and container level, and no other workload does', () => {
    const pod = podOf('browser-worker');
    const expected = { type: 'Localhost', localhostProfile: browserWorkerProfile };
    expect(pod.securityContext?.seccompProfile).toEqual(expected);
    expect(mainContainer('browser-worker').securityContext?.seccompProfile).toEqual(expected);
    for (const { workload, pod: other, container } of allContainers) {
      if (workload === 'Deployment/browser-worker') continue;
      for (const profile of [
        other.securityContext?.seccompProfile,
        container.securityContext?.seccompProfile,
      ])
        expect({ workload, type: profile?.type ?? 'RuntimeDefault' }).toEqual({
          workload,
          type: 'RuntimeDefault',
        });
    }
  });

  it('nothing turns the browser sandbox off: no CHROMIUM_SANDBOX=off, no --no-sandbox, and the worker runs as uid 1000', () => {
    expect(configMap.data?.CHROMIUM_SANDBOX ?? 'auto').toBe('auto');
    for (const { workload, container } of allContainers)
      expect({ workload, sandbox: envValue(container, 'CHROMIUM_SANDBOX') ?? 'auto' }).toEqual({
        workload,
        sandbox: 'auto',
      });
    for (const file of manifestFiles) {
      expect({ file, off: /CHROMIUM_SANDBOX\W+off\b/.test(readRepoFile(file)) }).toEqual({
        file,
        off: false,
      });
      expect({ file, noSandbox: /^[^#]*--no-sandbox/m.test(readRepoFile(file)) }).toEqual({
        file,
        noSandbox: false,
      });
    }
    const worker = mainContainer('browser-worker');
    expect(worker.securityContext?.runAsUser ?? podOf('browser-worker').securityContext?.runAsUser).toBe(
      1000,
    );
  });

  it('node-seccomp/ installs exactly deploy/seccomp/browser-worker.json (a byte-for-byte copy), in its own kustomization', () => {
    const k = parse(readRepoFile(`${nodeSeccompDir}/kustomization.yaml`)) as Kustomization & {
      configMapGenerator?: { name: string; files: string[] }[];
    };
    expect(k.resources).toEqual(['namespace.yaml', 'daemonset.yaml']);
    expect(k.configMapGenerator).toEqual([{ name: 'seccomp-profiles', files: ['browser-worker.json'] }]);
    expect(readRepoFile(`${nodeSeccompDir}/browser-worker.json`)).toBe(
      readRepoFile('deploy/seccomp/browser-worker.json'),
    );
    expect(kustomization.resources?.some((r) => r.includes('node-seccomp'))).toBe(false);
    const profileVolume = installerPod.volumes?.find((v) => v.configMap);
    expect(profileVolume?.configMap?.name).toBe('seccomp-profiles');
  });

  it("the DaemonSet writes the profile where the kubelet resolves the pods' localhostProfile, on every Linux node", () => {
    const hostPaths = (installerPod.volumes ?? []).filter((v) => v.hostPath);
    expect(hostPaths.map((v) => v.hostPath)).toEqual([{ path: kubeletProfiles, type: 'DirectoryOrCreate' }]);
    // localhostProfile is relative to the kubelet's seccomp folder, /var/lib/kubelet/seccomp.
    expect(`/var/lib/kubelet/seccomp/${browserWorkerProfile}`).toBe(`${kubeletProfiles}/browser-worker.json`);
    const install = installerPod.initContainers?.find((c) => c.name === 'install');
    const hostMount = install?.volumeMounts?.find((m) => m.name === hostPaths[0]!.name);
    const profileMount = install?.volumeMounts?.find((m) => m.name !== hostPaths[0]!.name);
    const script = (install?.command ?? []).join(' ');
    // Copied next to the target, then renamed over it: a starting container never reads half a file.
    expect(script).toContain(
      `cp ${profileMount!.mountPath}/browser-worker.json ${hostMount!.mountPath}/.browser-worker.json.new`,
    );
    expect(script).toContain(
      `mv -f ${hostMount!.mountPath}/.browser-worker.json.new ${hostMount!.mountPath}/browser-worker.json`,
    );
    expect(script).toMatch(/set -eu/);
    // Only the installer sees the node's folder; the long-running container sees nothing of the node.
    for (const container of installerPod.containers) expect(container.volumeMounts ?? []).toEqual([]);
    expect(installerPod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(installerPod.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('the installer holds no capability, privilege, token or host namespace, and pins its images', () => {
    expect(installerPod.automountServiceAccountToken).toBe(false);
    expect(installerPod.hostNetwork ?? false).toBe(false);
    expect(installerPod.hostPID ?? false).toBe(false);
    expect(installerPod.hostIPC ?? false).toBe(false);
    expect(installerPod.securityContext?.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    for (const container of containersOf(installerPod)) {
      const sc = container.securityContext ?? {};
      expect({
        name: container.name,
        escalation: sc.allowPrivilegeEscalation,
        privileged: sc.privileged ?? false,
      }).toEqual({
        name: container.name,
        escalation: false,
        privileged: false,
      });
      expect(sc.capabilities).toEqual({ drop: ['ALL'] });
      expect(sc.readOnlyRootFilesystem).toBe(true);
      expect(container.image).toMatch(/^[^@]+:\d+\.\d+(\.\d+)?$/);
      expect(quantity(container.resources?.limits?.memory as string)).toBeGreaterThan(0);
    }
    // Root only in the one-shot copy (the kubelet's folder belongs to root); the idle container is not.
    expect(installerPod.containers.map((c) => c.securityContext?.runAsNonRoot)).toEqual([true]);
  });

  it('the node-setup namespace is privileged (hostPath needs it) and holds nothing but the installer', () => {
    const ns = byName(ofKind<K8sObject>('Namespace'), nodeSetupNamespace);
    expect(ns.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
    expect(nodeSetup.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'DaemonSet/seccomp-profiles',
      `Namespace/${nodeSetupNamespace}`,
    ]);
    for (const { object } of manifests)
      if (object.kind !== 'Namespace' && object.metadata.namespace === nodeSetupNamespace)
        expect(`${object.kind}/${object.metadata.name}`).toBe('DaemonSet/seccomp-profiles');
  });
});

// ------------------------------------------------------------------------------------------------
// Network policies, evaluated the way the CNI does: union of the policies that select a pod
// ------------------------------------------------------------------------------------------------

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

const networkPolicies = ofKind<INetworkPolicy>('NetworkPolicy');

/** Kubernetes label-selector semantics; an empty selector selects everything. */
function labelSelectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return key in labels && values.includes(labels[key]!);
    if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]!);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    throw new Error(`unknown selector operator ${operator}`);
  });
  return byLabels && byExpressions;
}

/** The pod labels of each workload of the suite: the four apps and the migration Job. */
const podLabels: Record<string, Record<string, string>> = {
  ...Object.fromEntries(apps.map((a) => [a.name, deployment(a.name).spec!.template.metadata!.labels!])),
  migrate: jobs[0]!.spec!.template.metadata!.labels!,
};

const policiesFor = (app: string, type: 'Ingress' | 'Egress'): INetworkPolicy[] =>
  networkPolicies.filter(
    (p) =>
      p.metadata?.namespace === namespace &&
      labelSelectorMatches(p.spec?.podSelector as LabelSelector, podLabels[app]!) &&
      (p.spec?.policyTypes ?? ['Ingress']).includes(type),
  );

function portMatches(ports: INetworkPolicyPort[] | undefined, port: number): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== 'TCP') return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') throw new Error(`named port ${p.port}: resolve it in the test`);
    return p.endPort ? port >= p.port && port <= p.endPort : port === p.port;
  });
}

function inBlock(cidr: string, ip: string): boolean {
  const type = isIPv6(ip) ? 'ipv6' : 'ipv4';
  const [network, prefix] = cidr.split('/');
  if (isIPv6(network!) !== (type === 'ipv6')) return false;
  const list = new BlockList();
  list.addSubnet(network!, Number(prefix), type);
  return list.check(ip, type);
}

/** Whether an ipBlock peer (with its exceptions) covers `ip`; selector peers are in-cluster only. */
const peerCoversIp = (peer: INetworkPolicyPeer, ip: string): boolean =>
  !!peer.ipBlock &&
  inBlock(peer.ipBlock.cidr, ip) &&
  !(peer.ipBlock.except ?? []).some((cidr) => inBlock(cidr, ip));

/** Whether a pod of `app` may open a TCP connection to `ip`:`port` outside the cluster. */
function egressAllowed(app: string, ip: string, port: number): boolean {
  const policies = policiesFor(app, 'Egress');
  if (policies.length === 0) return true;
  return policies.some((p) =>
    (p.spec?.egress ?? []).some(
      (rule) =>
        portMatches(rule.ports, port) &&
        (!rule.to || rule.to.length === 0 || rule.to.some((peer) => peerCoversIp(peer, ip))),
    ),
  );
}

/** Who may connect to `app` on `port`: each allowed peer as "namespace/pod selector" text. */
function ingressPeers(app: string, port: number): string[] {
  return policiesFor(app, 'Ingress').flatMap((p) =>
    (p.spec?.ingress ?? [])
      .filter((rule) => portMatches(rule.ports, port))
      .flatMap((rule) =>
        !rule.from || rule.from.length === 0
          ? ['anyone']
          : rule.from.map((peer) =>
              peer.ipBlock
                ? `ipBlock ${peer.ipBlock.cidr}`
                : `${JSON.stringify(peer.namespaceSelector?.matchLabels ?? 'this namespace')} ${JSON.stringify(peer.podSelector?.matchLabels ?? 'any pod')}`,
            ),
      ),
  );
}

const ingressController =
  '{"kubernetes.io/metadata.name":"ingress-nginx"} {"app.kubernetes.io/name":"ingress-nginx"}';
const prometheus = '{"kubernetes.io/metadata.name":"monitoring"} {"app.kubernetes.io/name":"prometheus"}';
const workloadNames = [...apps.map((a) => a.name), 'migrate'];

/** Addresses a compromised pod must never reach, outside the datastores it is given. */
const forbidden = [
  ['cloud metadata', '169.254.169.254'],
  ['link-local', '169.254.1.1'],
  ['a private address (10/8)', '10.0.0.1'],
  ['a private address (172.16/12)', '172.20.0.10'],
  ['a private address (192.168/16)', '192.168.1.1'],
  ['carrier-grade NAT (pods on some clusters)', '100.64.0.1'],
  ['loopback', '127.0.0.1'],
  ['an IPv6 unique-local address (EC2 metadata fd00:ec2::254)', 'fd00:ec2::254'],
  ['IPv6 link-local', 'fe80::1'],
  ['IPv6 loopback', '::1'],
  ['NAT64 of a private address', '64:ff9b::a00:1'],
] as const;
const publicV4 = '93.184.215.14';
const publicV6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

describe('deploy/k8s: network policies (default deny, then what each app needs)', () => {
  const datastores = networkPolicies.flatMap((p) =>
    ['postgres', 'redis'].includes(p.metadata?.name ?? '')
      ? (p.spec?.egress ?? []).flatMap((r) => (r.to ?? []).map((peer) => peer.ipBlock?.cidr ?? ''))
      : [],
  );
  const postgres = byName(networkPolicies, 'postgres').spec!.egress![0]!.to![0]!.ipBlock!.cidr.split('/')[0]!;
  const redis = byName(networkPolicies, 'redis').spec!.egress![0]!.to![0]!.ipBlock!.cidr.split('/')[0]!;

  it('a default-deny policy isolates every pod of the namespace, in and out', () => {
    const deny = networkPolicies.filter(
      (p) =>
        Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
        (p.spec?.ingress ?? []).length === 0 &&
        (p.spec?.egress ?? []).length === 0,
    );
    expect(deny).toHaveLength(1);
    expect([...(deny[0]!.spec!.policyTypes ?? [])].sort()).toEqual(['Egress', 'Ingress']);
    expect(kustomization.resources).toContain('network-policies.yaml');
  });

  it.each(workloadNames.map((name) => [name] as const))(
    '%s has a policy of its own besides the default deny, and is isolated both ways',
    (name) => {
      const own = networkPolicies.filter(
        (p) =>
          Object.keys(p.spec?.podSelector ?? {}).length > 0 &&
          labelSelectorMatches(p.spec?.podSelector as LabelSelector, podLabels[name]!) &&
          p.metadata?.name === name,
      );
      expect(own).toHaveLength(1);
      expect(policiesFor(name, 'Ingress').length).toBeGreaterThan(0);
      expect(policiesFor(name, 'Egress').length).toBeGreaterThan(0);
    },
  );

  it('no rule allows everything: every ingress rule names its sources, every egress rule its destinations', () => {
    for (const p of networkPolicies) {
      for (const rule of p.spec?.ingress ?? []) expect((rule.from ?? []).length).toBeGreaterThan(0);
      for (const rule of p.spec?.egress ?? []) expect((rule.to ?? []).length).toBeGreaterThan(0);
    }
  });

  it.each(workloadNames.map((name) => [name] as const))(
    '%s may resolve names with the cluster DNS',
    (name) => {
      const dnsRules = policiesFor(name, 'Egress').flatMap((p) =>
        (p.spec?.egress ?? []).filter((rule) =>
          (rule.to ?? []).some(
            (peer) =>
              peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system' &&
              peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns',
          ),
        ),
      );
      const ports = dnsRules.flatMap((r) => (r.ports ?? []).map((p) => `${p.protocol}/${p.port}`));
      expect(ports).toEqual(expect.arrayContaining(['UDP/53', 'TCP/53']));
    },
  );

  it('every app reaches Postgres and Redis, the migration only Postgres, on their ports alone', () => {
    for (const { name } of apps) {
      expect({
        name,
        postgres: egressAllowed(name, postgres, 5432),
        redis: egressAllowed(name, redis, 6379),
      }).toEqual({
        name,
        postgres: true,
        redis: true,
      });
    }
    // Apps without internet egress reach the datastores on their ports alone (the placeholders
    // are public documentation addresses, which the worker and gateway may reach on any port).
    for (const name of ['jobs-api', 'agent-gateway', 'project-host', 'project-worker', 'migrate']) {
      expect({ name, ssh: egressAllowed(name, postgres, 22) }).toEqual({ name, ssh: false });
    }
    expect(egressAllowed('migrate', postgres, 5432)).toBe(true);
    expect(egressAllowed('migrate', redis, 6379)).toBe(false);
    expect(egressAllowed('migrate', publicV4, 443)).toBe(false);
  });

  it('the datastore addresses are placeholders to replace, from a documentation range (fail closed until edited)', () => {
    expect(datastores.length).toBeGreaterThanOrEqual(2);
    for (const cidr of datastores) expect(inBlock('192.0.2.0/24', cidr.split('/')[0]!)).toBe(true);
    const text = readRepoFile(`${k8sDir}/network-policies.yaml`);
    expect(text.match(/REPLACE_ME/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('apps send traces to the collector namespace on OTLP/HTTP', () => {
    for (const { name } of apps) {
      const peers = policiesFor(name, 'Egress').flatMap((p) =>
        (p.spec?.egress ?? [])
          .filter((r) => portMatches(r.ports, 4318) && (r.ports ?? []).length > 0)
          .flatMap((r) =>
            (r.to ?? []).map((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']),
          ),
      );
      expect({ name, peers }).toEqual({ name, peers: expect.arrayContaining(['observability']) });
    }
    expect(configMap.data?.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/\.observability\.svc\.cluster\.local:4318$/);
  });

  it.each(httpApps.map((a) => [a.name, a.port] as const))(
    '%s takes requests only from the ingress controller (and scrapes from Prometheus) on port %d',
    (name, port) => {
      expect(ingressPeers(name, port).sort()).toEqual([ingressController, prometheus].sort());
      expect(ingressPeers(name, 9999)).toEqual([]);
    },
  );

  it('the workers take no requests but Prometheus scrapes; the migration none at all', () => {
    for (const { name, port } of apps.filter((a) => !a.http)) {
      expect({ name, peers: ingressPeers(name, port) }).toEqual({ name, peers: [prometheus] });
    }
    expect(ingressPeers('migrate', 8080)).toEqual([]);
  });

  it('the browser worker reaches the public internet on any port, and nothing private or link-local', () => {
    for (const port of [80, 443, 8080, 3000]) {
      expect(egressAllowed('browser-worker', publicV4, port)).toBe(true);
      expect(egressAllowed('browser-worker', publicV6, port)).toBe(true);
    }
    for (const [what, ip] of forbidden) {
      for (const port of [80, 443, 5432, 8080]) {
        expect({ what, port, allowed: egressAllowed('browser-worker', ip, port) }).toEqual({
          what,
          port,
          allowed: false,
        });
      }
    }
  });

  it.each([
    ['project-host', [443], [25, 465, 587, 2525, 80, 22, 3306, 5432, 6379, 8080]],
    ['project-worker', [25, 465, 587, 2525], [443, 80, 22, 3306, 5432, 6379, 8080]],
  ] as const)(
    '%s reaches public addresses on ports %j only (identity providers, SMTP), and no private address but Postgres and Redis',
    (name, open, closed) => {
      for (const port of open) {
        expect({ port, allowed: egressAllowed(name, publicV4, port) }).toEqual({ port, allowed: true });
        expect(egressAllowed(name, publicV6, port)).toBe(true);
      }
      for (const port of closed) {
        expect({ port, allowed: egressAllowed(name, publicV4, port) }).toEqual({ port, allowed: false });
      }
      for (const [what, ip] of forbidden) {
        for (const port of [25, 443, 587, 5432, 6379]) {
          expect({ what, port, allowed: egressAllowed(name, ip, port) }).toEqual({
            what,
            port,
            allowed: false,
          });
        }
      }
    },
  );

  it('push-worker reaches push-notification webhooks on public addresses only; the gateway no longer does', () => {
    expect(egressAllowed('push-worker', publicV4, 443)).toBe(true);
    expect(egressAllowed('push-worker', publicV4, 8443)).toBe(true);
    for (const [what, ip] of forbidden) {
      expect({ what, allowed: egressAllowed('push-worker', ip, 443) }).toEqual({ what, allowed: false });
    }
    for (const port of [80, 443, 8443]) expect(egressAllowed('agent-gateway', publicV4, port)).toBe(false);
  });

  it('jobs-api reaches nothing outside the cluster but Postgres and Redis', () => {
    for (const port of [80, 443, 25]) expect(egressAllowed('jobs-api', publicV4, port)).toBe(false);
    for (const [, ip] of forbidden) expect(egressAllowed('jobs-api', ip, 443)).toBe(false);
  });

  it('the evaluator is live: with the default deny alone, nothing gets out', () => {
    const saved = networkPolicies.splice(0, networkPolicies.length);
    try {
      networkPolicies.push(saved.find((p) => p.metadata?.name === 'default-deny')!);
      expect(egressAllowed('browser-worker', publicV4, 443)).toBe(false);
      expect(ingressPeers('jobs-api', 8080)).toEqual([]);
    } finally {
      networkPolicies.splice(0, networkPolicies.length, ...saved);
    }
    expect(egressAllowed('browser-worker', publicV4, 443)).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------
// Documentation
// ------------------------------------------------------------------------------------------------

describe('deploy/k8s: README', () => {
  const readme = readRepoFile(`${k8sDir}/README.md`);

  it.each([
    ['how to apply', 'kubectl apply -k deploy/k8s'],
    ['how to create the secret', 'kubectl -n suite create secret generic suite-secrets'],
    ['how to run the migration', 'kubectl apply -k deploy/k8s/migrate'],
    ['how to install KEDA', 'helm install keda'],
    ['the Redis eviction policy BullMQ needs', 'noeviction'],
    ['Redis over TLS', 'rediss://'],
    ['Postgres over TLS', 'sslmode=require'],
    ['the connection budget', 'max_connections'],
    ['the readiness endpoint', '/health/ready'],
    ['the gVisor RuntimeClass of the project-code pods', 'runtimeClassName: gvisor'],
    ['how to install the RuntimeClass', 'kubectl apply -k deploy/k8s/gvisor'],
    ['the alternative it was chosen over', 'Localhost seccomp profile'],
    ['that the sandbox never falls back', 'PROJECT_CODE_SANDBOX=process'],
    ['the network policies', 'NetworkPolicy'],
    ['the datastore addresses to replace', 'REPLACE_ME'],
  ])('documents %s', (_what, text) => {
    expect(readme).toContain(text);
  });

  it('names every manifest file it ships', () => {
    for (const file of manifestFiles) expect(readme).toContain(relative(k8sDir, file));
  });
});

/**
 * deploy/kubernetes and each of deploy/kubernetes-overlays as `kubectl apply -k` would send them: every object
 * valid against the Kubernetes API's published schemas (scripts/lib/kubernetes.ts), the guide's kubectl
 * commands replayed (kubernetes-guide.ts: each `-l` subset holds what it references), and the portal's own
 * rules — probes, draining times, non-root read-only containers with resources, the configuration complete and
 * accepted by the server, the instances reachable from nginx only, no replica count under the autoscaler, and
 * the images of this release.
 */
import { operatorSecretsOf } from '../cloudnative-pg-cluster.ts';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { loadConfig } from '@portal/api/config.ts';
import { REPO_ROOT } from '@portal/dev-stack';
import {
  buildKustomization,
  containersOf,
  KUBERNETES_DIR,
  readManifests,
  validateObjectSets,
  type KubernetesObject,
  type Manifest,
} from '../kubernetes.ts';
import { alertRuleGroups, PROMETHEUS_RULE, renderPrometheusRule } from '../prometheus-rule.ts';
import { packageVersion } from '../release.ts';
import { envExampleNames, type Check } from './check.ts';
import { compareWithKubectl, guideChecks } from './kubernetes-guide.ts';

/**
 * Development only: the emulator accepts unsigned tokens. And the backup keys, which only the backup and
 * restore commands read: an instance holds none of them, least of all the identity that reads every backup.
 */
const NOT_FOR_INSTANCES = (name: string) => name === 'FIREBASE_AUTH_EMULATOR_HOST' || name.startsWith('BACKUP_');

type Labels = Record<string, string> | undefined;
const matches = (selector: Labels, labels: Labels) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([key, value]) => labels?.[key] === value);

/** The objects of one kind, typed by kubernetes-models' interfaces once the schemas have passed. */
function ofKind<T>(objects: KubernetesObject[], kind: string): T[] {
  return objects.filter((object) => object.kind === kind) as unknown as T[];
}

/** The folders an operator applies: the base and each overlay (deploy/README.md, "Kubernetes and OpenShift"). */
export const VARIANTS = ['kubernetes', ...overlayFolders()];

function overlayFolders(): string[] {
  return readdirSync(path.join(REPO_ROOT, 'deploy/kubernetes-overlays')).map((name) => `kubernetes-overlays/${name}`);
}

export async function kubernetesChecks(check: Check) {
  const { kustomization } = buildKustomization();
  // Applied by themselves (the namespace) or never (the example Secret): deploy/README.md step 2.
  const listed = new Set([
    ...(kustomization.resources ?? []),
    'kustomization.yaml',
    'secret.example.yaml',
    'namespace.yaml',
  ]);
  const unlisted = readdirSync(KUBERNETES_DIR).filter((file) => file.endsWith('.yaml') && !listed.has(file));
  check(unlisted.length === 0, 'kubernetes: every manifest in the folder is in kustomization.yaml', unlisted);
  check(
    !(kustomization.resources ?? []).includes('namespace.yaml'),
    'kubernetes: the Namespace is outside the kustomization (a prune or delete -k never takes the volumes with it)',
  );
  guideChecks(check, VARIANTS);
  compareWithKubectl(check, VARIANTS);
  const secretExample = readManifests('secret.example.yaml');
  const namespace = readManifests('namespace.yaml');
  const built = VARIANTS.map((variant) => buildKustomization(path.join(REPO_ROOT, 'deploy', variant)).manifests);
  const problems = await validateObjectSets(built.map((manifests) => [...manifests, ...secretExample, ...namespace]));
  for (const [index, variant] of VARIANTS.entries()) {
    variantChecks(check, variant, built[index]!, problems[index]!);
  }
}

function variantChecks(check: Check, variant: string, manifests: Manifest[], problems: string[]) {
  const secretExample = readManifests('secret.example.yaml');
  const namespace = readManifests('namespace.yaml');
  check(
    problems.length === 0,
    `${variant}: ${manifests.length + secretExample.length + namespace.length} objects valid against the Kubernetes API schemas, no unknown fields`,
    problems,
  );

  const objects = manifests.map((manifest) => manifest.object);
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  const jobs = ofKind<IJob>(objects, 'Job');
  const configMaps = ofKind<IConfigMap>(objects, 'ConfigMap');
  const [secret] = ofKind<ISecret>(
    secretExample.map((manifest) => manifest.object),
    'Secret',
  );
  const templates: { owner: string; template: IPodTemplateSpec }[] = [
    ...deployments.map((deployment) => ({
      owner: deployment.metadata?.name ?? '',
      template: deployment.spec!.template,
    })),
    ...jobs.map((job) => ({ owner: job.metadata?.name ?? '', template: job.spec!.template })),
  ];
  const selectsPods = (selector: Labels) =>
    templates.some(({ template }) => matches(selector, template.metadata?.labels));
  const named = (kind: string, name: string | undefined) =>
    objects.some((object) => object.kind === kind && object.metadata.name === name);

  const dangling: string[] = [];
  // Made by a database operator (CloudNativePG) for its Cluster, not by the person deploying.
  const operatorSecrets = operatorSecretsOf(objects);
  for (const deployment of deployments) {
    if (!matches(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels)) {
      dangling.push(`Deployment ${deployment.metadata?.name}: its selector does not match its pods`);
    }
  }
  for (const { owner, template } of templates) {
    for (const volume of template.spec?.volumes ?? []) {
      const claim = volume.persistentVolumeClaim?.claimName;
      if (claim && !named('PersistentVolumeClaim', claim)) dangling.push(`${owner}: no PersistentVolumeClaim ${claim}`);
      const secretName = volume.secret?.secretName;
      if (secretName && secretName !== secret?.metadata?.name) dangling.push(`${owner}: no Secret ${secretName}`);
    }
    for (const container of template.spec?.containers ?? []) {
      for (const source of container.envFrom ?? []) {
        const name = source.configMapRef?.name;
        if (name && !named('ConfigMap', name)) dangling.push(`${owner}: no ConfigMap ${name}`);
      }
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.secretKeyRef;
        if (ref && operatorSecrets.get(ref.name ?? '')?.has(ref.key)) continue;
        if (ref && (ref.name !== secret?.metadata?.name || !secret?.stringData?.[ref.key])) {
          dangling.push(`${owner}: ${ref.name}/${ref.key} is not in secret.example.yaml`);
        }
      }
    }
  }
  for (const service of ofKind<IService>(objects, 'Service')) {
    if (!selectsPods(service.spec?.selector)) dangling.push(`Service ${service.metadata?.name} selects no pods`);
  }
  for (const budget of ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget')) {
    if (!selectsPods(budget.spec?.selector?.matchLabels))
      dangling.push(`PodDisruptionBudget ${budget.metadata?.name} selects no pods`);
  }
  for (const autoscaler of ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler')) {
    const target = autoscaler.spec?.scaleTargetRef;
    if (!named(target?.kind ?? '', target?.name))
      dangling.push(`HorizontalPodAutoscaler ${autoscaler.metadata?.name} scales nothing`);
  }
  for (const ingress of ofKind<IIngress>(objects, 'Ingress')) {
    for (const route of (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? [])) {
      const name = route.backend.service?.name;
      if (!named('Service', name)) dangling.push(`Ingress ${ingress.metadata?.name}: no Service ${name}`);
    }
  }
  for (const account of templates.map(({ owner, template }) => [owner, template.spec?.serviceAccountName] as const)) {
    if (!account[1] || !named('ServiceAccount', account[1]))
      dangling.push(`${account[0]}: no ServiceAccount ${account[1]}`);
  }
  check(
    dangling.length === 0,
    `${variant}: selectors, volumes, ConfigMap, Secret and ServiceAccount references, autoscaler and ingress targets all resolve`,
    dangling,
  );

  const autoscalers = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
  const fought = autoscalers.flatMap((autoscaler) => {
    const target = deployments.find((deployment) => deployment.metadata?.name === autoscaler.spec?.scaleTargetRef.name);
    return target?.spec?.replicas === undefined
      ? []
      : [`Deployment ${target.metadata?.name}: replicas ${target.spec.replicas}`];
  });
  check(
    autoscalers.length > 0 && fought.length === 0,
    `${variant}: no replica count on a Deployment its autoscaler scales (each apply would reset it)`,
    fought,
  );
  const apiAutoscaler = autoscalers.find((autoscaler) => autoscaler.spec?.scaleTargetRef.name === 'portal-api');
  const instancesSetting = ofKind<IConfigMap>(objects, 'ConfigMap').find(
    (candidate) => candidate.metadata?.name === 'portal-config',
  )?.data?.INSTANCES;
  check(
    String(apiAutoscaler?.spec?.maxReplicas) === instancesSetting,
    `${variant}: INSTANCES (${instancesSetting}) is the autoscaler's most instances (${apiAutoscaler?.spec?.maxReplicas})`,
  );

  const version = packageVersion();
  const images = objects.flatMap((object) => containersOf(object).map((container) => String(container.image)));
  const stale = images.filter((image) => !image.endsWith(`:${version}`));
  check(
    images.length > 0 && stale.length === 0 && jobs[0]?.metadata?.name === `portal-migrate-${version}`,
    `${variant}: the images and the migrate Job are this release's (${version})`,
    stale,
  );

  // GitOps order: Argo CD applies wave by wave, waiting for each to be healthy (a Job: complete).
  const wave = (object: unknown) =>
    Number(
      (object as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[
        'argocd.argoproj.io/sync-wave'
      ] ?? 0,
    );
  const migrateWave = jobs[0] ? wave(jobs[0]) : 0;
  const componentOf = (object: { metadata?: { labels?: Record<string, string> } }) =>
    object.metadata?.labels?.['app.kubernetes.io/component'];
  const outOfOrder = objects
    .filter((object) => object !== jobs[0] && object.kind !== 'Namespace')
    .filter((object) => (componentOf(object) === 'config' ? wave(object) >= migrateWave : wave(object) <= migrateWave))
    .map((object) => `${object.kind}/${object.metadata?.name}: wave ${wave(object)}`);
  check(
    migrateWave < 0 && outOfOrder.length === 0,
    `${variant}: Argo CD sync waves put the settings before the migrate Job (wave ${migrateWave}) and everything else after it`,
    outOfOrder,
  );

  const unsafe: string[] = [];
  for (const { owner, template } of templates) {
    const pod = template.spec;
    if (pod?.securityContext?.runAsNonRoot !== true) unsafe.push(`${owner}: runAsNonRoot`);
    if (pod?.automountServiceAccountToken !== false) unsafe.push(`${owner}: automountServiceAccountToken`);
    for (const container of pod?.containers ?? []) {
      const security = container.securityContext;
      if (security?.readOnlyRootFilesystem !== true) unsafe.push(`${container.name}: readOnlyRootFilesystem`);
      if (security?.allowPrivilegeEscalation !== false) unsafe.push(`${container.name}: allowPrivilegeEscalation`);
      if (!security?.capabilities?.drop?.includes('ALL')) unsafe.push(`${container.name}: capabilities not dropped`);
      const { requests, limits } = container.resources ?? {};
      if (!requests?.cpu || !requests?.memory || !limits?.memory)
        unsafe.push(`${container.name}: CPU and memory requests, memory limit`);
    }
  }
  check(
    unsafe.length === 0,
    `${variant}: every container non-root, read-only root, no privilege escalation or capabilities, with resources`,
    unsafe,
  );

  const api = deployments.find((deployment) => deployment.metadata?.name === 'portal-api');
  const container = api?.spec?.template.spec?.containers[0];
  check(
    container?.readinessProbe?.httpGet?.path === '/api/readyz' &&
      container?.livenessProbe?.httpGet?.path === '/api/healthz',
    `${variant}: readiness asks /api/readyz, liveness /api/healthz`,
  );

  const names = envExampleNames(readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8'));
  const configMap = configMaps.find((candidate) => candidate.metadata?.name === 'portal-config')?.data ?? {};
  const fromSecret = (container?.env ?? []).filter((entry) => entry.valueFrom?.secretKeyRef).map((entry) => entry.name);
  const given = [...Object.keys(configMap), ...fromSecret];
  const missing = names.filter((name) => !given.includes(name) && !NOT_FOR_INSTANCES(name));
  const extra = given.filter((name) => !names.includes(name) || NOT_FOR_INSTANCES(name));
  check(
    missing.length === 0 && extra.length === 0,
    `${variant}: every variable of .env.example comes from the ConfigMap or the Secret (the emulator host and the backup keys from neither)`,
    [
      ...missing.map((name) => `missing: ${name}`),
      ...extra.map((name) => `not a production setting of .env.example: ${name}`),
    ],
  );

  let configProblem = '';
  let shutdownGraceMs = Number.NaN;
  try {
    // What an operator must fill in: the project's web API key, the passkeys' host, the directory's domains and
    // the portal's address for mail (left empty in the ConfigMap on purpose), and secrets of their own (the
    // example Secret's are refused: config.test.ts).
    const ownSecrets: Record<string, string> = {
      DATABASE_URL: 'postgres://portal:a-password-of-your-own@postgres.example.internal:5432/portal',
      // Made here: a token printed in the repository is refused in production (example-secrets.ts).
      INGEST_TOKEN: randomBytes(32).toString('base64url'),
      METRICS_TOKEN: randomBytes(32).toString('base64url'),
      SCIM_TOKEN: randomBytes(32).toString('base64url'),
      SCIM_TOKEN_PREVIOUS: randomBytes(32).toString('base64url'),
    };
    const secrets = Object.fromEntries(
      fromSecret.map((name) => [name, ownSecrets[name] ?? secret?.stringData?.[name]]),
    );
    shutdownGraceMs = loadConfig({
      ...configMap,
      FIREBASE_API_KEY: 'web-api-key',
      WEBAUTHN_RP_ID: 'portal.example.com',
      WEBAUTHN_ORIGINS: 'https://portal.example.com',
      SCIM_EMAIL_DOMAINS: 'example.com',
      PORTAL_URL: 'https://portal.example.com',
      ...secrets,
    }).shutdownGraceMs;
  } catch (error) {
    configProblem = (error as Error).message;
  }
  check(
    configProblem === '',
    `${variant}: the ConfigMap and a Secret like the example pass the server's configuration check`,
    [configProblem].filter(Boolean),
  );

  const preStop = Number(/^sleep (\d+)$/.exec(container?.lifecycle?.preStop?.exec?.command?.join(' ') ?? '')?.[1]);
  const grace = api?.spec?.template.spec?.terminationGracePeriodSeconds ?? 0;
  check(
    preStop > 0 && grace >= preStop + shutdownGraceMs / 1000 + 15,
    `${variant}: terminationGracePeriodSeconds (${grace} s) covers preStop (${preStop} s), SHUTDOWN_GRACE_MS (${shutdownGraceMs} ms) and the server's last 15 s`,
  );

  const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
  const apiLabels = api?.spec?.template.metadata?.labels;
  const proxyLabels = deployments.find((deployment) => deployment.metadata?.name === 'portal-proxy')?.spec?.template
    .metadata?.labels;
  const denyAll = policies.some(
    (policy) => Object.keys(policy.spec?.podSelector?.matchLabels ?? {}).length === 0 && !policy.spec?.ingress,
  );
  const apiPolicies = policies.filter((policy) => matches(policy.spec?.podSelector?.matchLabels, apiLabels));
  // The monitoring component's management port (METRICS_PORT) may be admitted from elsewhere; only it.
  const metricsPort = Number(
    configMaps.find((candidate) => candidate.metadata?.name === 'portal-config')?.data?.METRICS_PORT || Number.NaN,
  );
  const onlyFromProxy =
    apiPolicies.length > 0 &&
    apiPolicies.every((policy) =>
      (policy.spec?.ingress ?? []).every(
        (rule) =>
          (rule.from ?? []).length > 0 &&
          ((rule.ports ?? []).length > 0 && (rule.ports ?? []).every((port) => port.port === metricsPort)
            ? true
            : (rule.from ?? []).every(
                (peer) =>
                  matches(peer.podSelector?.matchLabels, proxyLabels) && !peer.namespaceSelector && !peer.ipBlock,
              )),
      ),
    );
  check(
    denyAll && onlyFromProxy,
    `${variant}: NetworkPolicies deny by default and admit the API instances' port from nginx only`,
  );

  if (objects.some((object) => object.kind === 'ServiceMonitor')) {
    monitoringChecks(check, variant, { objects, policies, apiLabels, metricsPort, container, secret });
  }
}

/**
 * The monitoring component: the ServiceMonitor finds the instances' management port through a Service, with
 * the token of the Secret, under the job the rules expect; a NetworkPolicy admits that port from another
 * namespace; and the PrometheusRule is alert-rules.yaml, as generated.
 */
function monitoringChecks(
  check: Check,
  variant: string,
  found: {
    objects: KubernetesObject[];
    policies: INetworkPolicy[];
    apiLabels: Labels;
    metricsPort: number;
    container: IContainer | undefined;
    secret: ISecret | undefined;
  },
) {
  const { objects, policies, apiLabels, metricsPort, container, secret } = found;
  const problems: string[] = [];
  const containerPort = container?.ports?.find((port) => port.name === 'metrics')?.containerPort;
  if (!Number.isInteger(metricsPort) || containerPort !== metricsPort)
    problems.push(`METRICS_PORT (${metricsPort}) is not the api container's port "metrics" (${containerPort})`);
  for (const monitor of ofKind<IServiceMonitor>(objects, 'ServiceMonitor')) {
    const name = `ServiceMonitor ${monitor.metadata?.name}`;
    if (monitor.metadata?.namespace !== 'parcel-portal') problems.push(`${name}: not in the portal's namespace`);
    const services = ofKind<IService>(objects, 'Service').filter((service) =>
      matches(monitor.spec.selector.matchLabels, service.metadata?.labels),
    );
    if (services.length !== 1 || !matches(services[0]?.spec?.selector, apiLabels))
      problems.push(`${name}: selects ${services.length} Services, not one of the API instances`);
    for (const endpoint of monitor.spec.endpoints ?? []) {
      const servicePort = services[0]?.spec?.ports?.find((port) => port.name === endpoint.port);
      if (servicePort?.targetPort !== 'metrics')
        problems.push(`${name}: port ${endpoint.port} is not the management port`);
      const credentials = endpoint.authorization?.credentials;
      if (credentials?.name !== secret?.metadata?.name || !secret?.stringData?.[credentials?.key ?? ''])
        problems.push(`${name}: its bearer token is not a key of secret.example.yaml`);
      const job = endpoint.relabelings?.find((relabel) => relabel.targetLabel === 'job')?.replacement;
      if (job !== 'portal') problems.push(`${name}: job is ${job}, the alert rules expect "portal"`);
    }
  }
  const scraperAdmitted = policies.some(
    (policy) =>
      matches(policy.spec?.podSelector?.matchLabels, apiLabels) &&
      (policy.spec?.ingress ?? []).some(
        (rule) =>
          (rule.from ?? []).some((peer) => peer.namespaceSelector) &&
          (rule.ports ?? []).map((port) => port.port).join() === String(metricsPort),
      ),
  );
  if (!scraperAdmitted) problems.push("no NetworkPolicy admits the scraper's namespace to the management port");
  const rules = ofKind<IPrometheusRule>(objects, 'PrometheusRule');
  if (rules.length !== 1 || !isDeepStrictEqual(rules[0]?.spec.groups, alertRuleGroups()))
    problems.push('the PrometheusRule is not deploy/monitoring/alert-rules.yaml');
  check(
    problems.length === 0,
    `${variant}: the ServiceMonitor scrapes the management port with the metrics token as job "portal", a NetworkPolicy admits the scraper there alone, the PrometheusRule holds alert-rules.yaml`,
    problems,
  );
  check(
    readFileSync(PROMETHEUS_RULE, 'utf8') === renderPrometheusRule(),
    `${variant}: prometheus-rule.yaml is as \`npm run monitoring:rules\` makes it from alert-rules.yaml`,
  );
}

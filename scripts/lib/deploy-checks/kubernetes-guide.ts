/**
 * deploy/README.md's Kubernetes commands, replayed in order against a model of the cluster: `kubectl apply -f`
 * adds a file's objects, `kubectl create secret generic` a Secret with the keys it names, `kubectl apply -k
 * <folder> [-l <selector>]` the kustomization rendered as scripts/lib/kubernetes.ts does and filtered by the
 * selector as kubectl filters it. Each applied subset must hold every ConfigMap, PersistentVolumeClaim and
 * ServiceAccount its pods read (a Job whose ConfigMap is left out waits in CreateContainerConfigError; on an
 * upgrade it would read the previous release's), and find its Secret keys and namespace made by an earlier
 * command; `kubectl wait job/…` and `rollout status deployment/…` must name objects applied before them;
 * `kubectl exec deployment/… -c <container> -- node apps/api/dist/cli.js …` a container of a Deployment applied
 * before that runs the portal's image (the one with the CLI). The same commands are replayed with each overlay folder in place of kubernetes/ (the guide says they apply alike).
 */
import { operatorSecretsOf } from '../cloudnative-pg-cluster.ts';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { parse as yamlParse } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';
import { buildKustomization, readManifests, selectorMatches, type KubernetesObject } from '../kubernetes.ts';
import { packageVersion } from '../release.ts';
import type { Check } from './check.ts';

const GUIDE = path.join(REPO_ROOT, 'deploy/README.md');

/** Every kubectl command of the guide's Kubernetes section, joined across `\` line ends, in order. */
export function guideCommands(): string[] {
  const text = readFileSync(GUIDE, 'utf8');
  const section = text.slice(text.indexOf('## Kubernetes and OpenShift'), text.indexOf('## Plain servers'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('kubectl '));
}

/** Shell words, with '…' and "…" quoting (enough for the guide's commands). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

interface Cluster {
  namespaces: Set<string>;
  secrets: Map<string, Set<string>>;
  objects: KubernetesObject[];
}

type Pod = { owner: string; namespace: string; template: IPodTemplateSpec };

function podsOf(objects: KubernetesObject[]): Pod[] {
  return objects.flatMap((object) => {
    const template = (object.spec as { template?: IPodTemplateSpec } | undefined)?.template;
    return template
      ? [{ owner: `${object.kind}/${object.metadata.name}`, namespace: object.metadata.namespace ?? '', template }]
      : [];
  });
}

/** What a subset references and does not hold itself, or the cluster has not been given before. */
function unresolved(subset: KubernetesObject[], cluster: Cluster): string[] {
  const has = (kind: string, name: string | undefined) =>
    subset.some((object) => object.kind === kind && object.metadata.name === name);
  const problems: string[] = [];
  for (const object of subset) {
    const namespace = object.metadata.namespace;
    if (namespace && !cluster.namespaces.has(namespace)) {
      problems.push(`${object.kind}/${object.metadata.name}: namespace ${namespace} not created before`);
    }
  }
  for (const { owner, template } of podsOf(subset)) {
    const pod = template.spec;
    if (pod?.serviceAccountName && !has('ServiceAccount', pod.serviceAccountName)) {
      problems.push(`${owner}: ServiceAccount ${pod.serviceAccountName} not in this subset`);
    }
    for (const volume of pod?.volumes ?? []) {
      const claim = volume.persistentVolumeClaim?.claimName;
      if (claim && !has('PersistentVolumeClaim', claim)) problems.push(`${owner}: PVC ${claim} not in this subset`);
      const map = volume.configMap?.name;
      if (map && !has('ConfigMap', map)) problems.push(`${owner}: ConfigMap ${map} not in this subset`);
      const secret = volume.secret;
      for (const item of secret?.items ?? []) {
        if (!cluster.secrets.get(secret?.secretName ?? '')?.has(item.key)) {
          problems.push(`${owner}: Secret ${secret?.secretName} key ${item.key} not created before`);
        }
      }
    }
    for (const container of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) {
      for (const source of container.envFrom ?? []) {
        const map = source.configMapRef?.name;
        if (map && !has('ConfigMap', map)) problems.push(`${owner}: ConfigMap ${map} not in this subset`);
      }
      for (const entry of container.env ?? []) {
        const mapRef = entry.valueFrom?.configMapKeyRef;
        if (mapRef && !has('ConfigMap', mapRef.name))
          problems.push(`${owner}: ConfigMap ${mapRef.name} not in this subset`);
        const secretRef = entry.valueFrom?.secretKeyRef;
        if (secretRef && !secretRef.optional && !cluster.secrets.get(secretRef.name ?? '')?.has(secretRef.key)) {
          problems.push(`${owner}: Secret ${secretRef.name} key ${secretRef.key} not created before`);
        }
      }
    }
  }
  for (const object of subset) {
    const spec = object.spec as Record<string, never> | undefined;
    if (object.kind === 'HorizontalPodAutoscaler') {
      const target = (spec?.scaleTargetRef ?? {}) as { kind: string; name: string };
      if (!has(target.kind, target.name))
        problems.push(`HPA ${object.metadata.name}: ${target.name} not in this subset`);
    }
    if (object.kind === 'Ingress') {
      for (const rule of (spec?.rules ?? []) as { http?: { paths: { backend: { service?: { name: string } } }[] } }[]) {
        for (const route of rule.http?.paths ?? []) {
          if (!has('Service', route.backend.service?.name)) {
            problems.push(`Ingress ${object.metadata.name}: Service ${route.backend.service?.name} not in this subset`);
          }
        }
      }
    }
    if (object.kind === 'HTTPRoute') {
      for (const rule of (spec?.rules ?? []) as { backendRefs?: { name: string }[] }[]) {
        for (const backend of rule.backendRefs ?? []) {
          if (!has('Service', backend.name)) problems.push(`HTTPRoute: Service ${backend.name} not in this subset`);
        }
      }
    }
  }
  return problems;
}

/** The portal's own image (not the proxy's), whatever registry and tag the folder gives it. */
const PORTAL_IMAGE = /(^|\/)parcel-portal(:|@|$)/;

/** `kubectl -n <ns> exec deployment/<name> -c <container> -- node apps/api/dist/cli.js …`, against the cluster. */
function execProblems(args: string[], cluster: Cluster): string[] {
  const namespace = option(args, '-n');
  const target = args.find((arg) => arg.startsWith('deployment/'));
  const container = option(args, '-c');
  const command = args.slice(args.indexOf('--') + 1);
  if (!target || !container || !args.includes('--')) {
    return ['exec names a deployment/<name>, its container (-c) and the command after --'];
  }
  const deployment = cluster.objects.find(
    (object) =>
      object.kind === 'Deployment' &&
      object.metadata.name === target.slice('deployment/'.length) &&
      object.metadata.namespace === namespace,
  );
  if (!deployment) return [`${target} in ${namespace}: not applied before`];
  const [pod] = podsOf([deployment]);
  const image = pod?.template.spec?.containers.find((candidate) => candidate.name === container)?.image;
  if (image === undefined) return [`${target} has no container ${container}`];
  const problems: string[] = [];
  if (!PORTAL_IMAGE.test(image)) problems.push(`${target} container ${container} runs ${image}, which has no CLI`);
  if (command[0] !== 'node' || command[1] !== 'apps/api/dist/cli.js') {
    problems.push(`runs "${command.join(' ')}", not the CLI (node apps/api/dist/cli.js …)`);
  }
  return problems;
}

/** Replays the guide's commands with `folder` for kubernetes/ in `apply -k`; one problem list per command. */
function replay(commands: string[], folder: string): { command: string; problems: string[] }[] {
  const cluster: Cluster = { namespaces: new Set(), secrets: new Map(), objects: [] };
  return commands.map((command) => {
    const args = words(command).slice(1);
    const problems: string[] = [];
    const shown = command.replace(/apply -k kubernetes\b/, `apply -k ${folder}`);
    if (args[0] === 'apply' && args[1] === '-f') {
      for (const { object } of readManifests(path.relative('kubernetes', args[2]!))) {
        if (object.kind === 'Namespace') cluster.namespaces.add(object.metadata.name);
        cluster.objects.push(object);
      }
    } else if (args.includes('create') && args.includes('secret')) {
      const name = args[args.indexOf('generic') + 1]!;
      const namespace = option(args, '-n') ?? '';
      if (!cluster.namespaces.has(namespace)) problems.push(`namespace ${namespace} not created before`);
      const keys = args
        .filter((arg) => arg.startsWith('--from-literal=') || arg.startsWith('--from-file='))
        .map((arg) => arg.replace(/^--from-(literal|file)=/, '').split('=')[0]!);
      cluster.secrets.set(name, new Set(keys));
    } else if (args[0] === 'apply' && args[1] === '-k') {
      if (args[2] !== 'kubernetes') problems.push(`applies ${args[2]}: the guide's commands run from deploy/`);
      const selector = option(args, '-l');
      const { manifests } = buildKustomization(path.join(REPO_ROOT, 'deploy', folder));
      const subset = manifests
        .map((manifest) => manifest.object)
        .filter((object) => !selector || selectorMatches(selector, object.metadata.labels));
      if (subset.length === 0) problems.push('applies nothing');
      // A database operator's Cluster makes its Secrets itself, before the pods that read them can start.
      for (const [name, keys] of operatorSecretsOf(subset)) cluster.secrets.set(name, keys);
      problems.push(...unresolved(subset, cluster));
      cluster.objects.push(...subset);
    } else if (args.includes('wait') || (args.includes('rollout') && args.includes('status'))) {
      const namespace = option(args, '-n');
      for (const reference of args.filter((arg) => /^(job|deployment)\//.test(arg))) {
        const [kind, name] = reference.split('/') as [string, string];
        const found = cluster.objects.some(
          (object) =>
            object.kind.toLowerCase() === kind &&
            object.metadata.name === name &&
            object.metadata.namespace === namespace,
        );
        if (!found) problems.push(`${reference} in ${namespace}: not applied before`);
      }
    } else if (args.includes('exec')) {
      problems.push(...execProblems(args, cluster));
    } else {
      problems.push('a kubectl command this check does not model: teach kubernetes-guide.ts what it does');
    }
    return { command: shown, problems };
  });
}

export function guideChecks(check: Check, folders: string[]) {
  const commands = guideCommands();
  check(
    commands.some((command) => / -l /.test(command)) && commands.some((command) => command.includes('wait')),
    `guide: deploy/README.md's Kubernetes steps name ${commands.length} kubectl commands, the migrate subset and its wait among them`,
  );
  check(
    commands.some((command) => / exec .*cli\.js users add \S+ --admin/.test(command)),
    "guide: deploy/README.md's Kubernetes steps add the first administrator with the CLI (kubectl exec)",
  );
  const version = packageVersion();
  const waited = commands.find((command) => command.includes(' wait '));
  check(
    !!waited?.includes(`job/portal-migrate-${version}`),
    `guide: the step that waits for the migrate Job names this release's (portal-migrate-${version})`,
  );
  for (const folder of folders) {
    for (const { command, problems } of replay(commands, folder)) {
      check(problems.length === 0, `guide (${folder}): ${command}`, problems);
    }
  }
}

/**
 * Where kubectl is installed (not in CI: `scripts/setup-machine.sh` does not install it), its own kustomize
 * renders each folder and must give the same objects as this check's rendering, so the model above is tested
 * against the real thing whenever it can be.
 */
export function compareWithKubectl(check: Check, folders: string[]) {
  const found = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (found.status !== 0) {
    console.log('note  kubectl not installed: the rendering is not compared with kubectl kustomize here');
    return;
  }
  for (const folder of folders) {
    const rendered = spawnSync('kubectl', ['kustomize', path.join(REPO_ROOT, 'deploy', folder)], {
      encoding: 'utf8',
    });
    const theirs = rendered.status === 0 ? canonical(parseAll(rendered.stdout)) : [rendered.stderr.trim()];
    const ours = canonical(buildKustomization(path.join(REPO_ROOT, 'deploy', folder)).manifests.map((m) => m.object));
    const differing = ours.filter((object, index) => object !== theirs[index]);
    check(
      rendered.status === 0 && ours.length === theirs.length && differing.length === 0,
      `kubectl kustomize ${folder}: the same ${theirs.length} objects as this check renders`,
      differing.slice(0, 3).map((object) => `differs: ${object.slice(0, 300)}`),
    );
  }
}

function parseAll(text: string): unknown[] {
  return text
    .split(/^---$/m)
    .map((document) => (document.trim() ? (JSON.parse(JSON.stringify(yamlParse(document))) as unknown) : null))
    .filter(Boolean);
}

/** Each object as JSON with sorted keys, the list sorted by kind and name: the order kubectl prints differs. */
function canonical(objects: unknown[]): string[] {
  const sortKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sortKeys)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
          )
        : value;
  return objects.map((object) => JSON.stringify(sortKeys(object))).sort();
}

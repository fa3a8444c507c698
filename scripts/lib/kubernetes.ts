/**
 * deploy/kubernetes read as kubectl would apply it, and checked against Kubernetes' published API schemas.
 *
 * - `buildKustomization` does what `kubectl kustomize` does with the parts of kustomize the folders use
 *   (deploy/kubernetes, deploy/kubernetes-overlays, deploy/kubernetes-components); any other kustomization
 *   field is refused rather than ignored. `selectorMatches` is `kubectl apply -l`'s filter.
 * - `validateObjectSets` checks every object twice against the kubernetes-models packages, which are generated
 *   from the official OpenAPI document: their JSON-schema validators (types, required fields, formats, enums)
 *   and their TypeScript interfaces, compiled with the objects as literals, so a field the API does not know
 *   (a typo such as `readinessprobe`) is an error as it is for the API server's strict field validation.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface Manifest {
  file: string;
  object: KubernetesObject;
}

export const KUBERNETES_DIR = path.join(REPO_ROOT, 'deploy/kubernetes');

export function readManifests(file: string): Manifest[] {
  const text = readFileSync(path.join(KUBERNETES_DIR, file), 'utf8');
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
    const object = document.toJS() as KubernetesObject | null;
    return object ? [{ file, object }] : [];
  });
}

interface Patch {
  path?: string;
  patch?: string;
  target?: { kind?: string; name?: string };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  resources?: string[];
  components?: string[];
  patches?: Patch[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

const UNDERSTOOD = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'labels',
  'resources',
  'components',
  'patches',
  'images',
]);
const CLUSTER_SCOPED = new Set(['Namespace', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass']);

/** Every container of a workload (Deployment, Job, a CronJob's jobs …), init containers included. */
export function containersOf(object: KubernetesObject): IContainer[] {
  type WithTemplate = { template?: IPodTemplateSpec; jobTemplate?: { spec?: { template?: IPodTemplateSpec } } };
  const spec = object.spec as WithTemplate | undefined;
  const pod = (spec?.template ?? spec?.jobTemplate?.spec?.template)?.spec;
  return pod ? [...(pod.initContainers ?? []), ...pod.containers] : [];
}

function readKustomization(dir: string, kind: 'Kustomization' | 'Component'): Kustomization {
  const file = path.join(dir, 'kustomization.yaml');
  const [document] = parseAllDocuments(readFileSync(file, 'utf8'));
  const kustomization = document?.toJS() as Kustomization;
  const where = path.relative(REPO_ROOT, file);
  const unknown = Object.keys(kustomization).filter((key) => !UNDERSTOOD.has(key));
  if (unknown.length > 0) throw new Error(`${where}: ${unknown.join(', ')} not understood by this check`);
  const apiVersion = kind === 'Component' ? 'kustomize.config.k8s.io/v1alpha1' : 'kustomize.config.k8s.io/v1beta1';
  if (kustomization.apiVersion !== apiVersion || kustomization.kind !== kind) {
    throw new Error(`${where} must be apiVersion ${apiVersion}, kind ${kind}`);
  }
  return kustomization;
}

/**
 * Lists merged by a key as kubectl's strategic merge patch merges them (the fields these manifests patch);
 * any other list is replaced. A patch's items come first, in its order, then the others, as kustomize does.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

type Json = unknown;
const isMap = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function strategicMerge(base: Json, patch: Json, field = ''): Json {
  if (isMap(base) && isMap(patch)) {
    const merged: Record<string, Json> = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (key === '$patch') continue;
      if (value === null) delete merged[key];
      else merged[key] = key in base ? strategicMerge(base[key], value, key) : stripDirectives(value);
    }
    return merged;
  }
  const key = MERGE_KEYS[field];
  if (key && Array.isArray(base) && Array.isArray(patch)) {
    const result: Json[] = [];
    for (const item of patch as Record<string, Json>[]) {
      const original = (base as Record<string, Json>[]).find((candidate) => candidate[key] === item[key]);
      if (item.$patch === 'delete') continue;
      result.push(original ? strategicMerge(original, item) : stripDirectives(item));
    }
    const patched = new Set((patch as Record<string, Json>[]).map((item) => item[key]));
    return [...result, ...(base as Record<string, Json>[]).filter((item) => !patched.has(item[key]))];
  }
  return stripDirectives(patch);
}

function stripDirectives(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isMap(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$patch')
      .map(([key, item]) => [key, stripDirectives(item)]),
  );
}

/** JSON pointer operations (RFC 6902) as kustomize applies them; `remove` of a missing path is an error. */
function jsonPatch(object: Json, operations: { op: string; path: string; value?: Json }[], where: string): Json {
  const copy = structuredClone(object);
  for (const { op, path: pointer, value } of operations) {
    const parts = pointer
      .split('/')
      .slice(1)
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = parts.pop()!;
    let parent = copy as Record<string, Json>;
    for (const part of parts) {
      parent = parent?.[part] as Record<string, Json>;
      if (parent === undefined) throw new Error(`${where}: ${op} ${pointer}: no such path`);
    }
    if (op === 'remove') {
      if (!(last in parent)) throw new Error(`${where}: remove ${pointer}: no such path`);
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op === 'add' || op === 'replace') {
      if (Array.isArray(parent) && last === '-') parent.push(value);
      else if (Array.isArray(parent) && op === 'add') parent.splice(Number(last), 0, value);
      else parent[last] = value;
    } else {
      throw new Error(`${where}: JSON patch operation ${op} not understood by this check`);
    }
  }
  return copy;
}

function applyPatch(manifests: Manifest[], patch: Patch, dir: string): Manifest[] {
  const where = path.relative(REPO_ROOT, path.join(dir, patch.path ?? 'kustomization.yaml'));
  const text = patch.path ? readFileSync(path.join(dir, patch.path), 'utf8') : (patch.patch ?? '');
  const parsed = parse(text) as Json;
  const fits = (object: KubernetesObject) =>
    (!patch.target?.kind || patch.target.kind === object.kind) &&
    (!patch.target?.name || new RegExp(`^(?:${patch.target.name})$`).test(object.metadata.name));
  if (Array.isArray(parsed)) {
    if (!patch.target) throw new Error(`${where}: a JSON patch needs a target`);
    const hits = manifests.filter(({ object }) => fits(object));
    if (hits.length === 0) throw new Error(`${where}: the target matches no object`);
    return manifests.map((manifest) =>
      fits(manifest.object)
        ? { ...manifest, object: jsonPatch(manifest.object, parsed as never, where) as KubernetesObject }
        : manifest,
    );
  }
  const patchObject = parsed as KubernetesObject & { $patch?: string };
  const same = (object: KubernetesObject) =>
    object.kind === patchObject.kind && object.metadata.name === patchObject.metadata.name && fits(object);
  if (!manifests.some(({ object }) => same(object))) {
    throw new Error(`${where}: no ${patchObject.kind}/${patchObject.metadata.name} to patch`);
  }
  if (patchObject.$patch === 'delete') return manifests.filter(({ object }) => !same(object));
  return manifests.map((manifest) =>
    same(manifest.object)
      ? { ...manifest, object: strategicMerge(manifest.object, patchObject) as KubernetesObject }
      : manifest,
  );
}

/** Resources and components of one kustomization folder, then its own patches and transformers. */
function build(dir: string, kind: 'Kustomization' | 'Component', accumulated: Manifest[] = []): Manifest[] {
  const kustomization = readKustomization(dir, kind);
  let manifests = [...accumulated];
  for (const resource of kustomization.resources ?? []) {
    const target = path.join(dir, resource);
    manifests.push(
      ...(statSync(target).isDirectory()
        ? build(target, 'Kustomization')
        : readManifests(path.relative(KUBERNETES_DIR, target))),
    );
  }
  for (const component of kustomization.components ?? []) {
    manifests = build(path.join(dir, component), 'Component', manifests);
  }
  for (const patch of kustomization.patches ?? []) manifests = applyPatch(manifests, patch, dir);
  for (const { object } of manifests) {
    if (kustomization.namespace && !CLUSTER_SCOPED.has(object.kind))
      object.metadata.namespace = kustomization.namespace;
    for (const label of kustomization.labels ?? []) {
      if (label.includeSelectors) throw new Error('kustomization.yaml: labels with includeSelectors are not supported');
      object.metadata.labels = { ...object.metadata.labels, ...label.pairs };
    }
    for (const container of containersOf(object)) {
      const image = kustomization.images?.find((candidate) => candidate.name === String(container.image).split(':')[0]);
      if (image) container.image = `${image.newName ?? image.name}:${image.newTag ?? 'latest'}`;
    }
  }
  return manifests;
}

/**
 * What `kubectl kustomize <dir>` renders (default: deploy/kubernetes), with the parts of kustomize these folders
 * use: resources (files and folders), components, patches (strategic merge, `$patch: delete`, JSON 6902 with a
 * target), namespace, labels and images. Any other kustomization field is refused rather than ignored.
 */
export function buildKustomization(dir = KUBERNETES_DIR): { kustomization: Kustomization; manifests: Manifest[] } {
  const manifests = build(dir, 'Kustomization').map((manifest) => ({
    ...manifest,
    object: structuredClone(manifest.object),
  }));
  return { kustomization: readKustomization(dir, 'Kustomization'), manifests };
}

/** A label selector as `kubectl -l` takes it: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. */
export function selectorMatches(selector: string, labels: Record<string, string> = {}): boolean {
  const terms = selector.match(/[^,(]+(?:\([^)]*\))?/g) ?? [];
  return terms.every((raw) => {
    const term = raw.trim();
    const set = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (set) {
      const values = set[3]!.split(',').map((value) => value.trim());
      const has = set[1]! in labels && values.includes(labels[set[1]!]!);
      return set[2] === 'in' ? has : !has;
    }
    const equality = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(term);
    if (equality) {
      const equal = labels[equality[1]!] === equality[3];
      return equality[2] === '!=' ? !equal : equal;
    }
    if (/^![\w./-]+$/.test(term)) return !(term.slice(1) in labels);
    if (/^[\w./-]+$/.test(term)) return term in labels;
    throw new Error(`label selector not understood: ${selector}`);
  });
}

/**
 * The kubernetes-models module of a kind: the core API's, or the Gateway API's or the Prometheus Operator's CRDs
 * (packages of their own), or CloudNativePG's Cluster, which has no package (a module of this folder).
 */
const modelModule = (apiVersion: string, kind: string) =>
  apiVersion === 'postgresql.cnpg.io/v1' && kind === 'Cluster'
    ? path.join(REPO_ROOT, 'scripts/lib/cloudnative-pg-cluster.ts')
    : apiVersion.startsWith('gateway.networking.k8s.io/')
      ? `@kubernetes-models/gateway-api/${apiVersion}/${kind}`
      : apiVersion.startsWith('monitoring.coreos.com/')
        ? `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`
        : `kubernetes-models/${apiVersion}/${kind}`;

const label = ({ file, object }: Manifest) => `${file}: ${object.kind}/${object.metadata?.name}`;

/** The JSON-schema check: kubernetes-models' generated validator for the object's kind. */
async function schemaProblems(manifest: Manifest): Promise<string[]> {
  const { apiVersion, kind } = manifest.object;
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    models = await import(modelModule(apiVersion, kind));
  } catch {
    return [`${label(manifest)}: no schema for apiVersion ${apiVersion}`];
  }
  const Model = models[kind];
  if (!Model) return [`${label(manifest)}: ${apiVersion} has no kind ${kind}`];
  try {
    new Model(manifest.object).validate();
    return [];
  } catch (error) {
    return [`${label(manifest)}: ${(error as Error).message}`];
  }
}

/** The unknown-field check: each object as a literal of its kind's generated interface, compiled. */
function unknownFieldProblems(manifests: Manifest[]): { manifest: Manifest | undefined; message: string }[] {
  const file = path.join(KUBERNETES_DIR, '__manifests__.ts');
  const starts: { offset: number; manifest: Manifest }[] = [];
  let source = '';
  manifests.forEach((manifest, index) => {
    const { apiVersion, kind } = manifest.object;
    source += `import type { I${kind} as T${index} } from '${modelModule(apiVersion, kind)}';\n`;
  });
  manifests.forEach((manifest, index) => {
    starts.push({ offset: source.length, manifest });
    source += `export const object${index}: T${index} = ${JSON.stringify(manifest.object, null, 2)};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const at = [...starts].reverse().find((start) => start.offset <= (diagnostic.start ?? 0));
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n').at(-1) ?? '';
    return { manifest: at?.manifest, message };
  });
}

/**
 * The problems of each set of objects (the base and each overlay). An object the sets share is checked once,
 * and the unknown-field check compiles one program for all of them, which is most of the time it takes.
 */
export async function validateObjectSets(sets: Manifest[][]): Promise<string[][]> {
  const keyOf = (manifest: Manifest) => `${manifest.file}\n${JSON.stringify(manifest.object)}`;
  const unique = new Map<string, Manifest>();
  for (const manifest of sets.flat()) if (!unique.has(keyOf(manifest))) unique.set(keyOf(manifest), manifest);
  const found = new Map<string, string[]>();
  for (const [key, manifest] of unique) found.set(key, await schemaProblems(manifest));
  const general: string[] = [];
  for (const { manifest, message } of unknownFieldProblems([...unique.values()])) {
    if (manifest) found.get(keyOf(manifest))!.push(`${label(manifest)}: ${message}`);
    else general.push(`manifests: ${message}`);
  }
  return sets.map((set) => [...set.flatMap((manifest) => found.get(keyOf(manifest)) ?? []), ...general]);
}

/**
 * deploy/kubernetes read as kubectl would apply it, and checked against Kubernetes' published API schemas.
 *
 * - `buildKustomization` does what `kubectl apply -k` does with the parts of kustomize the folder uses
 *   (resources, namespace, labels, images); any other kustomization field is refused rather than ignored.
 * - `validateObjects` checks every object twice against the kubernetes-models packages, which are generated
 *   from the official OpenAPI document: their JSON-schema validators (types, required fields, formats, enums)
 *   and their TypeScript interfaces, compiled with the objects as literals, so a field the API does not know
 *   (a typo such as `readinessprobe`) is an error as it is for the API server's strict field validation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { parseAllDocuments } from 'yaml';
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

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

const UNDERSTOOD = new Set(['apiVersion', 'kind', 'namespace', 'labels', 'resources', 'images']);
const CLUSTER_SCOPED = new Set(['Namespace', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass']);

/** Every container of a workload (Deployment, Job, …), init containers included. */
export function containersOf(object: KubernetesObject): IContainer[] {
  const pod = (object.spec as { template?: IPodTemplateSpec } | undefined)?.template?.spec;
  return pod ? [...(pod.initContainers ?? []), ...pod.containers] : [];
}

export function buildKustomization(): { kustomization: Kustomization; manifests: Manifest[] } {
  const [document] = parseAllDocuments(readFileSync(path.join(KUBERNETES_DIR, 'kustomization.yaml'), 'utf8'));
  const kustomization = document?.toJS() as Kustomization;
  const unknown = Object.keys(kustomization).filter((key) => !UNDERSTOOD.has(key));
  if (unknown.length > 0) throw new Error(`kustomization.yaml: ${unknown.join(', ')} not understood by this check`);
  if (kustomization.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || kustomization.kind !== 'Kustomization') {
    throw new Error('kustomization.yaml must be apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization');
  }
  const manifests = (kustomization.resources ?? []).flatMap(readManifests);
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
  return { kustomization, manifests };
}

const label = ({ file, object }: Manifest) => `${file}: ${object.kind}/${object.metadata?.name}`;

/** The JSON-schema check: kubernetes-models' generated validator for the object's kind. */
async function schemaProblems(manifest: Manifest): Promise<string[]> {
  const { apiVersion, kind } = manifest.object;
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    models = await import(`kubernetes-models/${apiVersion}/${kind}`);
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
function unknownFieldProblems(manifests: Manifest[]): string[] {
  const file = path.join(KUBERNETES_DIR, '__manifests__.ts');
  const starts: { offset: number; manifest: Manifest }[] = [];
  let source = '';
  manifests.forEach((manifest, index) => {
    const { apiVersion, kind } = manifest.object;
    source += `import type { I${kind} as T${index} } from 'kubernetes-models/${apiVersion}/${kind}';\n`;
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
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n').at(-1);
    return `${at ? label(at.manifest) : 'manifests'}: ${message}`;
  });
}

export async function validateObjects(manifests: Manifest[]): Promise<string[]> {
  const problems: string[] = [];
  for (const manifest of manifests) problems.push(...(await schemaProblems(manifest)));
  problems.push(...unknownFieldProblems(manifests));
  return problems;
}

/**
 * CloudNativePG's `Cluster` (postgresql.cnpg.io/v1) for the deploy checks, which kubernetes-models has no
 * package for: the fields of the operator's CRD that deploy/kubernetes-components/cloudnative-pg uses, with
 * their types and allowed values as the CRD declares them (CloudNativePG 1.25+, where `postgresql.synchronous`
 * and its `dataDurability` exist). A field not declared here fails the unknown-field check: add it from the
 * CRD (https://cloudnative-pg.io/documentation/current/cloudnative-pg.v1/) when the manifests need it.
 */
import type { IIoK8sApimachineryPkgApisMetaV1ObjectMeta } from '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta';
import type { IIoK8sApiCoreV1ResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';

export interface ICluster {
  apiVersion: 'postgresql.cnpg.io/v1';
  kind: 'Cluster';
  metadata: IIoK8sApimachineryPkgApisMetaV1ObjectMeta;
  spec: {
    instances: number;
    imageName?: string;
    primaryUpdateStrategy?: 'unsupervised' | 'supervised';
    primaryUpdateMethod?: 'switchover' | 'restart';
    postgresql?: {
      parameters?: Record<string, string>;
      synchronous?: { method: 'any' | 'first'; number: number; dataDurability?: 'required' | 'preferred' };
    };
    bootstrap?: { initdb?: { database?: string; owner?: string; secret?: { name: string } } };
    storage: { size?: string; storageClass?: string };
    affinity?: {
      enablePodAntiAffinity?: boolean;
      topologyKey?: string;
      podAntiAffinityType?: 'preferred' | 'required';
    };
    resources?: IIoK8sApiCoreV1ResourceRequirements;
  };
}

const QUANTITY = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;
const oneOf = (value: unknown, allowed: readonly string[], where: string) => {
  if (value !== undefined && !allowed.includes(value as string)) {
    throw new Error(`${where} must be one of ${allowed.join(', ')}`);
  }
};

/** The CRD's own rules for these fields (its OpenAPI schema and its CEL validations). */
export class Cluster {
  constructor(private readonly data: ICluster) {}

  validate() {
    const { metadata, spec } = this.data;
    if (!metadata?.name || !/^[a-z]([-a-z0-9]{0,48}[a-z0-9])?$/.test(metadata.name)) {
      throw new Error('metadata.name must be a DNS label of at most 50 characters');
    }
    if (!spec) throw new Error('spec is required');
    if (!Number.isInteger(spec.instances) || spec.instances < 1) throw new Error('spec.instances must be at least 1');
    if (!spec.storage?.size || !QUANTITY.test(spec.storage.size))
      throw new Error('spec.storage.size must be a quantity');
    oneOf(spec.primaryUpdateStrategy, ['unsupervised', 'supervised'], 'spec.primaryUpdateStrategy');
    oneOf(spec.primaryUpdateMethod, ['switchover', 'restart'], 'spec.primaryUpdateMethod');
    oneOf(spec.affinity?.podAntiAffinityType, ['preferred', 'required'], 'spec.affinity.podAntiAffinityType');
    const synchronous = spec.postgresql?.synchronous;
    if (synchronous) {
      oneOf(synchronous.method, ['any', 'first'], 'spec.postgresql.synchronous.method');
      oneOf(synchronous.dataDurability, ['required', 'preferred'], 'spec.postgresql.synchronous.dataDurability');
      if (!Number.isInteger(synchronous.number) || synchronous.number < 1 || synchronous.number >= spec.instances) {
        throw new Error('spec.postgresql.synchronous.number must be at least 1 and below spec.instances');
      }
    }
    for (const [name, value] of Object.entries(spec.postgresql?.parameters ?? {})) {
      if (typeof value !== 'string') throw new Error(`spec.postgresql.parameters.${name} must be a string`);
    }
  }
}

/**
 * The Secrets the operator makes for each Cluster among `objects`: `<name>-app`, the application owner's
 * credentials, with the connection URL under `uri` (host `<name>-rw`, the Service that follows the primary).
 */
export function operatorSecretsOf(
  objects: readonly { apiVersion?: string; kind: string; metadata: { name?: string } }[],
) {
  const secrets = new Map<string, Set<string>>();
  for (const object of objects) {
    if (object.apiVersion !== 'postgresql.cnpg.io/v1' || object.kind !== 'Cluster') continue;
    secrets.set(
      `${object.metadata.name}-app`,
      new Set(['username', 'password', 'host', 'port', 'dbname', 'uri', 'jdbc-uri', 'pgpass']),
    );
  }
  return secrets;
}

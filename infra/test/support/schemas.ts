/**
 * Schema validation of built objects with the models the npm registry ships: the Kubernetes API
 * (`kubernetes-models`: core, apps, batch, policy, autoscaling, networking), Gateway API
 * (`@kubernetes-models/gateway-api`), External Secrets (`@kubernetes-models/external-secrets`)
 * and the Prometheus Operator (`@kubernetes-models/prometheus-operator`). Each model's `validate()`
 * checks types, required fields, enumerations and formats against the OpenAPI schema; like the
 * schemas themselves it does not refuse unknown fields.
 */
import * as gatewayV1 from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';
import * as externalSecretsV1 from '@kubernetes-models/external-secrets/external-secrets.io/v1';
import * as monitoringV1 from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';

/** A model class: static apiVersion and kind, an instance that validates itself. */
interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: object): { validate(): void };
}

const isModelClass = (value: unknown): value is ModelClass =>
  typeof value === 'function' &&
  typeof (value as Partial<ModelClass>).apiVersion === 'string' &&
  typeof (value as Partial<ModelClass>).kind === 'string';

/** `<apiVersion> <kind>` → model, for every kind of the modules above. */
const models = new Map<string, ModelClass>(
  [
    coreV1,
    appsV1,
    batchV1,
    policyV1,
    autoscalingV2,
    networkingV1,
    gatewayV1,
    externalSecretsV1,
    monitoringV1,
  ]
    .flatMap((module) => Object.values(module))
    .filter(isModelClass)
    .map((model) => [`${model.apiVersion} ${model.kind}`, model]),
);

/** @returns whether a registry model exists for this apiVersion and kind */
export const hasRegistrySchema = (object: { apiVersion: string; kind: string }) =>
  models.has(`${object.apiVersion} ${object.kind}`);

/**
 * Validates one object against its registry schema.
 * @returns the schema's complaints (empty when valid)
 * @throws Error when no registry model exists for the object's apiVersion and kind
 */
export function registrySchemaErrors(object: { apiVersion: string; kind: string }): string[] {
  const model = models.get(`${object.apiVersion} ${object.kind}`);
  if (!model) throw new Error(`no registry schema for ${object.apiVersion} ${object.kind}`);
  try {
    new model(withUnwrappedSecretData(object)).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/**
 * A Secret's `data` without line breaks: kustomize wraps base64 values longer than 70 characters
 * over several lines, which the API server's base64 decoding ignores but the schema's `byte`
 * format does not.
 */
function withUnwrappedSecretData<T extends { apiVersion: string; kind: string }>(object: T): T {
  const data = (object as { data?: Record<string, string> }).data;
  if (object.apiVersion !== 'v1' || object.kind !== 'Secret' || !data) return object;
  return {
    ...object,
    data: Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, value.replace(/\s+/g, '')]),
    ),
  };
}

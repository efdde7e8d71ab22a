/**
 * The fields of the operators' custom resources, as their documentation gives them for the
 * versions docs/operations.md names: Strimzi 0.48 (kafka.strimzi.io/v1beta2: Kafka, KafkaNodePool,
 * KafkaTopic, KafkaUser; strimzi.io "Strimzi API reference"), CloudNativePG 1.27 with the Barman
 * Cloud plugin 0.7 (postgresql.cnpg.io/v1: Cluster, Database, Pooler, ScheduledBackup;
 * barmancloud.cnpg.io/v1: ObjectStore; cloudnative-pg.io "API reference"), the Keycloak Operator
 * 26.x (k8s.keycloak.org/v2alpha1: Keycloak, KeycloakRealmImport; keycloak.org/operator).
 *
 * No npm registry ships these CRDs' schemas, so this is the check instead: only the fields
 * written here (the part of each schema Raly uses or may soon), with their types and the
 * enumerations the documentation lists. An unknown field — a typo, a field of another version —
 * is an error, which the registry schemas of support/schemas.ts do not catch. What it cannot
 * know: defaults, cross-field rules and webhooks of the operators (they run only on a cluster).
 */

/** What a field holds. */
type Shape =
  | 'string'
  | 'number'
  | 'boolean'
  /** A configuration value: a string, number or boolean ('1Gi', 2, false). */
  | 'scalar'
  /** Free-form, checked by the operator (pod templates, realm representations…). */
  | 'any'
  | Fields
  | ListOf
  | MapOf
  | OneOf;

interface Fields {
  readonly [field: string]: Shape;
}

class ListOf {
  constructor(readonly item: Shape) {}
}
class MapOf {
  constructor(readonly value: Shape) {}
}
class OneOf {
  constructor(readonly values: readonly (string | number | boolean)[]) {}
}

const list = (item: Shape) => new ListOf(item);
const map = (value: Shape = 'scalar') => new MapOf(value);
const oneOf = (...values: (string | number | boolean)[]) => new OneOf(values);

const secretKeySelector: Fields = { name: 'string', key: 'string' };

const strimziAclOperation = oneOf(
  'Read',
  'Write',
  'Create',
  'Delete',
  'Alter',
  'Describe',
  'ClusterAction',
  'AlterConfigs',
  'DescribeConfigs',
  'IdempotentWrite',
  'All',
);

/** `<apiVersion> <kind>` → the shape of `spec`. */
const specs: Record<string, Fields> = {
  'kafka.strimzi.io/v1beta2 Kafka': {
    kafka: {
      version: 'string',
      metadataVersion: 'string',
      rack: { topologyKey: 'string' },
      listeners: list({
        name: 'string',
        port: 'number',
        type: oneOf('internal', 'route', 'loadbalancer', 'nodeport', 'ingress', 'cluster-ip'),
        tls: 'boolean',
        authentication: { type: oneOf('tls', 'scram-sha-512', 'oauth', 'custom') },
        configuration: 'any',
        networkPolicyPeers: list('any'),
      }),
      authorization: {
        type: oneOf('simple', 'opa', 'keycloak', 'custom'),
        superUsers: list('string'),
      },
      config: map(),
      resources: 'any',
      jvmOptions: 'any',
      logging: 'any',
      metricsConfig: {
        type: oneOf('jmxPrometheusExporter'),
        valueFrom: { configMapKeyRef: { name: 'string', key: 'string', optional: 'boolean' } },
      },
      template: 'any',
    },
    entityOperator: { topicOperator: 'any', userOperator: 'any', template: 'any' },
    kafkaExporter: {
      topicRegex: 'string',
      groupRegex: 'string',
      resources: 'any',
      template: 'any',
    },
    cruiseControl: 'any',
    clusterCa: 'any',
    clientsCa: 'any',
  },
  'kafka.strimzi.io/v1beta2 KafkaNodePool': {
    replicas: 'number',
    roles: list(oneOf('controller', 'broker')),
    storage: {
      type: oneOf('jbod', 'ephemeral', 'persistent-claim'),
      volumes: list({
        id: 'number',
        type: oneOf('ephemeral', 'persistent-claim'),
        size: 'string',
        class: 'string',
        deleteClaim: 'boolean',
        kraftMetadata: oneOf('shared'),
      }),
    },
    resources: 'any',
    jvmOptions: 'any',
    template: 'any',
  },
  'kafka.strimzi.io/v1beta2 KafkaTopic': {
    topicName: 'string',
    partitions: 'number',
    replicas: 'number',
    config: map(),
  },
  'kafka.strimzi.io/v1beta2 KafkaUser': {
    authentication: {
      type: oneOf('tls', 'tls-external', 'scram-sha-512'),
      password: { valueFrom: { secretKeyRef: secretKeySelector } },
    },
    authorization: {
      type: oneOf('simple'),
      acls: list({
        resource: {
          type: oneOf('topic', 'group', 'cluster', 'transactionalId'),
          name: 'string',
          patternType: oneOf('literal', 'prefix'),
        },
        operations: list(strimziAclOperation),
        host: 'string',
        type: oneOf('allow', 'deny'),
      }),
    },
    quotas: 'any',
    template: 'any',
  },
  'postgresql.cnpg.io/v1 Cluster': {
    instances: 'number',
    imageName: 'string',
    primaryUpdateStrategy: oneOf('unsupervised', 'supervised'),
    postgresql: { parameters: map('string'), pg_hba: list('string') },
    storage: { size: 'string', storageClass: 'string' },
    walStorage: { size: 'string', storageClass: 'string' },
    resources: 'any',
    affinity: {
      enablePodAntiAffinity: 'boolean',
      podAntiAffinityType: oneOf('preferred', 'required'),
      topologyKey: 'string',
      nodeSelector: map('string'),
      tolerations: list('any'),
    },
    managed: {
      roles: list({
        name: 'string',
        ensure: oneOf('present', 'absent'),
        login: 'boolean',
        passwordSecret: { name: 'string' },
        inRoles: list('string'),
        connectionLimit: 'number',
      }),
    },
    plugins: list({ name: 'string', isWALArchiver: 'boolean', parameters: map('string') }),
    bootstrap: 'any',
    externalClusters: list('any'),
    monitoring: 'any',
  },
  'postgresql.cnpg.io/v1 Database': {
    name: 'string',
    owner: 'string',
    cluster: { name: 'string' },
    ensure: oneOf('present', 'absent'),
    databaseReclaimPolicy: oneOf('retain', 'delete'),
    /** Declarative extensions (CloudNativePG ≥ 1.26), created by the operator as superuser. */
    extensions: list({
      name: 'string',
      ensure: oneOf('present', 'absent'),
      version: 'string',
      schema: 'string',
    }),
  },
  'postgresql.cnpg.io/v1 Pooler': {
    cluster: { name: 'string' },
    instances: 'number',
    type: oneOf('rw', 'ro', 'r'),
    pgbouncer: {
      poolMode: oneOf('session', 'transaction'),
      parameters: map('string'),
      authQuerySecret: { name: 'string' },
      authQuery: 'string',
    },
    template: 'any',
    monitoring: 'any',
  },
  'postgresql.cnpg.io/v1 ScheduledBackup': {
    schedule: 'string',
    backupOwnerReference: oneOf('none', 'self', 'cluster'),
    cluster: { name: 'string' },
    method: oneOf('barmanObjectStore', 'volumeSnapshot', 'plugin'),
    pluginConfiguration: { name: 'string', parameters: map('string') },
    immediate: 'boolean',
    suspend: 'boolean',
  },
  'barmancloud.cnpg.io/v1 ObjectStore': {
    configuration: {
      destinationPath: 'string',
      endpointURL: 'string',
      s3Credentials: {
        accessKeyId: secretKeySelector,
        secretAccessKey: secretKeySelector,
        inheritFromIAMRole: 'boolean',
      },
      wal: { compression: oneOf('gzip', 'bzip2', 'snappy'), maxParallel: 'number' },
      data: { compression: oneOf('gzip', 'bzip2', 'snappy'), jobs: 'number' },
    },
    retentionPolicy: 'string',
  },
  'k8s.keycloak.org/v2alpha1 Keycloak': {
    instances: 'number',
    image: 'string',
    db: {
      vendor: oneOf('postgres', 'mysql', 'mariadb', 'mssql', 'oracle', 'dev-file'),
      host: 'string',
      port: 'number',
      database: 'string',
      schema: 'string',
      usernameSecret: secretKeySelector,
      passwordSecret: secretKeySelector,
      poolInitialSize: 'number',
      poolMinSize: 'number',
      poolMaxSize: 'number',
    },
    http: { httpEnabled: 'boolean', httpPort: 'number', httpsPort: 'number', tlsSecret: 'string' },
    hostname: {
      hostname: 'string',
      admin: 'string',
      strict: 'boolean',
      backchannelDynamic: 'boolean',
    },
    proxy: { headers: oneOf('forwarded', 'xforwarded') },
    ingress: { enabled: 'boolean', className: 'string', annotations: map('string') },
    bootstrapAdmin: { user: { secret: 'string' }, service: { secret: 'string' } },
    additionalOptions: list({ name: 'string', value: 'string', secret: secretKeySelector }),
    resources: 'any',
    features: 'any',
    scheduling: 'any',
    unsupported: 'any',
  },
  'k8s.keycloak.org/v2alpha1 KeycloakRealmImport': {
    keycloakCRName: 'string',
    realm: 'any',
    placeholders: map({ secret: secretKeySelector }),
    resources: 'any',
  },
};

const keyOf = (object: { apiVersion: string; kind: string }) =>
  `${object.apiVersion} ${object.kind}`;

/** @returns whether this module knows the operator resource's apiVersion and kind */
export const hasOperatorShape = (object: { apiVersion: string; kind: string }) =>
  keyOf(object) in specs;

/**
 * Checks an operator resource's `spec` against the documented fields.
 * @returns the complaints, each naming the field path (empty when it conforms)
 * @throws Error when the apiVersion and kind are not one of this module's
 */
export function operatorShapeErrors(object: {
  apiVersion: string;
  kind: string;
  spec?: unknown;
}): string[] {
  const shape = specs[keyOf(object)];
  if (!shape) throw new Error(`no documented fields for ${object.apiVersion} ${object.kind}`);
  if (object.spec === undefined) return ['spec: missing'];
  return check(object.spec, shape, 'spec');
}

function check(value: unknown, shape: Shape, at: string): string[] {
  if (shape === 'any') return [];
  if (shape === 'scalar')
    return ['string', 'number', 'boolean'].includes(typeof value)
      ? []
      : [`${at}: expected a string, number or boolean`];
  if (shape === 'string' || shape === 'number' || shape === 'boolean')
    return typeof value === shape
      ? []
      : [`${at}: expected a ${shape}, got ${JSON.stringify(value)}`];
  if (shape instanceof OneOf)
    return shape.values.includes(value as string)
      ? []
      : [`${at}: ${JSON.stringify(value)} is not one of ${shape.values.join(', ')}`];
  if (shape instanceof ListOf)
    return Array.isArray(value)
      ? value.flatMap((item, index) => check(item, shape.item, `${at}[${index}]`))
      : [`${at}: expected a list`];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${at}: expected an object`];
  const entries = Object.entries(value);
  if (shape instanceof MapOf)
    return entries.flatMap(([key, item]) => check(item, shape.value, `${at}.${key}`));
  return entries.flatMap(([key, item]) =>
    key in shape
      ? check(item, shape[key]!, `${at}.${key}`)
      : [`${at}.${key}: not a documented field`],
  );
}

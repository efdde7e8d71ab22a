/**
 * The Kubernetes overlays as built (kustomize.ts), once per test file, and what the overlay tests
 * read from them: the apps and their Kafka flows, pod templates and containers, the Secrets an
 * overlay will hold, the realm import's clients, `raly-config`, and the topics an app's code
 * writes and reads.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { topics } from '@raly/contracts/events';
import {
  buildOverlay,
  ofKind,
  overlayNames,
  podTemplateOf,
  repository,
  type K8sObject,
  type OverlayName,
} from './kustomize';

export const built = Object.fromEntries(
  overlayNames.map((name) => [name, buildOverlay(name)]),
) as Record<OverlayName, K8sObject[]>;

/** Raly's apps: each a Deployment of that name in k8s/base. */
export const apps = [
  'identity-profile',
  'brand',
  'media',
  'offers',
  'collaborations',
  'notifications',
  'moderation',
  'bff',
  'web',
] as const;
export const nodeApps = apps.filter((app) => app !== 'web');
export const servicesWithDatabase = [
  'identity-profile',
  'brand',
  'media',
  'offers',
  'collaborations',
  'notifications',
  'moderation',
];

/**
 * Which topics each app writes (its outbox) and reads (its consumer group, named like the app).
 * The KafkaUsers' ACLs must grant exactly these; the code must use exactly these.
 */
export const flows: Record<string, { writes: string[]; reads: string[] }> = {
  'identity-profile': {
    writes: [topics.identityUser, topics.identityAudit],
    reads: [topics.mediaImage],
  },
  brand: {
    writes: [topics.brandBrand, topics.brandTeam, topics.brandAudit],
    reads: [topics.mediaImage],
  },
  media: { writes: [topics.mediaImage], reads: [topics.identityUser, topics.brandBrand] },
  offers: {
    writes: [topics.offersOffer, topics.offersApplication],
    reads: [topics.identityUser, topics.brandBrand],
  },
  collaborations: {
    writes: [topics.collaborationsCollaboration, topics.collaborationsMessage],
    reads: [topics.offersApplication],
  },
  notifications: {
    writes: [topics.notificationsInbox],
    reads: [
      topics.identityUser,
      topics.offersOffer,
      topics.offersApplication,
      topics.collaborationsCollaboration,
      topics.collaborationsMessage,
      topics.livePresence,
      topics.moderationReport,
    ],
  },
  moderation: {
    writes: [topics.moderationReport, topics.moderationAudit],
    reads: [topics.identityAudit, topics.brandAudit],
  },
  bff: {
    writes: [topics.livePresence],
    reads: [
      topics.identityUser,
      topics.brandBrand,
      topics.brandTeam,
      topics.offersOffer,
      topics.offersApplication,
      topics.collaborationsCollaboration,
      topics.collaborationsMessage,
      topics.notificationsInbox,
      topics.moderationReport,
    ],
  },
};

/** Secrets the operators write themselves (not ExternalSecrets), by name → keys. */
export const OPERATOR_SECRETS: Record<string, string[]> = {
  // Strimzi's cluster operator: the CA that signed the brokers' certificates.
  'raly-kafka-cluster-ca-cert': ['ca.crt'],
};

/** @returns every pod template of the overlay with the name of its owner */
export const podTemplates = (objects: K8sObject[]) =>
  objects
    .filter((object) => podTemplateOf(object)?.spec)
    .map((object) => ({
      owner: `${object.kind} ${object.metadata.name}`,
      template: podTemplateOf(object)!,
    }));

export type Container = {
  name: string;
  image: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  securityContext?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
};

export const containersOf = (template: {
  spec: { containers: Container[]; initContainers?: Container[] };
}) => [...(template.spec.initContainers ?? []), ...template.spec.containers];

/** A generated name (`raly-config-5f7h…`) back to the name in the manifests. */
export const baseName = (name: string) => name.replace(/-[a-z0-9]{10}$/, '');

/** @returns the Secrets of the overlay: name → keys they will hold once the cluster has them */
export function secretSources(objects: K8sObject[]): Map<string, Set<string>> {
  const sources = new Map<string, Set<string>>();
  for (const secret of ofKind(objects, 'Secret'))
    sources.set(
      secret.metadata.name,
      new Set(Object.keys({ ...secret.data, ...secret.stringData })),
    );
  for (const external of ofKind(objects, 'ExternalSecret')) {
    const target = external.spec.target as {
      name?: string;
      template?: { data?: Record<string, string> };
    };
    const keys = target.template?.data
      ? Object.keys(target.template.data)
      : (external.spec.data as { secretKey: string }[]).map((entry) => entry.secretKey);
    sources.set(target.name ?? external.metadata.name, new Set(keys));
  }
  for (const [name, keys] of Object.entries(OPERATOR_SECRETS)) sources.set(name, new Set(keys));
  return sources;
}

/** A client of the realm import, with the fields the policy tests read. */
export type RealmClient = {
  clientId: string;
  secret?: string;
  publicClient?: boolean;
  standardFlowEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  protocolMappers?: { protocolMapper: string; config: Record<string, string> }[];
};

/** The clients of an overlay's `KeycloakRealmImport` and the Secret keys its placeholders name. */
export function realmClientsOf(objects: K8sObject[]) {
  const [realmImport] = ofKind(objects, 'KeycloakRealmImport');
  return {
    clients: realmImport!.spec.realm.clients as RealmClient[],
    placeholders: realmImport!.spec.placeholders as Record<
      string,
      { secret: { name: string; key: string } }
    >,
  };
}

/** The Secret (name without kustomize's hash) and key a Deployment's env variable is taken from. */
export function secretReferenceOf(objects: K8sObject[], app: string, variable: string) {
  const deployment = ofKind(objects, 'Deployment').find((object) => object.metadata.name === app);
  assert.ok(deployment, `Deployment ${app}`);
  const [container] = containersOf(podTemplateOf(deployment)!);
  const reference = container!.env?.find((entry) => entry.name === variable)?.valueFrom
    ?.secretKeyRef;
  return reference && { name: baseName(reference.name), key: reference.key };
}

/** @returns the `raly-config` literals of the overlay's build (the merged ConfigMap) */
export const configOf = (objects: K8sObject[]) => {
  const config = ofKind(objects, 'ConfigMap').find(
    (object) => baseName(object.metadata.name) === 'raly-config',
  );
  assert.ok(config, 'the ConfigMap raly-config');
  return config.data!;
};

/**
 * The topics an app's code writes (`topic: topics.X` in its sources, the outbox events) and
 * subscribes to (`on(topics.X, …)` in src/messaging/subscriptions.ts).
 * @returns sorted topic names; empty lists when the app's sources are not on this branch
 */
export function codeFlows(app: string): { writes: string[]; reads: string[] } {
  const root =
    app === 'bff'
      ? path.join(repository, 'bff', 'src')
      : path.join(repository, 'services', app, 'src');
  if (!existsSync(root)) return { writes: [], reads: [] };
  const topicOf = (key: string) => {
    const topic = (topics as Record<string, string>)[key];
    assert.ok(topic, `${app}: topics.${key} is not a contract topic`);
    return topic;
  };
  const sources = (
    readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]
  )
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => ({
      file: path.join(entry.parentPath, entry.name),
      text: readFileSync(path.join(entry.parentPath, entry.name), 'utf8'),
    }));
  const writes = sources.flatMap(({ text }) =>
    [...text.matchAll(/\btopic:\s*topics\.(\w+)/g)].map((match) => topicOf(match[1]!)),
  );
  const reads = sources
    .filter(({ file }) => file.endsWith(path.join('messaging', 'subscriptions.ts')))
    .flatMap(({ text }) =>
      [...text.matchAll(/\bon(?:<[^>]*>)?\(\s*topics\.(\w+)/g)].map((match) => topicOf(match[1]!)),
    );
  return { writes: [...new Set(writes)].sort(), reads: [...new Set(reads)].sort() };
}

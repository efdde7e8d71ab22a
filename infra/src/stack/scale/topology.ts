/**
 * The scaled local topology as a whole: a 3-node Kafka cluster,
 * HAProxy, Prometheus and Zipkin as stack components, and the app instances
 * (3 BFF replicas, 2 of each service, the web app) with the environment each
 * gets. `npm start -- --scale` (../../cli/start.ts) runs it; `stack status`
 * reports it. It has its own Redis (./redis-server.ts), which the chaos run
 * kills; Postgres, Keycloak, S3Mock and MailDev are the plain stack's, shared.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_PATH } from '@raly/contracts/live';
import type { EnsureOutcome, StackComponent } from '../component';
import { stackEnvironment, type StackEndpoints } from '../endpoints';
import { dataDirectory } from '../paths';
import { isAlive, readRunRecord } from '../processes';
import { httpAnswers } from '../probes';
import { host } from '../settings';
import type { WebServerVariables } from '../web-nginx';
import { haproxyComponent, type LoadBalancerPlan, type Upstream } from './haproxy';
import { kafkaCluster, type KafkaCluster } from './kafka-cluster';
import { prometheusComponent, type ScrapePlan } from './prometheus';
import { redisServerComponent } from './redis-server';
import {
  scaleAppInstances,
  scaleApplicationName,
  scaleMetricsPath,
  scalePortsFromEnv,
  scaleTopicLayout,
  zipkinSpansUrl,
  type AppInstance,
  type ScalePorts,
  type ScaledWorkspace,
} from './settings';
import { zipkinComponent } from './zipkin';

/** The run record that says a scaled topology was started (`stack status` then lists it). */
export const scaleRecordName = 'scale';

const portsFile = () => join(dataDirectory('scale'), 'ports.json');

/** Keeps the ports of a started scaled topology, so `stack status` from another terminal finds them. */
export function saveScalePorts(ports: ScalePorts): void {
  writeFileSync(portsFile(), `${JSON.stringify(ports, null, 2)}\n`);
}

/**
 * The ports of the last started scaled topology, else those of the environment
 * (which also fill in any port a file of an older topology lacks).
 */
export function loadScalePorts(): ScalePorts {
  const fromEnv = scalePortsFromEnv();
  return existsSync(portsFile())
    ? { ...fromEnv, ...(JSON.parse(readFileSync(portsFile(), 'utf8')) as Partial<ScalePorts>) }
    : fromEnv;
}

/** Whether a `npm start -- --scale` is running (its run record's process is alive). */
export function scaleRunning(): boolean {
  const record = readRunRecord(scaleRecordName);
  return record?.kind === 'process' && isAlive(record.pid);
}

/**
 * The scaled topology's app instances (and the web app) as status entries:
 * healthy when the readiness probe answers 2xx; `record` is the run record
 * `npm start` keeps for the app (`app-<name>`).
 */
export function scaleAppProbes(
  ports: ScalePorts,
): { name: string; address: string; record: string; isHealthy: () => Promise<boolean> }[] {
  return [
    ...scaleAppInstances(ports).map((instance) => ({
      name: instance.name,
      address: `${host}:${instance.port}`,
      record: `app-${instance.name}`,
      isHealthy: () => httpAnswers(instance.readinessUrl),
    })),
    {
      name: 'web',
      address: `${host}:${ports.web}`,
      record: 'app-web',
      isHealthy: () => httpAnswers(`http://localhost:${ports.web}/`),
    },
  ];
}

const serviceEntries: [ScaledWorkspace, keyof ScalePorts, keyof ScalePorts][] = [
  ['services/identity-profile', 'identity', 'identityEntry'],
  ['services/brand', 'brand', 'brandEntry'],
  ['services/media', 'media', 'mediaEntry'],
  ['services/offers', 'offers', 'offersEntry'],
  ['services/collaborations', 'collaborations', 'collaborationsEntry'],
  ['services/notifications', 'notifications', 'notificationsEntry'],
  ['services/moderation', 'moderation', 'moderationEntry'],
];

/** The consumer groups of the apps (the BFF's KAFKA_GROUP_ID default, each service's name). */
const scaleConsumerGroups = [
  'bff',
  'identity-profile',
  'brand',
  'media',
  'offers',
  'collaborations',
  'notifications',
  'moderation',
];

/** The entry's origin, the one URL of the scaled topology to open in a browser. */
export function scaleEntryUrl(ports: ScalePorts): string {
  return `http://localhost:${ports.entry}`;
}

/** What HAProxy routes in the scaled topology (./haproxy.ts). */
export function scaleLoadBalancerPlan(
  ports: ScalePorts,
  prometheusExporter: boolean,
): LoadBalancerPlan {
  const instances = scaleAppInstances(ports);
  const upstreams = (workspace: ScaledWorkspace): Upstream[] =>
    instances
      .filter((instance) => instance.workspace === workspace)
      .map((instance) => ({ name: instance.name, port: instance.port }));
  return {
    entryPort: ports.entry,
    bff: upstreams('bff'),
    web: { name: 'web', port: ports.web },
    services: serviceEntries.map(([workspace, , entry]) => ({
      name: workspace.replace(/^services\//, ''),
      port: ports[entry] as number,
      instances: upstreams(workspace),
    })),
    statsPort: ports.loadBalancerStats,
    livePath: LIVE_PATH,
    apiPath: '/api',
    prometheusExporter,
  };
}

/** What Prometheus scrapes: every app instance on its port, every Kafka node, HAProxy, Zipkin and itself. */
export function scaleScrapePlan(ports: ScalePorts, metricsPath = scaleMetricsPath()): ScrapePlan {
  return {
    metricsPath,
    targets: [
      ...scaleAppInstances(ports).map((instance) => ({
        job: instance.workspace.replace(/^services\//, ''),
        name: instance.name,
        port: instance.port,
      })),
      ...ports.kafkaMetrics.map((port, index) => ({
        job: 'kafka',
        name: `kafka-scale-${index + 1}`,
        port,
        metricsPath: '/metrics',
      })),
      { job: 'haproxy', name: 'haproxy', port: ports.loadBalancerStats, metricsPath: '/metrics' },
      { job: 'zipkin', name: 'zipkin', port: ports.zipkin, metricsPath: '/prometheus' },
      { job: 'prometheus', name: 'prometheus', port: ports.prometheus, metricsPath: '/metrics' },
    ],
  };
}

/**
 * The environment of one app instance: the plain stack's variables (Postgres,
 * Keycloak, S3, SMTP), with the topology's own Redis, the cluster's brokers,
 * its own PORT, the load balancer's entries as the other services' and the
 * BFF's addresses, the Zipkin exporter's endpoint, and a Postgres
 * `application_name` of its own in DATABASE_URL ({@link scaleApplicationName}).
 */
export function scaleInstanceEnvironment(
  ports: ScalePorts,
  endpoints: StackEndpoints,
  brokers: string[],
  instance: Pick<AppInstance, 'name' | 'workspace' | 'port'>,
): Record<string, string> {
  const entry = scaleEntryUrl(ports);
  const environment = stackEnvironment(
    { ...endpoints, kafkaBrokers: brokers, redisUrl: `redis://${host}:${ports.redis}` },
    instance.workspace,
  );
  const databaseUrl = environment.DATABASE_URL ? new URL(environment.DATABASE_URL) : undefined;
  databaseUrl?.searchParams.set(
    'application_name',
    scaleApplicationName(ports.entry, instance.name),
  );
  return {
    ...environment,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl.toString() } : {}),
    PORT: String(instance.port),
    BFF_URL: `http://${host}:${ports.entry}`,
    IDENTITY_URL: `http://${host}:${ports.identityEntry}`,
    BRAND_URL: `http://${host}:${ports.brandEntry}`,
    MEDIA_URL: `http://${host}:${ports.mediaEntry}`,
    OFFERS_URL: `http://${host}:${ports.offersEntry}`,
    COLLABORATIONS_URL: `http://${host}:${ports.collaborationsEntry}`,
    NOTIFICATIONS_URL: `http://${host}:${ports.notificationsEntry}`,
    MODERATION_URL: `http://${host}:${ports.moderationEntry}`,
    WEB_URL: entry,
    CORS_ORIGIN: `${entry},http://${host}:${ports.entry}`,
    // The BFF sees clients through HAProxy on loopback, which sets X-Forwarded-For.
    ...(instance.workspace === 'bff' ? { TRUST_PROXY: 'loopback' } : {}),
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: zipkinSpansUrl(ports),
    OTEL_SERVICE_NAME: instance.workspace.replace(/^services\//, ''),
    OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance.name}`,
  };
}

/**
 * The SPA's runtime configuration behind the entry (web/nginx.conf's
 * variables): the BFF on the same origin (HAProxy routes `/api` and
 * `/live`), the local backend, the staff console without sign-in.
 */
export function scaleWebServerVariables(): WebServerVariables {
  return {
    BFF_PUBLIC_URL: '',
    BACKEND_ENV: 'local',
    CONSOLE_KEYCLOAK_URL: '',
    CONSOLE_REALM: 'raly',
    CONSOLE_CLIENT_ID: 'raly-console',
  };
}

/** The scaled topology's stack components, built from its ports. */
export interface ScaleTopology {
  ports: ScalePorts;
  kafka: KafkaCluster;
  loadBalancer: StackComponent;
  prometheus: StackComponent;
  zipkin: StackComponent;
  /** The topology's own redis-server. */
  redis: StackComponent;
  /** Every component: Kafka nodes, Redis, Zipkin, Prometheus, HAProxy. */
  components: StackComponent[];
  /**
   * Starts (or reuses) them all and creates the topics (RF 3, min ISR 2, 6 partitions).
   * @param onEnsured told of each component as soon as it is healthy (see KafkaCluster.ensure)
   * @throws Error naming every component that could not be started
   */
  ensure(
    onEnsured?: (name: string, outcome: EnsureOutcome) => void,
  ): Promise<Record<string, EnsureOutcome>>;
}

/** The scaled topology's components on the given ports; nothing starts until `ensure()`. */
export function scaleTopology(ports: ScalePorts): ScaleTopology {
  const kafka = kafkaCluster({
    name: 'kafka-scale',
    nodes: ports.kafka.map((port, index) => ({
      id: index + 1,
      port,
      controllerPort: ports.kafkaController[index]!,
      metricsPort: ports.kafkaMetrics[index]!,
    })),
    dataRoot: dataDirectory('kafka-scale'),
    heapMb: 384,
    replicationFactor: scaleTopicLayout.replicationFactor,
    minInsyncReplicas: Number(scaleTopicLayout.configs['min.insync.replicas']),
    partitions: scaleTopicLayout.partitions,
  });
  const zipkin = zipkinComponent('zipkin', ports.zipkin);
  const redis = redisServerComponent('redis-scale', ports.redis, dataDirectory('redis-scale'));
  const prometheus = prometheusComponent(
    'prometheus',
    dataDirectory('prometheus'),
    ports.prometheus,
    () => scaleScrapePlan(ports),
  );
  const loadBalancer = haproxyComponent(
    'haproxy',
    dataDirectory('haproxy'),
    (exporter) => scaleLoadBalancerPlan(ports, exporter),
    ports.loadBalancerStats,
  );
  return {
    ports,
    kafka,
    loadBalancer,
    prometheus,
    zipkin,
    redis,
    components: [...kafka.nodes, redis, loadBalancer, prometheus, zipkin],
    async ensure(onEnsured) {
      const outcome: Record<string, EnsureOutcome> = {};
      const ensured = (name: string, result: EnsureOutcome) => {
        outcome[name] = result;
        onEnsured?.(name, result);
      };
      const results = await Promise.allSettled([
        (async () => {
          await kafka.ensure(ensured);
          await kafka.ensureTopics({
            ...scaleTopicLayout,
            configs: { ...scaleTopicLayout.configs },
          });
          await kafka.awaitGroupCoordinators(scaleConsumerGroups);
        })(),
        ...[redis, zipkin, prometheus, loadBalancer].map(async (component) =>
          ensured(component.name, await component.ensure()),
        ),
      ]);
      const failures = results.flatMap((result) =>
        result.status === 'rejected' ? [(result.reason as Error).message] : [],
      );
      if (failures.length > 0) throw new Error(failures.join('\n'));
      return outcome;
    },
  };
}

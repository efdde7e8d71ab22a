/**
 * The scaled local topology (`npm start -- --scale`): its ports,
 * each overridable by an environment variable, the app instances it runs and
 * the Kafka topic layout. Defaults stay clear of the plain stack's ports
 * (../settings.ts) so both port plans never collide; infra/README.md has the table.
 */
import { host } from '../settings';

/** Every port of the scaled topology (127.0.0.1). Lists have one port per instance. */
export interface ScalePorts {
  /** Client listeners of the 3 Kafka nodes. */
  kafka: number[];
  /** Controller (KRaft quorum) listeners of the same 3 nodes. */
  kafkaController: number[];
  /** Prometheus metrics (JMX exporter) of the same 3 nodes. */
  kafkaMetrics: number[];
  /** The 3 BFF replicas (HTTP + socket.io). */
  bff: number[];
  /** 2 instances of each service. */
  identity: number[];
  brand: number[];
  media: number[];
  offers: number[];
  collaborations: number[];
  notifications: number[];
  moderation: number[];
  /** The web app's Vite dev server (behind the load balancer). */
  web: number;
  /** The load balancer's entry: the SPA, `/api` and `/live`. */
  entry: number;
  /** The load balancer's internal entries in front of each service's instances (what the BFF calls). */
  identityEntry: number;
  brandEntry: number;
  mediaEntry: number;
  offersEntry: number;
  collaborationsEntry: number;
  notificationsEntry: number;
  moderationEntry: number;
  /** HAProxy's statistics page (`/stats`), health (`/health`) and metrics (`/metrics`). */
  loadBalancerStats: number;
  prometheus: number;
  zipkin: number;
  /** The topology's own Redis (read model, socket.io adapter, rate limits of its BFF replicas). */
  redis: number;
}

/** The default ports (infra/README.md "Scaled topology"). */
export const scalePortDefaults: ScalePorts = {
  kafka: [29092, 29093, 29094],
  kafkaController: [29192, 29193, 29194],
  kafkaMetrics: [29292, 29293, 29294],
  bff: [4100, 4101, 4102],
  identity: [4111, 4112],
  brand: [4121, 4122],
  media: [4131, 4132],
  offers: [4141, 4142],
  collaborations: [4151, 4152],
  notifications: [4161, 4162],
  moderation: [4171, 4172],
  web: 5174,
  entry: 8088,
  identityEntry: 4211,
  brandEntry: 4212,
  mediaEntry: 4213,
  offersEntry: 4214,
  collaborationsEntry: 4215,
  notificationsEntry: 4216,
  moderationEntry: 4217,
  loadBalancerStats: 8404,
  prometheus: 9490,
  zipkin: 9411,
  redis: 6389,
};

/** The environment variable that overrides each port (a comma-separated list for the instance lists). */
export const scalePortVariables: Record<keyof ScalePorts, string> = {
  kafka: 'RALY_SCALE_KAFKA_PORTS',
  kafkaController: 'RALY_SCALE_KAFKA_CONTROLLER_PORTS',
  kafkaMetrics: 'RALY_SCALE_KAFKA_METRICS_PORTS',
  bff: 'RALY_SCALE_BFF_PORTS',
  identity: 'RALY_SCALE_IDENTITY_PORTS',
  brand: 'RALY_SCALE_BRAND_PORTS',
  media: 'RALY_SCALE_MEDIA_PORTS',
  offers: 'RALY_SCALE_OFFERS_PORTS',
  collaborations: 'RALY_SCALE_COLLABORATIONS_PORTS',
  notifications: 'RALY_SCALE_NOTIFICATIONS_PORTS',
  moderation: 'RALY_SCALE_MODERATION_PORTS',
  web: 'RALY_SCALE_WEB_PORT',
  entry: 'RALY_SCALE_ENTRY_PORT',
  identityEntry: 'RALY_SCALE_IDENTITY_ENTRY_PORT',
  brandEntry: 'RALY_SCALE_BRAND_ENTRY_PORT',
  mediaEntry: 'RALY_SCALE_MEDIA_ENTRY_PORT',
  offersEntry: 'RALY_SCALE_OFFERS_ENTRY_PORT',
  collaborationsEntry: 'RALY_SCALE_COLLABORATIONS_ENTRY_PORT',
  notificationsEntry: 'RALY_SCALE_NOTIFICATIONS_ENTRY_PORT',
  moderationEntry: 'RALY_SCALE_MODERATION_ENTRY_PORT',
  loadBalancerStats: 'RALY_SCALE_LB_STATS_PORT',
  prometheus: 'RALY_SCALE_PROMETHEUS_PORT',
  zipkin: 'RALY_SCALE_ZIPKIN_PORT',
  redis: 'RALY_SCALE_REDIS_PORT',
};

function parsePort(text: string, variable: string): number {
  const port = Number(text.trim());
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${variable}: "${text}" is not a port (1-65535)`);
  return port;
}

/**
 * The scaled topology's ports: the defaults, each replaced by its variable
 * of {@link scalePortVariables} when set.
 * @throws Error naming the variable when a value is no port, a list has the
 *   wrong number of ports (3 Kafka nodes, 3 BFF replicas, 2 per service), or
 *   two ports are the same
 */
export function scalePortsFromEnv(env: NodeJS.ProcessEnv = process.env): ScalePorts {
  const ports = { ...scalePortDefaults } as Record<keyof ScalePorts, number | number[]>;
  for (const key of Object.keys(scalePortDefaults) as (keyof ScalePorts)[]) {
    const variable = scalePortVariables[key];
    const value = env[variable];
    if (value === undefined || value.trim() === '') continue;
    const fallback = scalePortDefaults[key];
    if (Array.isArray(fallback)) {
      const list = value.split(',').map((part) => parsePort(part, variable));
      if (list.length !== fallback.length)
        throw new Error(`${variable}: needs ${fallback.length} ports, got ${list.length}`);
      ports[key] = list;
    } else {
      ports[key] = parsePort(value, variable);
    }
  }
  const all = Object.values(ports).flat();
  const repeated = all.filter((port, index) => all.indexOf(port) !== index);
  if (repeated.length > 0)
    throw new Error(`scaled topology: port ${repeated.join(', ')} is used twice`);
  return ports as unknown as ScalePorts;
}

/** The path Prometheus scrapes on every app port (RALY_SCALE_METRICS_PATH, default `/metrics`). */
export function scaleMetricsPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.RALY_SCALE_METRICS_PATH?.trim() || '/metrics';
  return path.startsWith('/') ? path : `/${path}`;
}

/** The Kafka topic layout of the scaled topology: survives one broker down without refusing writes. */
export const scaleTopicLayout = {
  partitions: 6,
  replicationFactor: 3,
  configs: { 'min.insync.replicas': '2' },
} as const;

/** The workspaces the scaled topology runs several copies of. */
export type ScaledWorkspace =
  | 'bff'
  | 'services/identity-profile'
  | 'services/brand'
  | 'services/media'
  | 'services/offers'
  | 'services/collaborations'
  | 'services/notifications'
  | 'services/moderation';

/** One supervised app process of the scaled topology. */
export interface AppInstance {
  /** `bff-1`, `identity-profile-2`, … (log prefix, run record, Prometheus `instance_name`). */
  name: string;
  workspace: ScaledWorkspace;
  port: number;
  /** `http://127.0.0.1:<port>/health/ready`. */
  readinessUrl: string;
}

const instancePorts: [ScaledWorkspace, keyof ScalePorts][] = [
  ['services/identity-profile', 'identity'],
  ['services/brand', 'brand'],
  ['services/media', 'media'],
  ['services/offers', 'offers'],
  ['services/collaborations', 'collaborations'],
  ['services/notifications', 'notifications'],
  ['services/moderation', 'moderation'],
  ['bff', 'bff'],
];

/** Every BFF replica and service instance, services first (the BFF calls them). */
export function scaleAppInstances(ports: ScalePorts): AppInstance[] {
  return instancePorts.flatMap(([workspace, key]) =>
    (ports[key] as number[]).map((port, index) => ({
      name: `${workspace.replace(/^services\//, '')}-${index + 1}`,
      workspace,
      port,
      readinessUrl: `http://${host}:${port}/health/ready`,
    })),
  );
}

/**
 * The Postgres `application_name` of one app instance of a scaled topology:
 * `raly-scale-<entry port>-<instance>`, so its connections can be told apart
 * (and terminated by the chaos run) from every other client of the shared server.
 * @param entryPort the topology's entry port (tells two topologies apart)
 * @param instanceName `identity-profile-1`, …
 */
export function scaleApplicationName(entryPort: number, instanceName: string): string {
  return `${scaleApplicationNamePrefix(entryPort)}${instanceName}`;
}

/** What every {@link scaleApplicationName} of the topology on `entryPort` starts with. */
export function scaleApplicationNamePrefix(entryPort: number): string {
  return `raly-scale-${entryPort}-`;
}

/** The Zipkin endpoint the apps' OpenTelemetry exporter sends spans to (OTEL_EXPORTER_ZIPKIN_ENDPOINT). */
export function zipkinSpansUrl(ports: ScalePorts): string {
  return `http://${host}:${ports.zipkin}/api/v2/spans`;
}

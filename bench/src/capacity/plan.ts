/**
 * The capacity plan (docs/capacity.md): from the measured unit costs
 * (./unit-costs), a load (creators, connected at the busiest hour, brands,
 * offers opening a minute), the assumptions about what each connected user
 * does, and the deployment's settings (k8s/), computes what one BFF pod, one
 * service pod, Kafka, Redis and Postgres carry and what the load needs.
 * Pure: no I/O.
 */
import type { UnitCosts } from './unit-costs';

/** The load to size for. */
export interface Load {
  creators: number;
  /** Creators connected (at least one tab) at the busiest hour. */
  connectedCreators: number;
  brands: number;
  offersOpenedPerMinute: number;
}

/** The load the plan is written for. */
export const TARGET_LOAD: Load = {
  creators: 1_000_000,
  connectedCreators: 100_000,
  brands: 10_000,
  offersOpenedPerMinute: 50,
};

/** What connected people do at the busiest hour, and what records the read model keeps. */
export interface Assumptions {
  /** Live sockets (tabs, devices) per connected person. */
  tabsPerConnectedUser: number;
  /** Brand members connected at the busiest hour, per brand. */
  connectedMembersPerBrand: number;
  /** Writes pushed live (profile, application, deliverable, offer changes) per connected person an hour. */
  updatesPerConnectedUserPerHour: number;
  /** Collaboration messages sent per connected person an hour. */
  messagesPerConnectedUserPerHour: number;
  /** Events a message puts on Kafka (the message and the collaboration's counters). */
  eventsPerMessage: number;
  /** API reads (GET /api/…) per connected person a minute. */
  readsPerConnectedUserPerMinute: number;
  /** Redis commands per API read (the ended-session check and the record). */
  redisCommandsPerRead: number;
  /** Share of connected creators' sockets an opened offer's interests match. */
  offerMatchShare: number;
  /** Applications an offer receives, and collaborations it opens. */
  applicationsPerOffer: number;
  collaborationsPerOffer: number;
  /** Hours a day at the busiest hour's offer rate (the rest of the day: none). */
  busyHoursPerDay: number;
  /** Days of offers, applications and collaborations the read model holds (it expires nothing). */
  readModelDays: number;
  /** Redis memory per read-model record (bytes, MEMORY USAGE of `rm:<kind>:<id>`). */
  redisBytesPerRecord: {
    user: number;
    brand: number;
    offer: number;
    application: number;
    collaboration: number;
  };
  /** Real records against the bench's (longer bios, more links and terms). */
  redisRecordGrowth: number;
  /** Share of a memory limit a pod may fill in steady state (the rest for reconnect storms and GC). */
  memoryFill: number;
  /** How long a service's transaction holds a Postgres server connection (ms). */
  transactionHoldMs: number;
  /** Broker work multiplier for the topics' replication (followers fetch every write). */
  kafkaReplicationWork: number;
}

/** The assumptions docs/capacity.md states and sizes with. */
export const ASSUMPTIONS: Assumptions = {
  tabsPerConnectedUser: 1.5,
  connectedMembersPerBrand: 0.5,
  updatesPerConnectedUserPerHour: 6,
  messagesPerConnectedUserPerHour: 4,
  eventsPerMessage: 2,
  readsPerConnectedUserPerMinute: 2,
  redisCommandsPerRead: 2,
  offerMatchShare: 0.1,
  applicationsPerOffer: 20,
  collaborationsPerOffer: 3,
  busyHoursPerDay: 6,
  readModelDays: 30,
  // MEMORY USAGE averaged over the local stack's rm:* keys after the bench (2026-11-27).
  redisBytesPerRecord: {
    user: 953,
    brand: 664,
    offer: 1048,
    application: 1304,
    collaboration: 1816,
  },
  redisRecordGrowth: 2,
  memoryFill: 0.8,
  transactionHoldMs: 10,
  kafkaReplicationWork: 3,
};

/** The deployment's settings (k8s/base and k8s/overlays/production), checked by test/capacity.test.ts. */
export interface Deployment {
  /** The HPAs' CPU target: average utilisation, a share of the pods' CPU request. */
  cpuTargetUtilization: number;
  bff: {
    cpuLimitCores: number;
    cpuRequestCores: number;
    memoryLimitMiB: number;
    memoryRequestMiB: number;
    minReplicas: number;
    maxReplicas: number;
    /** The HPA's `raly_bff_live_sockets` target per pod. */
    socketsPerPodTarget: number;
  };
  service: {
    cpuLimitCores: number;
    cpuRequestCores: number;
    memoryLimitMiB: number;
    minReplicas: number;
    maxReplicas: number;
  };
  kafka: { brokers: number; brokerCpuLimitCores: number; partitionsPerTopic: number };
  postgres: {
    cpuLimitCores: number;
    maxConnections: number;
    poolerInstances: number;
    defaultPoolSize: number;
    maxClientConn: number;
    databasePoolMax: number;
    servicesWithDatabase: number;
    keycloakConnections: number;
    reservedConnections: number;
  };
}

/** What k8s/ sets today (base, and the production overlay where it overrides or adds). */
export const DEPLOYMENT: Deployment = {
  cpuTargetUtilization: 0.7,
  bff: {
    cpuLimitCores: 1,
    cpuRequestCores: 0.1,
    memoryLimitMiB: 512,
    memoryRequestMiB: 256,
    minReplicas: 3,
    maxReplicas: 20,
    socketsPerPodTarget: 2000,
  },
  service: {
    cpuLimitCores: 1,
    cpuRequestCores: 0.1,
    memoryLimitMiB: 512,
    minReplicas: 2,
    maxReplicas: 10,
  },
  kafka: { brokers: 3, brokerCpuLimitCores: 2, partitionsPerTopic: 6 },
  postgres: {
    cpuLimitCores: 2,
    maxConnections: 200,
    poolerInstances: 2,
    defaultPoolSize: 10,
    maxClientConn: 1000,
    databasePoolMax: 5,
    servicesWithDatabase: 7,
    keycloakConnections: 40,
    reservedConnections: 10,
  },
};

/** What one unit of each component carries, each limit by itself. */
export interface PerUnit {
  /** CPU a pod may use before the HPA adds one (ms of CPU per second). */
  podCpuBudgetMs: number;
  bff: {
    liveUpdatesPerSecond: number;
    messagesPerSecond: number;
    readsPerSecond: number;
    offerDeliveriesPerSecond: number;
    /** Sockets the memory limit holds at `memoryFill`. */
    socketsByMemory: number;
  };
  identityUpdatesPerSecond: number;
  collaborationsMessagesPerSecond: number;
  /** Events a second one BFF projector consumer applies. */
  projectorEventsPerSecond: number;
  /** Postgres primary at the CPU target: updates/s alone, messages/s alone. */
  postgresUpdatesPerSecond: number;
  postgresMessagesPerSecond: number;
  /** Transactions a second one service's Pooler connections carry. */
  serviceTransactionsPerSecond: number;
}

/** The load in operations per second. */
export interface Demand {
  connectedUsers: number;
  sockets: number;
  updatesPerSecond: number;
  messagesPerSecond: number;
  readsPerSecond: number;
  offerDeliveriesPerSecond: number;
  kafkaEventsPerSecond: number;
}

/** One line of the sizing: what the load needs and what the deployment allows. */
export interface SizingLine {
  component: string;
  needed: number;
  unit: string;
  /** How `needed` was reached. */
  why: string;
  /** What the deployment has for it (undefined when it sets nothing). */
  configured?: number;
  /** True when `configured` cannot carry `needed`. */
  short: boolean;
}

export interface Plan {
  load: Load;
  assumptions: Assumptions;
  deployment: Deployment;
  costs: UnitCosts;
  perUnit: PerUnit;
  demand: Demand;
  /** CPU the load takes per component (cores). */
  cores: Record<
    'bff' | 'identity' | 'offers' | 'collaborations' | 'postgres' | 'kafka' | 'redis',
    number
  >;
  redisMemoryGiB: number;
  redisGrowthMiBPerDay: number;
  redisCommandsPerSecond: number;
  sizing: SizingLine[];
}

const up = (value: number) => Math.ceil(value - 1e-9);

/**
 * Computes the plan.
 * @param costs the measured unit costs (./unit-costs)
 * @param load the load to size for ({@link TARGET_LOAD})
 * @param assumptions what people do ({@link ASSUMPTIONS})
 * @param deployment the k8s settings ({@link DEPLOYMENT})
 * @returns per-unit capacities, the demand, the cores per component and the sizing lines
 * @throws RangeError when a cost or a setting that divides is not positive
 */
export function planCapacity(
  costs: UnitCosts,
  load: Load = TARGET_LOAD,
  assumptions: Assumptions = ASSUMPTIONS,
  deployment: Deployment = DEPLOYMENT,
): Plan {
  for (const [name, value] of Object.entries({
    'BFF CPU per update': costs.liveUpdate.cpuMs.bff,
    'identity-profile CPU per update': costs.liveUpdate.cpuMs.identity,
    'collaborations CPU per message': costs.message.cpuMs.collaborations,
    'BFF CPU per request': costs.httpRequest.bffCpuMs,
    'memory per socket': costs.socket.kibPerSocket,
    'projector rate': costs.projector.eventsPerSecond,
    'transaction hold': assumptions.transactionHoldMs,
    'sockets per pod target': deployment.bff.socketsPerPodTarget,
  }))
    if (!(value > 0)) throw new RangeError(`${name} must be positive, got ${value}`);
  const a = assumptions;
  const d = deployment;
  const live = costs.liveUpdate.cpuMs;
  const message = costs.message.cpuMs;
  const budget = 1000 * d.bff.cpuLimitCores * d.cpuTargetUtilization;
  const serviceBudget = 1000 * d.service.cpuLimitCores * d.cpuTargetUtilization;
  const postgresBudget = 1000 * d.postgres.cpuLimitCores * d.cpuTargetUtilization;
  const perUnit: PerUnit = {
    podCpuBudgetMs: budget,
    bff: {
      liveUpdatesPerSecond: budget / live.bff,
      messagesPerSecond: budget / message.bff,
      readsPerSecond: budget / costs.httpRequest.bffCpuMs,
      offerDeliveriesPerSecond: budget / costs.offerFanout.bffCpuMsPerDelivery,
      socketsByMemory: Math.floor(
        ((d.bff.memoryLimitMiB * a.memoryFill - costs.socket.bffBaseRssMiB) * 1024) /
          costs.socket.kibPerSocket,
      ),
    },
    identityUpdatesPerSecond: serviceBudget / live.identity,
    collaborationsMessagesPerSecond: serviceBudget / message.collaborations,
    projectorEventsPerSecond: costs.projector.eventsPerSecond,
    postgresUpdatesPerSecond: postgresBudget / live.postgres,
    postgresMessagesPerSecond: postgresBudget / message.postgres,
    serviceTransactionsPerSecond:
      (d.postgres.poolerInstances * d.postgres.defaultPoolSize * 1000) / a.transactionHoldMs,
  };

  const connectedMembers = load.brands * a.connectedMembersPerBrand;
  const connectedUsers = load.connectedCreators + connectedMembers;
  const creatorSockets = load.connectedCreators * a.tabsPerConnectedUser;
  const demand: Demand = {
    connectedUsers,
    sockets: connectedUsers * a.tabsPerConnectedUser,
    updatesPerSecond: (connectedUsers * a.updatesPerConnectedUserPerHour) / 3600,
    messagesPerSecond: (connectedUsers * a.messagesPerConnectedUserPerHour) / 3600,
    readsPerSecond: (connectedUsers * a.readsPerConnectedUserPerMinute) / 60,
    offerDeliveriesPerSecond:
      (load.offersOpenedPerMinute * a.offerMatchShare * creatorSockets) / 60,
    kafkaEventsPerSecond: 0,
  };
  demand.kafkaEventsPerSecond =
    demand.updatesPerSecond +
    demand.messagesPerSecond * a.eventsPerMessage +
    load.offersOpenedPerMinute / 60;

  const u = demand.updatesPerSecond;
  const m = demand.messagesPerSecond;
  const cores = {
    bff:
      (u * live.bff +
        m * message.bff +
        demand.readsPerSecond * costs.httpRequest.bffCpuMs +
        demand.offerDeliveriesPerSecond * costs.offerFanout.bffCpuMsPerDelivery) /
      1000,
    identity: (u * live.identity + m * message.identity) / 1000,
    offers: (u * live.offers) / 1000,
    collaborations: (m * message.collaborations) / 1000,
    postgres: (u * live.postgres + m * message.postgres) / 1000,
    kafka: ((u * live.kafka + m * message.kafka) * a.kafkaReplicationWork) / 1000,
    redis: (u * live.redis + m * message.redis) / 1000,
  };

  const bytes = a.redisBytesPerRecord;
  const offersPerDay = load.offersOpenedPerMinute * 60 * a.busyHoursPerDay;
  const perDayBytes =
    offersPerDay *
    (bytes.offer +
      a.applicationsPerOffer * bytes.application +
      a.collaborationsPerOffer * bytes.collaboration) *
    a.redisRecordGrowth;
  const fixedBytes = (load.creators * bytes.user + load.brands * bytes.brand) * a.redisRecordGrowth;
  const redisMemoryGiB = (fixedBytes + perDayBytes * a.readModelDays) / 1024 ** 3;

  const sizing = sizingLines(perUnit, demand, cores, deployment, costs, assumptions);
  return {
    load,
    assumptions,
    deployment,
    costs,
    perUnit,
    demand,
    cores,
    redisMemoryGiB,
    redisGrowthMiBPerDay: perDayBytes / 1024 ** 2,
    redisCommandsPerSecond:
      u * costs.liveUpdate.redisCommands + demand.readsPerSecond * a.redisCommandsPerRead,
    sizing,
  };
}

function sizingLines(
  perUnit: PerUnit,
  demand: Demand,
  cores: Plan['cores'],
  d: Deployment,
  costs: UnitCosts,
  a: Assumptions,
): SizingLine[] {
  const cpuTarget = d.cpuTargetUtilization;
  const bffByCpu = up(cores.bff / (d.bff.cpuLimitCores * cpuTarget));
  const bffByHpaCpu = up(cores.bff / (d.bff.cpuRequestCores * cpuTarget));
  const bffBySockets = up(demand.sockets / d.bff.socketsPerPodTarget);
  const bffByMemory = up(demand.sockets / perUnit.bff.socketsByMemory);
  const bffPods = Math.max(d.bff.minReplicas, bffByHpaCpu, bffBySockets);
  const socketsPerPod = demand.sockets / Math.min(bffPods, d.bff.maxReplicas);
  const podRss = costs.socket.bffBaseRssMiB + (socketsPerPod * costs.socket.kibPerSocket) / 1024;
  const servicePods = (name: string, coresNeeded: number): SizingLine => {
    const byLimit = Math.max(
      d.service.minReplicas,
      up(coresNeeded / (d.service.cpuLimitCores * cpuTarget)),
    );
    const needed = Math.max(
      d.service.minReplicas,
      up(coresNeeded / (d.service.cpuRequestCores * cpuTarget)),
    );
    return {
      component: `${name} pods`,
      needed,
      unit: 'pods',
      why: `what the HPA asks for: ${coresNeeded.toFixed(2)} cores ÷ (${pct(cpuTarget)} of the ${d.service.cpuRequestCores}-core request), at least ${d.service.minReplicas}; the pods' capacity alone (${pct(cpuTarget)} of the ${d.service.cpuLimitCores}-core limit): ${byLimit}`,
      configured: d.service.maxReplicas,
      short: needed > d.service.maxReplicas,
    };
  };
  const services: SizingLine[] = [
    servicePods('identity-profile', cores.identity),
    servicePods('offers', cores.offers),
    servicePods('collaborations', cores.collaborations),
  ];
  const byRate = up(demand.kafkaEventsPerSecond / (perUnit.projectorEventsPerSecond * 0.5));
  // Consumers that must share a group's work: the pods the CPU needs at the limit, not the ones
  // the HPA adds on a small request (those serve HTTP; a replica beyond the partitions idles).
  const consumers = Math.max(
    d.service.minReplicas,
    ...[cores.identity, cores.offers, cores.collaborations].map((coresNeeded) =>
      up(coresNeeded / (d.service.cpuLimitCores * cpuTarget)),
    ),
  );
  const partitions = Math.max(byRate, consumers);
  const brokerCores = d.kafka.brokers * d.kafka.brokerCpuLimitCores * cpuTarget;
  const clientConnections =
    d.postgres.servicesWithDatabase * d.service.maxReplicas * d.postgres.databasePoolMax;
  const serverConnections =
    d.postgres.poolerInstances * d.postgres.servicesWithDatabase * d.postgres.defaultPoolSize +
    d.postgres.keycloakConnections +
    d.postgres.servicesWithDatabase +
    d.postgres.reservedConnections;
  const busiestService = Math.max(demand.updatesPerSecond, demand.messagesPerSecond);
  const busyConnections = up((busiestService * a.transactionHoldMs) / 1000);
  return [
    {
      component: 'BFF pods',
      needed: bffPods,
      unit: 'pods',
      why: `what the HPA asks for, the most of: sockets ÷ its ${d.bff.socketsPerPodTarget} a pod = ${bffBySockets}; CPU ${cores.bff.toFixed(2)} cores ÷ (${pct(cpuTarget)} of the ${d.bff.cpuRequestCores}-core request) = ${bffByHpaCpu}. The pods' capacity alone: CPU at ${pct(cpuTarget)} of the ${d.bff.cpuLimitCores}-core limit ${bffByCpu}, memory (${perUnit.bff.socketsByMemory} sockets a pod) ${bffByMemory}`,
      configured: d.bff.maxReplicas,
      short: bffPods > d.bff.maxReplicas,
    },
    {
      component: 'BFF memory per pod',
      needed: Math.round(podRss),
      unit: 'MiB',
      why: `${costs.socket.bffBaseRssMiB} MiB base + ${Math.round(socketsPerPod)} sockets × ${costs.socket.kibPerSocket.toFixed(1)} KiB (pods capped at maxReplicas); request ${d.bff.memoryRequestMiB} Mi`,
      configured: d.bff.memoryLimitMiB,
      short: podRss > d.bff.memoryLimitMiB * a.memoryFill,
    },
    ...services,
    {
      component: 'Kafka partitions per topic',
      needed: partitions,
      unit: 'partitions',
      why: `the most of: one per consumer that shares a group's work (the most pods a service's CPU needs at the limit: ${consumers}); ${fmt(demand.kafkaEventsPerSecond)} events/s ÷ half of one consumer's ${fmt(perUnit.projectorEventsPerSecond)} = ${byRate}`,
      configured: d.kafka.partitionsPerTopic,
      short: partitions > d.kafka.partitionsPerTopic,
    },
    {
      component: 'Kafka broker CPU',
      needed: round2(cores.kafka),
      unit: 'cores',
      why: `broker CPU per update and per message × ${a.kafkaReplicationWork} for replication; ${d.kafka.brokers} brokers × ${d.kafka.brokerCpuLimitCores} cores at ${pct(cpuTarget)}`,
      configured: round2(brokerCores),
      short: cores.kafka > brokerCores,
    },
    {
      component: 'Postgres primary CPU',
      needed: round2(cores.postgres),
      unit: 'cores',
      why: `postgres CPU per update and per message (all databases on the one primary); ${d.postgres.cpuLimitCores} cores at ${pct(cpuTarget)}`,
      configured: round2(d.postgres.cpuLimitCores * cpuTarget),
      short: cores.postgres > d.postgres.cpuLimitCores * cpuTarget,
    },
    {
      component: 'Postgres server connections busy, busiest service',
      needed: busyConnections,
      unit: 'connections',
      why: `${fmt(busiestService)} transactions/s × ${a.transactionHoldMs} ms held; the Pooler gives each service ${d.postgres.poolerInstances} × default_pool_size ${d.postgres.defaultPoolSize}`,
      configured: d.postgres.poolerInstances * d.postgres.defaultPoolSize,
      short: busyConnections > d.postgres.poolerInstances * d.postgres.defaultPoolSize,
    },
    {
      component: 'PgBouncer client connections',
      needed: clientConnections,
      unit: 'connections',
      why: `${d.postgres.servicesWithDatabase} services × maxReplicas ${d.service.maxReplicas} × DATABASE_POOL_MAX ${d.postgres.databasePoolMax}, on one Pooler instance if the other is down`,
      configured: d.postgres.maxClientConn,
      short: clientConnections > d.postgres.maxClientConn,
    },
    {
      component: 'Postgres connections on the primary',
      needed: serverConnections,
      unit: 'connections',
      why: `${d.postgres.poolerInstances} Pooler instances × ${d.postgres.servicesWithDatabase} databases × ${d.postgres.defaultPoolSize} + Keycloak ${d.postgres.keycloakConnections} + ${d.postgres.servicesWithDatabase} migration Jobs + ${d.postgres.reservedConnections} reserved`,
      configured: d.postgres.maxConnections,
      short: serverConnections > d.postgres.maxConnections,
    },
  ];
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A number with thousands separators and at most one decimal below 100. */
export function fmt(value: number): string {
  const digits = Math.abs(value) < 100 && !Number.isInteger(value) ? 1 : 0;
  return value.toLocaleString('en-US', {
    minimumFractionDigits: 0,
    maximumFractionDigits: digits,
  });
}

/** The generated part of docs/capacity.md: the plan as markdown tables, and its place in the file. */
import { fmt, type Plan } from './plan';
import type { FigureSource } from './unit-costs';

/** The markers around the generated part of docs/capacity.md. */
export const GENERATED_START = '<!-- capacity:generated:start (npm run capacity -w bench) -->';
export const GENERATED_END = '<!-- capacity:generated:end -->';

const table = (head: string[], rows: (string | number)[][]): string =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

const cite = (source: FigureSource): string =>
  source.commit
    ? `${source.file} (${source.commit}, ${source.measuredAt.slice(0, 10)}): ${source.figure}`
    : `${source.file}: ${source.figure}`;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * The plan as markdown (without the markers).
 * @returns unit costs with their sources, assumptions, per-unit capacity, demand and sizing tables
 */
export function renderPlan(plan: Plan): string {
  const { costs, demand, perUnit, assumptions: a, load } = plan;
  const live = costs.liveUpdate.cpuMs;
  const message = costs.message.cpuMs;
  const units = table(
    ['unit cost', 'measured', 'from'],
    [
      [
        `live update (PATCH /api/me → tabs, ${costs.liveUpdate.ratePerSecond}/s), CPU`,
        `BFF ${ms(live.bff)}, identity-profile ${ms(live.identity)}, offers ${ms(live.offers)}, postgres ${ms(live.postgres)}, kafka ${ms(live.kafka)}, redis ${ms(live.redis)}; ${costs.liveUpdate.redisCommands.toFixed(1)} Redis commands`,
        cite(costs.liveUpdate.source),
      ],
      [
        'API read (GET /api/me), BFF CPU',
        `${costs.httpRequest.bffCpuMs.toFixed(3)} ms`,
        cite(costs.httpRequest.source),
      ],
      [
        'collaboration message, CPU',
        `BFF ${ms(message.bff)}, collaborations ${ms(message.collaborations)}, identity-profile ${ms(message.identity)}, postgres ${ms(message.postgres)}, kafka ${ms(message.kafka)}, redis ${ms(message.redis)}`,
        cite(costs.message.source),
      ],
      [
        'idle socket, BFF memory',
        `${costs.socket.kibPerSocket.toFixed(1)} KiB a socket (${fmt(costs.socket.sockets)} sockets, highest ${costs.socket.highestRssMiB} MiB); a BFF that served load ${costs.socket.bffBaseRssMiB} MiB without sockets`,
        cite(costs.socket.source),
      ],
      [
        'offer fan-out, BFF CPU per socket delivered',
        `${costs.offerFanout.bffCpuMsPerDelivery.toFixed(3)} ms (${fmt(costs.offerFanout.deliveredSockets)} sockets, the last after ${fmt(costs.offerFanout.lastDeliveryMs)} ms)`,
        cite(costs.offerFanout.source),
      ],
      [
        "the BFF's projector, one consumer",
        `${fmt(costs.projector.eventsPerSecond)} events/s`,
        cite(costs.projector.source),
      ],
    ],
  );
  const b = a.redisBytesPerRecord;
  const assumptionRows = table(
    ['assumption', 'value'],
    [
      ['sockets (tabs, devices) per connected person', a.tabsPerConnectedUser],
      ['brand members connected at the busiest hour, per brand', a.connectedMembersPerBrand],
      ['live updates per connected person an hour', a.updatesPerConnectedUserPerHour],
      ['collaboration messages per connected person an hour', a.messagesPerConnectedUserPerHour],
      ['Kafka events per message', a.eventsPerMessage],
      ['API reads per connected person a minute', a.readsPerConnectedUserPerMinute],
      ['Redis commands per API read', a.redisCommandsPerRead],
      ["share of connected creators' sockets an offer matches", a.offerMatchShare],
      [
        'applications / collaborations per offer',
        `${a.applicationsPerOffer} / ${a.collaborationsPerOffer}`,
      ],
      ["hours a day at the busiest hour's offer rate", a.busyHoursPerDay],
      ['days of offers, applications, collaborations in the read model', a.readModelDays],
      [
        'Redis bytes per record: user, brand, offer, application, collaboration',
        `${b.user}, ${b.brand}, ${b.offer}, ${b.application}, ${b.collaboration} (× ${a.redisRecordGrowth} for real records)`,
      ],
      ['share of a memory limit filled in steady state', a.memoryFill],
      ['Postgres connection held per transaction', `${a.transactionHoldMs} ms`],
      ['Kafka broker work for replication', `× ${a.kafkaReplicationWork}`],
    ],
  );
  const carries = table(
    ['one …', 'carries (each limit alone)'],
    [
      [
        `BFF pod (${plan.deployment.bff.cpuLimitCores}-core limit at ${Math.round(plan.deployment.cpuTargetUtilization * 100)} %: ${fmt(perUnit.podCpuBudgetMs)} ms of CPU a second; ${plan.deployment.bff.memoryLimitMiB} MiB; the HPA adds a pod at ${fmt(1000 * plan.deployment.bff.cpuRequestCores * plan.deployment.cpuTargetUtilization)} ms a second, ${Math.round(plan.deployment.cpuTargetUtilization * 100)} % of the request)`,
        `${fmt(perUnit.bff.liveUpdatesPerSecond)} live updates/s, or ${fmt(perUnit.bff.messagesPerSecond)} messages/s, or ${fmt(perUnit.bff.readsPerSecond)} API reads/s, or ${fmt(perUnit.bff.offerDeliveriesPerSecond)} offer deliveries/s; ${fmt(perUnit.bff.socketsByMemory)} idle sockets by memory (the HPA aims at ${fmt(plan.deployment.bff.socketsPerPodTarget)})`,
      ],
      [
        'identity-profile pod (the same CPU)',
        `${fmt(perUnit.identityUpdatesPerSecond)} live updates/s`,
      ],
      ['collaborations pod', `${fmt(perUnit.collaborationsMessagesPerSecond)} messages/s`],
      [
        'Kafka partition',
        `read by one consumer of a group; one BFF consumer applies ${fmt(perUnit.projectorEventsPerSecond)} events/s over the partitions it holds`,
      ],
      [
        `Postgres primary (${plan.deployment.postgres.cpuLimitCores} cores at the same target)`,
        `${fmt(perUnit.postgresUpdatesPerSecond)} live updates/s, or ${fmt(perUnit.postgresMessagesPerSecond)} messages/s`,
      ],
      [
        "service's Pooler connections",
        `${fmt(perUnit.serviceTransactionsPerSecond)} transactions/s`,
      ],
    ],
  );
  const loadTable = table(
    ['load', 'value'],
    [
      [
        'creators / connected at the busiest hour / brands / offers opening a minute',
        `${fmt(load.creators)} / ${fmt(load.connectedCreators)} / ${fmt(load.brands)} / ${fmt(load.offersOpenedPerMinute)}`,
      ],
      ['connected people (creators and brand members)', fmt(demand.connectedUsers)],
      ['live sockets', fmt(demand.sockets)],
      ['live updates a second', fmt(demand.updatesPerSecond)],
      ['collaboration messages a second', fmt(demand.messagesPerSecond)],
      ['API reads a second', fmt(demand.readsPerSecond)],
      ['offer deliveries to sockets a second', fmt(demand.offerDeliveriesPerSecond)],
      ['Kafka events a second', fmt(demand.kafkaEventsPerSecond)],
      ['Redis commands a second (updates and reads)', fmt(plan.redisCommandsPerSecond)],
      [
        'CPU: BFF / identity-profile / offers / collaborations',
        `${plan.cores.bff.toFixed(2)} / ${plan.cores.identity.toFixed(2)} / ${plan.cores.offers.toFixed(2)} / ${plan.cores.collaborations.toFixed(2)} cores`,
      ],
      [
        'CPU: postgres / kafka (with replication) / redis',
        `${plan.cores.postgres.toFixed(2)} / ${plan.cores.kafka.toFixed(2)} / ${plan.cores.redis.toFixed(2)} cores`,
      ],
      [
        'Redis memory (read model)',
        `${plan.redisMemoryGiB.toFixed(1)} GiB, growing ${fmt(Math.round(plan.redisGrowthMiBPerDay))} MiB a day`,
      ],
    ],
  );
  const sizing = table(
    ['component', 'needed', 'configured', 'fits', 'how'],
    plan.sizing.map((line) => [
      line.component,
      `${fmt(line.needed)} ${line.unit}`,
      line.configured === undefined ? '—' : fmt(line.configured),
      line.short ? '**no**' : 'yes',
      line.why,
    ]),
  );
  return [
    '### Unit costs',
    units,
    '### Assumptions',
    assumptionRows,
    '### What one unit carries',
    carries,
    '### The load',
    loadTable,
    '### Sizing',
    sizing,
  ].join('\n\n');
}

/**
 * Puts `generated` between the markers of `doc`, keeping everything outside them.
 * @throws Error when the markers are missing or out of order
 */
export function replaceGenerated(doc: string, generated: string): string {
  const start = doc.indexOf(GENERATED_START);
  const end = doc.indexOf(GENERATED_END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`docs/capacity.md needs the markers ${GENERATED_START} and ${GENERATED_END}`);
  return `${doc.slice(0, start + GENERATED_START.length)}\n\n${generated}\n\n${doc.slice(end)}`;
}

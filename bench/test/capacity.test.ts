/** The capacity plan's computation (bench/src/capacity, docs/capacity.md). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ASSUMPTIONS, DEPLOYMENT, TARGET_LOAD, planCapacity } from '../src/capacity/plan';
import {
  GENERATED_END,
  GENERATED_START,
  renderPlan,
  replaceGenerated,
} from '../src/capacity/render';
import { BASELINE, unitCostsFrom, type BenchResult } from '../src/capacity/unit-costs';

const repository = path.resolve(import.meta.dirname, '..', '..');

/** A parsed manifest: its fields are read and compared one by one below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML of any shape
type Manifest = Record<string, any>;

/** A suite result holding the given groups, as ../src/results.ts writes one. */
const result = (measuredAt: string, groups: Record<string, unknown>): BenchResult => ({
  measuredAt,
  commit: measuredAt.slice(0, 7),
  settings: { rates: [100, 200] },
  ...groups,
});

const live = (bff: number) => [
  {
    machineCpuMsPerUpdate: {
      bff,
      'identity-profile': 2,
      postgres: 1.5,
      kafka: 1,
      'redis-server': 0.2,
      offers: 0.5,
    },
    redisCommandsPerUpdate: { hget: 1, evalsha: 1, publish: 1, mget: 1, hset: 1 },
  },
];
const collab = (collaborations: number) => ({
  measured: {
    cpuMsPerMessage: {
      bff: 3,
      collaborations,
      'identity-profile': 0.5,
      postgres: 3,
      kafka: 1.5,
      'redis-server': 0.3,
    },
  },
});

describe('capacity unit costs', () => {
  test('when two result files hold a group, then the newer one gives its cost and says so', () => {
    // Arrange
    const suite = result('2026-11-20T00:00:00.000Z', { live: live(3), collab: collab(9) });
    const partial = result('2026-11-26T00:00:00.000Z', { live: live(5) });

    // Act
    const costs = unitCostsFrom({ suite, partial });

    // Assert
    assert.equal(costs.liveUpdate.cpuMs.bff, 5);
    assert.equal(costs.liveUpdate.source.file, 'bench/results/suite-partial.json');
    assert.equal(costs.liveUpdate.redisCommands, 5);
    assert.equal(costs.liveUpdate.ratePerSecond, 100);
    assert.equal(costs.message.cpuMs.collaborations, 9, 'only the older file has collab');
    assert.equal(costs.message.source.file, 'bench/results/suite.json');
  });

  test('when no result holds a cost or only a smoke run does, then the committed figures of docs/benchmarks.md give it', () => {
    const smoke = { ...result('2026-11-27T00:00:00.000Z', { live: live(40) }), smoke: true };

    const costs = unitCostsFrom({ partial: smoke });

    assert.deepEqual(costs, BASELINE);
    assert.equal(costs.httpRequest.source.file, 'docs/benchmarks.md');
  });

  test('when the idle and fan-out results are read, then memory per socket and CPU per delivery are derived from them', () => {
    const suite = result('2026-11-20T00:00:00.000Z', {
      idle: {
        rssBeforeMiB: 100,
        servedBff: { rssMiB: 150 },
        steps: [{ sockets: 10_240, rssMiB: 300 }],
      },
    });
    const offerFanout = result('2026-11-21T00:00:00.000Z', {
      delivered: 5000,
      deliveryMs: { last: 400 },
      bff: { cpuMsDuringFanout: 100 },
    });

    const costs = unitCostsFrom({ suite, offerFanout });

    assert.equal(costs.socket.kibPerSocket, 20, '(300 − 100) MiB over 10,240 sockets');
    assert.equal(costs.socket.bffBaseRssMiB, 150);
    assert.equal(costs.offerFanout.bffCpuMsPerDelivery, 0.02);
  });
});

describe('capacity plan', () => {
  test('when the target load is planned, then the demand follows the load and the assumptions', () => {
    const plan = planCapacity(BASELINE);

    // 100,000 creators + 10,000 brands × 0.5 members, 1.5 tabs each.
    assert.equal(plan.demand.connectedUsers, 105_000);
    assert.equal(plan.demand.sockets, 157_500);
    assert.equal(plan.demand.updatesPerSecond, 175);
    assert.equal(plan.demand.readsPerSecond, 3500);
    // 50 offers a minute, each to a tenth of 150,000 creator sockets.
    assert.equal(plan.demand.offerDeliveriesPerSecond, 12_500);
    const bffPods = plan.sizing.find((line) => line.component === 'BFF pods')!;
    assert.equal(bffPods.needed, Math.ceil(157_500 / DEPLOYMENT.bff.socketsPerPodTarget));
    assert.equal(bffPods.short, bffPods.needed > DEPLOYMENT.bff.maxReplicas);
  });

  test('when a cost doubles, then the cores it drives double and a pod carries half as much', () => {
    const base = planCapacity(BASELINE);
    const doubled = planCapacity({
      ...BASELINE,
      message: {
        ...BASELINE.message,
        cpuMs: {
          ...BASELINE.message.cpuMs,
          collaborations: BASELINE.message.cpuMs.collaborations * 2,
        },
      },
    });

    assert.ok(Math.abs(doubled.cores.collaborations - 2 * base.cores.collaborations) < 1e-9);
    assert.ok(
      Math.abs(
        doubled.perUnit.collaborationsMessagesPerSecond -
          base.perUnit.collaborationsMessagesPerSecond / 2,
      ) < 1e-9,
    );
    assert.equal(doubled.cores.bff, base.cores.bff);
  });

  test('when the deployment allows fewer replicas than the load needs, then that line is short', () => {
    const plan = planCapacity(
      BASELINE,
      { ...TARGET_LOAD, connectedCreators: 10_000 },
      ASSUMPTIONS,
      { ...DEPLOYMENT, bff: { ...DEPLOYMENT.bff, maxReplicas: 3, socketsPerPodTarget: 1000 } },
    );

    const line = plan.sizing.find((entry) => entry.component === 'BFF pods')!;
    assert.equal(line.needed, Math.ceil(((10_000 + 5000) * 1.5) / 1000));
    assert.equal(line.short, true);
    assert.ok(
      plan.sizing
        .filter((entry) => entry.component.startsWith('Postgres'))
        .every((entry) => !entry.short),
    );
  });

  test('when a cost is zero, then the plan is refused with the cost named', () => {
    assert.throws(
      () => planCapacity({ ...BASELINE, httpRequest: { ...BASELINE.httpRequest, bffCpuMs: 0 } }),
      /BFF CPU per request must be positive/,
    );
  });

  test('when the plan is rendered into the doc, then only the part between the markers changes', () => {
    const doc = `# Plan\n\nkept above\n\n${GENERATED_START}\n\nold table\n\n${GENERATED_END}\n\nkept below\n`;

    const written = replaceGenerated(doc, renderPlan(planCapacity(BASELINE)));

    assert.ok(written.startsWith(`# Plan\n\nkept above\n\n${GENERATED_START}\n\n### Unit costs`));
    assert.ok(written.endsWith(`${GENERATED_END}\n\nkept below\n`));
    assert.ok(!written.includes('old table'));
    assert.ok(written.includes('docs/benchmarks.md: table "CPU per PATCH'));
    assert.throws(() => replaceGenerated('# no markers', 'x'), /markers/);
  });
});

describe('capacity plan against k8s/', () => {
  const objects = (file: string) =>
    parseAllDocuments(readFileSync(path.join(repository, file), 'utf8')).map(
      (document) => document.toJS() as Manifest,
    );
  const find = (file: string, kind: string, name?: string) =>
    objects(file).find(
      (object) => object.kind === kind && (!name || object.metadata?.name === name),
    )!;
  const cores = (value: string | number) =>
    String(value).endsWith('m') ? Number(String(value).slice(0, -1)) / 1000 : Number(value);
  const mebibytes = (value: string) =>
    value.endsWith('Gi') ? Number(value.slice(0, -2)) * 1024 : Number(value.slice(0, -2));

  test("when the manifests change, then the plan's deployment settings still equal them", () => {
    // Arrange
    const bffFile = 'k8s/base/apps/bff.yaml';
    const bff = find(bffFile, 'Deployment').spec.template.spec.containers[0].resources;
    const bffHpa = find(bffFile, 'HorizontalPodAutoscaler').spec;
    const production = readFileSync(
      path.join(repository, 'k8s/overlays/production/kustomization.yaml'),
      'utf8',
    );
    const pooler = find('k8s/overlays/production/postgres.yaml', 'Pooler').spec;
    const cluster = find('k8s/overlays/production/postgres.yaml', 'Cluster').spec;
    const topics = objects('k8s/overlays/production/kafka-topics.yaml');
    const broker = find('k8s/overlays/production/kafka.yaml', 'KafkaNodePool').spec;

    // Assert: the BFF
    assert.equal(cores(bff.requests.cpu), DEPLOYMENT.bff.cpuRequestCores);
    assert.equal(cores(bff.limits.cpu), DEPLOYMENT.bff.cpuLimitCores);
    assert.equal(mebibytes(bff.requests.memory), DEPLOYMENT.bff.memoryRequestMiB);
    assert.equal(mebibytes(bff.limits.memory), DEPLOYMENT.bff.memoryLimitMiB);
    assert.equal(bffHpa.maxReplicas, DEPLOYMENT.bff.maxReplicas);
    assert.match(
      production,
      new RegExp(`name: bff\\s[\\s\\S]*?value: ${DEPLOYMENT.bff.minReplicas}\\b`),
    );
    const sockets = bffHpa.metrics.find(
      (metric: Manifest) => metric.pods?.metric.name === 'raly_bff_live_sockets',
    );
    assert.equal(Number(sockets.pods.target.averageValue), DEPLOYMENT.bff.socketsPerPodTarget);
    const cpuTarget = bffHpa.metrics.find((metric: Manifest) => metric.resource?.name === 'cpu');
    assert.equal(
      cpuTarget.resource.target.averageUtilization / 100,
      DEPLOYMENT.cpuTargetUtilization,
    );

    // Assert: the services the plan sizes
    for (const app of ['identity-profile', 'offers', 'collaborations']) {
      const file = `k8s/base/apps/${app}.yaml`;
      const resources = find(file, 'Deployment').spec.template.spec.containers[0].resources;
      const hpa = find(file, 'HorizontalPodAutoscaler').spec;
      assert.equal(cores(resources.requests.cpu), DEPLOYMENT.service.cpuRequestCores, app);
      assert.equal(cores(resources.limits.cpu), DEPLOYMENT.service.cpuLimitCores, app);
      assert.equal(mebibytes(resources.limits.memory), DEPLOYMENT.service.memoryLimitMiB, app);
      assert.equal(hpa.minReplicas, DEPLOYMENT.service.minReplicas, app);
      assert.equal(hpa.maxReplicas, DEPLOYMENT.service.maxReplicas, app);
      assert.equal(
        hpa.metrics[0].resource.target.averageUtilization / 100,
        DEPLOYMENT.cpuTargetUtilization,
        app,
      );
    }

    // Assert: Kafka, Postgres and the Pooler
    for (const topic of topics)
      assert.equal(topic.spec.partitions, DEPLOYMENT.kafka.partitionsPerTopic, topic.metadata.name);
    assert.equal(broker.replicas, DEPLOYMENT.kafka.brokers);
    assert.equal(cores(broker.resources.limits.cpu), DEPLOYMENT.kafka.brokerCpuLimitCores);
    assert.equal(cores(cluster.resources.limits.cpu), DEPLOYMENT.postgres.cpuLimitCores);
    assert.equal(
      Number(cluster.postgresql.parameters.max_connections),
      DEPLOYMENT.postgres.maxConnections,
    );
    assert.equal(pooler.instances, DEPLOYMENT.postgres.poolerInstances);
    assert.equal(
      Number(pooler.pgbouncer.parameters.default_pool_size),
      DEPLOYMENT.postgres.defaultPoolSize,
    );
    assert.equal(
      Number(pooler.pgbouncer.parameters.max_client_conn),
      DEPLOYMENT.postgres.maxClientConn,
    );
    assert.match(
      production,
      new RegExp(`DATABASE_POOL_MAX=${DEPLOYMENT.postgres.databasePoolMax}\\b`),
    );
    const databases = objects('k8s/overlays/production/postgres.yaml').filter(
      (object) => object.kind === 'Database' && object.spec.owner !== 'keycloak',
    );
    assert.equal(databases.length, DEPLOYMENT.postgres.servicesWithDatabase);
    const keycloak = find('k8s/overlays/production/keycloak.yaml', 'Keycloak').spec;
    assert.equal(
      keycloak.instances * keycloak.db.poolMaxSize,
      DEPLOYMENT.postgres.keycloakConnections,
    );
  });
});

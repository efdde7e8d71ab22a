/**
 * The scaled topology's generated configurations (docs/architecture.md): the Kafka
 * nodes' properties (3 voters, RF 3, min ISR 2), HAProxy's routing (round
 * robin for /api, cookie affinity for /live, websocket tunnels), Prometheus'
 * scrape targets, the ports and their environment overrides, and what each
 * app instance is told.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { nativeEndpoints } from '../src/stack/endpoints';
import { haproxyConfig } from '../src/stack/scale/haproxy';
import { kafkaNodeProperties } from '../src/stack/scale/kafka-cluster';
import { prometheusConfig } from '../src/stack/scale/prometheus';
import {
  scaleAppInstances,
  scaleMetricsPath,
  scalePortDefaults,
  scalePortsFromEnv,
} from '../src/stack/scale/settings';
import {
  scaleInstanceEnvironment,
  scaleLoadBalancerPlan,
  scaleScrapePlan,
  scaleWebServerVariables,
} from '../src/stack/scale/topology';
import { renderWebServerConfig } from '../src/stack/web-nginx';
import { ports as plainPorts } from '../src/stack/settings';
import { stackStatus } from '../src/stack/stack';

/** `key=value` lines as a map. */
function properties(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** The lines of one HAProxy section (`backend bff_live` …) up to the next blank line. */
function section(config: string, header: string): string[] {
  const lines = config.split('\n');
  const start = lines.indexOf(header);
  assert.ok(start >= 0, `no section "${header}" in:\n${config}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end).map((line) => line.trim());
}

describe('Kafka node properties', () => {
  const nodes = [
    { id: 1, port: 17092, controllerPort: 17192 },
    { id: 2, port: 17093, controllerPort: 17193 },
    { id: 3, port: 17094, controllerPort: 17194 },
  ];
  const cluster = { nodes, replicationFactor: 3, minInsyncReplicas: 2, partitions: 6 };

  test('when node 2 of 3 is described, then it is broker and controller with all 3 voters and its own listeners', () => {
    const props = properties(kafkaNodeProperties(nodes[1]!, cluster, '/data/node-2'));

    assert.equal(props.get('process.roles'), 'broker,controller');
    assert.equal(props.get('node.id'), '2');
    assert.equal(
      props.get('controller.quorum.voters'),
      '1@127.0.0.1:17192,2@127.0.0.1:17193,3@127.0.0.1:17194',
    );
    assert.equal(
      props.get('listeners'),
      'PLAINTEXT://127.0.0.1:17093,CONTROLLER://127.0.0.1:17193',
    );
    assert.equal(props.get('advertised.listeners'), 'PLAINTEXT://127.0.0.1:17093');
    assert.equal(props.get('log.dirs'), '/data/node-2');
  });

  test('when the cluster replicates 3 times with min ISR 2, then internal and auto-created topics do too and no unclean leader is elected', () => {
    const props = properties(kafkaNodeProperties(nodes[0]!, cluster, '/data/node-1'));

    assert.equal(props.get('default.replication.factor'), '3');
    assert.equal(props.get('min.insync.replicas'), '2');
    assert.equal(props.get('num.partitions'), '6');
    assert.equal(props.get('offsets.topic.replication.factor'), '3');
    assert.equal(props.get('transaction.state.log.replication.factor'), '3');
    assert.equal(props.get('transaction.state.log.min.isr'), '2');
    assert.equal(props.get('unclean.leader.election.enable'), 'false');
  });
});

describe('HAProxy configuration', () => {
  const config = haproxyConfig(scaleLoadBalancerPlan(scalePortDefaults, true));

  test('when the entry routes, then /live and /api go to the BFF and the rest to the web app', () => {
    const entry = section(config, 'frontend entry');

    assert.ok(entry.includes('bind 127.0.0.1:8088'));
    assert.ok(entry.includes('acl is_live path /live'));
    assert.ok(entry.includes('acl is_live path_beg /live/'));
    assert.ok(entry.includes('acl is_api path /api'));
    assert.ok(entry.includes('acl is_api path_beg /api/'));
    assert.ok(entry.includes('use_backend bff_live if is_live'));
    assert.ok(entry.includes('use_backend bff_api if is_api'));
    assert.ok(entry.includes('default_backend web'));
    assert.deepEqual(section(config, 'backend web'), [
      'server web 127.0.0.1:5174 check inter 1s fall 2 rise 2',
    ]);
  });

  test('when /api is balanced, then it is round robin over the 3 readiness-checked replicas without affinity', () => {
    const api = section(config, 'backend bff_api');

    assert.ok(api.includes('balance roundrobin'));
    assert.ok(api.includes('option httpchk GET /health/ready'));
    assert.deepEqual(
      api.filter((line) => line.startsWith('server ')),
      [
        'server bff-1 127.0.0.1:4100 check inter 1s fall 2 rise 2',
        'server bff-2 127.0.0.1:4101 check inter 1s fall 2 rise 2',
        'server bff-3 127.0.0.1:4102 check inter 1s fall 2 rise 2',
      ],
    );
    assert.equal(
      api.some((line) => line.startsWith('cookie')),
      false,
    );
  });

  test('when /live is balanced, then an inserted cookie names the replica of a session and websocket tunnels stay open', () => {
    const live = section(config, 'backend bff_live');
    const defaults = section(config, 'defaults');

    assert.ok(live.includes('cookie RALY_LIVE insert indirect nocache httponly'));
    assert.deepEqual(
      live.filter((line) => line.startsWith('server ')).map((line) => line.split(' ').slice(-2)),
      [
        ['cookie', 'bff-1'],
        ['cookie', 'bff-2'],
        ['cookie', 'bff-3'],
      ],
    );
    assert.ok(defaults.includes('timeout tunnel 1h'));
    assert.ok(defaults.includes('option redispatch'));
    assert.ok(defaults.includes('retry-on conn-failure'));
  });

  test('when the services are balanced, then each has its own internal entry over its 2 instances', () => {
    const identity = section(config, 'listen identity-profile');
    const offers = section(config, 'listen offers');

    assert.ok(identity.includes('bind 127.0.0.1:4211'));
    assert.deepEqual(
      identity.filter((line) => line.startsWith('server ')).map((line) => line.split(' ')[2]),
      ['127.0.0.1:4111', '127.0.0.1:4112'],
    );
    assert.ok(offers.includes('bind 127.0.0.1:4214'));
    assert.ok(offers.includes('balance roundrobin'));
    const collaborations = section(config, 'listen collaborations');
    assert.ok(collaborations.includes('bind 127.0.0.1:4215'));
    assert.deepEqual(
      collaborations.filter((line) => line.startsWith('server ')).map((line) => line.split(' ')[2]),
      ['127.0.0.1:4151', '127.0.0.1:4152'],
    );
    const notifications = section(config, 'listen notifications');
    assert.ok(notifications.includes('bind 127.0.0.1:4216'));
    assert.ok(notifications.includes('option httpchk GET /health/ready'));
    assert.deepEqual(
      notifications.filter((line) => line.startsWith('server ')).map((line) => line.split(' ')[2]),
      ['127.0.0.1:4161', '127.0.0.1:4162'],
    );
    const moderation = section(config, 'listen moderation');
    assert.ok(moderation.includes('bind 127.0.0.1:4217'));
    assert.deepEqual(
      moderation.filter((line) => line.startsWith('server ')).map((line) => line.split(' ')[2]),
      ['127.0.0.1:4171', '127.0.0.1:4172'],
    );
  });

  test('when the build has no Prometheus exporter, then the stats frontend does not use it', () => {
    const withoutExporter = haproxyConfig(scaleLoadBalancerPlan(scalePortDefaults, false));

    assert.ok(
      section(config, 'frontend stats').some((line) => line.includes('prometheus-exporter')),
    );
    assert.equal(withoutExporter.includes('prometheus-exporter'), false);
  });
});

describe('Prometheus scrape configuration', () => {
  interface ScrapeJob {
    job_name: string;
    metrics_path: string;
    static_configs: { targets: string[]; labels: { instance_name: string } }[];
  }
  const jobs = (metricsPath?: string) =>
    (
      JSON.parse(prometheusConfig(scaleScrapePlan(scalePortDefaults, metricsPath))) as {
        scrape_configs: ScrapeJob[];
      }
    ).scrape_configs;
  const targetsOf = (job: ScrapeJob | undefined) =>
    job?.static_configs.map((config) => `${config.labels.instance_name}@${config.targets[0]}`);

  test('when scraped, then every BFF replica and service instance is a target on its app port', () => {
    const byName = new Map(jobs('/metrics').map((job) => [job.job_name, job]));

    assert.deepEqual(targetsOf(byName.get('bff')), [
      'bff-1@127.0.0.1:4100',
      'bff-2@127.0.0.1:4101',
      'bff-3@127.0.0.1:4102',
    ]);
    for (const [job, port] of [
      ['identity-profile', 4111],
      ['brand', 4121],
      ['media', 4131],
      ['offers', 4141],
      ['collaborations', 4151],
      ['notifications', 4161],
      ['moderation', 4171],
    ] as const)
      assert.deepEqual(targetsOf(byName.get(job)), [
        `${job}-1@127.0.0.1:${port}`,
        `${job}-2@127.0.0.1:${port + 1}`,
      ]);
    assert.equal(byName.get('bff')?.metrics_path, '/metrics');
    assert.equal(byName.get('zipkin')?.metrics_path, '/prometheus');
    assert.deepEqual(targetsOf(byName.get('haproxy')), ['haproxy@127.0.0.1:8404']);
    assert.deepEqual(targetsOf(byName.get('kafka')), [
      'kafka-scale-1@127.0.0.1:29292',
      'kafka-scale-2@127.0.0.1:29293',
      'kafka-scale-3@127.0.0.1:29294',
    ]);
    assert.equal(byName.get('kafka')?.metrics_path, '/metrics');
  });

  test('when another metrics path is configured, then the apps are scraped there and the others keep theirs', () => {
    const byName = new Map(
      jobs(scaleMetricsPath({ RALY_SCALE_METRICS_PATH: 'internal/metrics' })).map((job) => [
        job.job_name,
        job,
      ]),
    );

    assert.equal(byName.get('media')?.metrics_path, '/internal/metrics');
    assert.equal(byName.get('bff')?.metrics_path, '/internal/metrics');
    assert.equal(byName.get('haproxy')?.metrics_path, '/metrics');
  });
});

describe('scaled topology ports and instances', () => {
  test('when nothing is overridden, then no port of the scaled topology is one of the plain stack', () => {
    const plain = new Set<number>(Object.values(plainPorts));
    const scaled = Object.values(scalePortsFromEnv({})).flat();

    assert.deepEqual(
      scaled.filter((port) => plain.has(port)),
      [],
    );
    assert.equal(new Set(scaled).size, scaled.length);
  });

  test('when ports are overridden by environment, then they are used, and a wrong count or a repeated port is refused', () => {
    const ports = scalePortsFromEnv({
      RALY_SCALE_KAFKA_PORTS: '17092,17093,17094',
      RALY_SCALE_ENTRY_PORT: '18088',
    });

    assert.deepEqual(ports.kafka, [17092, 17093, 17094]);
    assert.equal(ports.entry, 18088);
    assert.throws(
      () => scalePortsFromEnv({ RALY_SCALE_BFF_PORTS: '18100,18101' }),
      /RALY_SCALE_BFF_PORTS: needs 3 ports, got 2/,
    );
    assert.throws(
      () => scalePortsFromEnv({ RALY_SCALE_ZIPKIN_PORT: '8088' }),
      /8088 is used twice/,
    );
    assert.throws(() => scalePortsFromEnv({ RALY_SCALE_WEB_PORT: 'x' }), /RALY_SCALE_WEB_PORT/);
  });

  test('when the instances are listed, then there are 3 BFF replicas and 2 of each service', () => {
    const names = scaleAppInstances(scalePortDefaults).map((instance) => instance.name);

    assert.deepEqual(names, [
      'identity-profile-1',
      'identity-profile-2',
      'brand-1',
      'brand-2',
      'media-1',
      'media-2',
      'offers-1',
      'offers-2',
      'collaborations-1',
      'collaborations-2',
      'notifications-1',
      'notifications-2',
      'moderation-1',
      'moderation-2',
      'bff-1',
      'bff-2',
      'bff-3',
    ]);
  });

  test('when a BFF replica gets its environment, then it has its port, the cluster, the service entries and the Zipkin endpoint', () => {
    const env = scaleInstanceEnvironment(
      scalePortDefaults,
      nativeEndpoints(),
      ['127.0.0.1:29092', '127.0.0.1:29093', '127.0.0.1:29094'],
      { name: 'bff-2', workspace: 'bff', port: 4101 },
    );

    assert.equal(env.PORT, '4101');
    assert.equal(env.KAFKA_BROKERS, '127.0.0.1:29092,127.0.0.1:29093,127.0.0.1:29094');
    assert.equal(env.IDENTITY_URL, 'http://127.0.0.1:4211');
    assert.equal(env.OFFERS_URL, 'http://127.0.0.1:4214');
    assert.equal(env.COLLABORATIONS_URL, 'http://127.0.0.1:4215');
    assert.equal(env.NOTIFICATIONS_URL, 'http://127.0.0.1:4216');
    assert.equal(env.MODERATION_URL, 'http://127.0.0.1:4217');
    assert.equal(env.OTEL_EXPORTER_ZIPKIN_ENDPOINT, 'http://127.0.0.1:9411/api/v2/spans');
    assert.equal(env.OTEL_SERVICE_NAME, 'bff');
    assert.equal(env.TRUST_PROXY, 'loopback');
    assert.ok(env.CORS_ORIGIN?.split(',').includes('http://localhost:8088'));
  });

  test('when a service instance gets its environment, then it has its own database under its own application_name, the topology Redis and no proxy trust', () => {
    const env = scaleInstanceEnvironment(scalePortDefaults, nativeEndpoints(), ['b:1'], {
      name: 'media-2',
      workspace: 'services/media',
      port: 4132,
    });

    assert.equal(env.PORT, '4132');
    const databaseUrl = new URL(env.DATABASE_URL ?? '');
    assert.equal(databaseUrl.pathname, '/raly_media');
    assert.equal(databaseUrl.searchParams.get('application_name'), 'raly-scale-8088-media-2');
    assert.equal(env.REDIS_URL, 'redis://127.0.0.1:6389');
    assert.equal(env.OTEL_SERVICE_NAME, 'media');
    assert.equal(env.OTEL_RESOURCE_ATTRIBUTES, 'service.instance.id=media-2');
    assert.equal(env.TRUST_PROXY, undefined);
  });

  test('when a notifications instance gets its environment, then it consumes from the cluster into its own database under its own application_name', () => {
    const instance = scaleAppInstances(scalePortDefaults).find(
      (each) => each.name === 'notifications-2',
    );
    assert.deepEqual(instance, {
      name: 'notifications-2',
      workspace: 'services/notifications',
      port: 4162,
      readinessUrl: 'http://127.0.0.1:4162/health/ready',
    });
    const env = scaleInstanceEnvironment(
      scalePortDefaults,
      nativeEndpoints(),
      ['127.0.0.1:29092', '127.0.0.1:29093', '127.0.0.1:29094'],
      instance,
    );

    assert.equal(env.PORT, '4162');
    assert.equal(env.KAFKA_BROKERS, '127.0.0.1:29092,127.0.0.1:29093,127.0.0.1:29094');
    const databaseUrl = new URL(env.DATABASE_URL ?? '');
    assert.equal(databaseUrl.pathname, '/raly_notifications');
    assert.equal(
      databaseUrl.searchParams.get('application_name'),
      'raly-scale-8088-notifications-2',
    );
    assert.equal(env.OTEL_SERVICE_NAME, 'notifications');
  });
});

describe('the web app behind the entry', () => {
  test('when web/nginx.conf is rendered for the scaled topology, then it serves web/dist on loopback with a runtime configuration the SPA accepts', () => {
    const config = renderWebServerConfig(scaleWebServerVariables(), 5174, '/srv/web/dist');

    assert.match(config, /listen 127\.0\.0\.1:5174;/);
    assert.match(config, /root \/srv\/web\/dist;/);
    assert.doesNotMatch(config, /\$\{[A-Z_]+\}/, 'every template variable is filled in');
    const body = /location = \/config\.json \{[^}]*return 200 '([^']+)'/.exec(config)?.[1];
    assert.deepEqual(JSON.parse(body ?? 'null'), {
      bffUrl: '',
      backendEnvironment: 'local',
      consoleKeycloakUrl: '',
      consoleRealm: 'raly',
      consoleClientId: 'raly-console',
    });
  });
});

describe('stack status of the scaled topology', () => {
  test('when the scaled topology is asked for, then every node, the load balancer, the topology Redis, Prometheus, Zipkin and each instance is listed', async () => {
    const names = (await stackStatus({ scale: true })).map((status) => status.name);

    for (const name of [
      'kafka-scale-1',
      'kafka-scale-2',
      'kafka-scale-3',
      'haproxy',
      'redis-scale',
      'prometheus',
      'zipkin',
      'bff-1',
      'bff-2',
      'bff-3',
      'identity-profile-1',
      'identity-profile-2',
      'brand-2',
      'media-2',
      'offers-2',
      'collaborations-2',
      'notifications-1',
      'notifications-2',
      'moderation-1',
      'moderation-2',
      'web',
    ])
      assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
    assert.ok(names.includes('postgres'), 'the plain components are still listed');
  });

  test('when the scaled topology is asked for, then the plain one-broker Kafka is marked unused and only it', async () => {
    const statuses = await stackStatus({ scale: true });

    assert.deepEqual(
      statuses.filter((status) => status.unused).map((status) => status.name),
      ['kafka'],
    );
    assert.equal(
      (await stackStatus()).find((status) => status.name === 'kafka')?.unused,
      undefined,
    );
  });
});

/**
 * The stack in containers through testcontainers, for machines with a Docker
 * engine. Containers live as long as the process (testcontainers' reaper
 * removes them), so `npm test` starts them once and hands their addresses to
 * each workspace through environment variables.
 */
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { StackEndpoints } from './endpoints';
import { images } from './images';
import { infraRoot } from './paths';
import { withProgress } from './progress';
import {
  identityClientSecretDefault,
  loginClientSecretDefault,
  kafkaTopicPartitions,
  realm,
  s3Defaults,
  serviceDatabases,
} from './settings';

function pingDockerSocket(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ping = request(
      { socketPath, path: '/_ping', method: 'GET', timeout: 1500 },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    ping.once('error', () => resolve(false));
    ping.once('timeout', () => {
      ping.destroy();
      resolve(false);
    });
    ping.end();
  });
}

/** Whether a Docker engine answers (DOCKER_HOST, or the usual sockets). */
export async function dockerEngineAnswers(): Promise<boolean> {
  const dockerHost = process.env.DOCKER_HOST;
  if (dockerHost?.startsWith('tcp://')) {
    try {
      const response = await fetch(`${dockerHost.replace('tcp://', 'http://')}/_ping`, {
        signal: AbortSignal.timeout(1500),
      });
      return response.ok;
    } catch {
      return false;
    }
  }
  const sockets = [
    dockerHost?.startsWith('unix://') ? dockerHost.slice('unix://'.length) : undefined,
    '/var/run/docker.sock',
    process.env.HOME ? join(process.env.HOME, '.docker/run/docker.sock') : undefined,
    process.env.XDG_RUNTIME_DIR ? join(process.env.XDG_RUNTIME_DIR, 'docker.sock') : undefined,
  ].filter((path): path is string => Boolean(path) && existsSync(path as string));
  for (const socket of sockets) if (await pingDockerSocket(socket)) return true;
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export async function startContainerStack(): Promise<StackEndpoints> {
  const { GenericContainer, Network, Wait, getContainerRuntimeClient } =
    await import('testcontainers');
  return withProgress('containers', 'starting the stack with testcontainers', async () => {
    const network = await new Network().start();
    const kafkaHostPort = await freePort();
    // Kafka tells clients where to reconnect, so its advertised address must be the one they see.
    const runtimeHost = (await getContainerRuntimeClient()).info.containerRuntime.host;

    const createDatabases = serviceDatabases
      .map((database) => `create database ${database};`)
      .join('\n');
    const postgres = new GenericContainer(images.postgres)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withCopyContentToContainer([
        { content: createDatabases, target: '/docker-entrypoint-initdb.d/raly.sql' },
      ])
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    const redis = new GenericContainer(images.redis)
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .start();
    const kafka = new GenericContainer(images.kafka)
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,BROKER://:29092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${runtimeHost}:${kafkaHostPort},BROKER://localhost:29092`,
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP:
          'PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
        KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_NUM_PARTITIONS: String(kafkaTopicPartitions),
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
      })
      .withExposedPorts({ container: 9092, host: kafkaHostPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start();
    const smtp = new GenericContainer(images.smtp)
      .withNetwork(network)
      .withNetworkAliases('smtp')
      .withExposedPorts(1025, 1080)
      .withWaitStrategy(Wait.forHttp('/healthz', 1080))
      .start();
    const s3 = new GenericContainer(images.s3)
      .withEnvironment({ COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS: s3Defaults.bucket })
      .withExposedPorts(9090)
      .withWaitStrategy(Wait.forHttp('/', 9090))
      .start();
    const keycloak = new GenericContainer(images.keycloak)
      .withNetwork(network)
      .withEnvironment({
        KC_BOOTSTRAP_ADMIN_USERNAME: 'admin',
        KC_BOOTSTRAP_ADMIN_PASSWORD: 'admin',
        KC_HEALTH_ENABLED: 'true',
        RALY_KEYCLOAK_SMTP_HOST: 'smtp',
        RALY_KEYCLOAK_SMTP_PORT: '1025',
        KEYCLOAK_IDENTITY_CLIENT_SECRET: identityClientSecretDefault,
      })
      .withCopyFilesToContainer([
        {
          source: join(infraRoot, 'keycloak', 'raly-realm.json'),
          target: '/opt/keycloak/data/import/raly-realm.json',
        },
      ])
      .withCommand(['start-dev', '--import-realm'])
      .withExposedPorts(8080, 9000)
      .withWaitStrategy(Wait.forHttp('/health/ready', 9000).withStartupTimeout(300_000))
      .withStartupTimeout(300_000)
      .start();

    const [postgresContainer, redisContainer, , smtpContainer, s3Container, keycloakContainer] =
      await Promise.all([postgres, redis, kafka, smtp, s3, keycloak]);
    const hostOf = postgresContainer.getHost();
    const postgresPort = postgresContainer.getMappedPort(5432);
    return {
      databaseUrl: (database: string) =>
        `postgresql://postgres@${hostOf}:${postgresPort}/${database}`,
      redisUrl: `redis://${redisContainer.getHost()}:${redisContainer.getMappedPort(6379)}`,
      kafkaBrokers: [`${runtimeHost}:${kafkaHostPort}`],
      keycloakUrl: `http://${keycloakContainer.getHost()}:${keycloakContainer.getMappedPort(8080)}`,
      // No fixed hostname in the container: the issuer follows the address tests call it on.
      keycloakPublicUrl: `http://${keycloakContainer.getHost()}:${keycloakContainer.getMappedPort(8080)}`,
      realm,
      identityClientSecret: identityClientSecretDefault,
      loginClientSecret: loginClientSecretDefault,
      s3: {
        endpoint: `http://${s3Container.getHost()}:${s3Container.getMappedPort(9090)}`,
        ...s3Defaults,
      },
      smtp: { host: smtpContainer.getHost(), port: smtpContainer.getMappedPort(1025) },
      smtpCatcherUrl: `http://${smtpContainer.getHost()}:${smtpContainer.getMappedPort(1080)}`,
    };
  });
}

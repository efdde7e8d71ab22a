/**
 * Keycloak (Quarkus distribution from Maven Central) in dev mode on
 * 127.0.0.1:8080, management/health on 9000. Its database is the local Postgres
 * database raly_keycloak, so the dev server keeps no state of its own.
 *
 * The realm comes from infra/keycloak/raly-realm.json through --import-realm,
 * which only imports a realm that does not exist yet. So the stack remembers the
 * hash of the file it imported: when the file changes, Keycloak's database is
 * recreated and the realm imported again (users created locally are lost then).
 *
 * Traces: when the stack starts with OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, Keycloak exports its own spans
 * there over OTLP/HTTP (protobuf) as service `keycloak`, following the
 * caller's sampling decision, so a sign-in through the BFF (whose call to the
 * token endpoint carries `traceparent`) is one trace from the BFF into Keycloak.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackComponent } from './component';
import { findJava, requireJava } from './java';
import { copyArtifact } from './maven';
import { dataDirectory, downloadsDirectory, ensureDirectory, infraRoot } from './paths';
import { recreateDatabase } from './postgres';
import {
  execFileAsync,
  recordedLiveProcess,
  startBackgroundProcess,
  stopRecorded,
} from './processes';
import { httpAnswers, tcpAnswers, waitUntilHealthy } from './probes';
import { say, withProgress } from './progress';
import {
  host,
  identityClientSecretDefault,
  loginClientSecretDefault,
  keycloakAdmin,
  keycloakDatabase,
  keycloakPublicUrl,
  ports,
  postgresUrl,
  realm,
} from './settings';

const name = 'keycloak';
export const keycloakVersion = '26.7.3';

/**
 * Keycloak's tracing options (Keycloak 26 `tracing-*`, `telemetry-service-name`) for the
 * OpenTelemetry variables of `env`. Keycloak (Quarkus) appends `/v1/traces` to its endpoint
 * itself, so it gets the base URL: OTEL_EXPORTER_OTLP_ENDPOINT, or the traces endpoint without
 * that suffix.
 * @returns `[]` (tracing off) unless an OTLP endpoint is set
 */
export function keycloakTracingOptions(env: NodeJS.ProcessEnv): string[] {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: traces } = env;
  const endpoint = (traces?.replace(/\/v1\/traces\/?$/, '') ?? base)?.replace(/\/+$/, '');
  if (!endpoint) return [];
  return [
    '--tracing-enabled=true',
    `--tracing-endpoint=${endpoint}`,
    '--tracing-protocol=http/protobuf',
    '--tracing-sampler-type=parentbased_always_on',
    '--telemetry-service-name=keycloak',
  ];
}
const distributionZip = join(downloadsDirectory, `keycloak-quarkus-dist-${keycloakVersion}.zip`);
const realmFile = join(infraRoot, 'keycloak', 'raly-realm.json');
const keycloakUrl = `http://${host}:${ports.keycloak}`;

function serverHome(): string {
  return join(dataDirectory(name), `keycloak-${keycloakVersion}`);
}

function importedRealmHashFile(): string {
  return join(dataDirectory(name), 'imported-realm.sha256');
}

function realmFileHash(): string {
  return createHash('sha256').update(keycloakVersion).update(readFileSync(realmFile)).digest('hex');
}

function importedRealmHash(): string | undefined {
  const path = importedRealmHashFile();
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}

async function realmAnswers(): Promise<boolean> {
  return httpAnswers(`${keycloakUrl}/realms/${realm}/.well-known/openid-configuration`);
}

async function isHealthy(): Promise<boolean> {
  return (
    (await httpAnswers(`http://${host}:${ports.keycloakManagement}/health/ready`)) &&
    (await realmAnswers())
  );
}

async function ensureServerFiles(): Promise<void> {
  if (existsSync(join(serverHome(), 'bin', 'kc.sh'))) return;
  if (!existsSync(distributionZip)) {
    await withProgress(name, `downloading Keycloak ${keycloakVersion} with mvn (≈180 MB)`, () =>
      copyArtifact(
        name,
        `org.keycloak:keycloak-quarkus-dist:${keycloakVersion}:zip`,
        downloadsDirectory,
      ),
    );
  }
  await withProgress(name, 'unpacking', () =>
    execFileAsync('unzip', ['-q', '-o', distributionZip, '-d', dataDirectory(name)]).then(
      () => undefined,
    ),
  );
}

async function startServer(): Promise<void> {
  // Keycloak 26.7 still runs on Java 17 but recommends 21+; take the newest available.
  const java = findJava(21) ?? requireJava(name, 17);
  const home = serverHome();
  copyFileSync(realmFile, join(ensureDirectory(join(home, 'data', 'import')), 'raly-realm.json'));
  const jdbcUrl = postgresUrl(keycloakDatabase).replace(
    /^postgresql:\/\/postgres@/,
    'jdbc:postgresql://',
  );
  await withProgress(
    name,
    `starting Keycloak ${keycloakVersion} on Java ${java.featureVersion} (≈40 s)`,
    async () => {
      const pid = startBackgroundProcess({
        component: name,
        command: join(home, 'bin', 'kc.sh'),
        args: [
          'start-dev',
          '--import-realm',
          `--http-host=${host}`,
          `--http-port=${ports.keycloak}`,
          `--http-management-port=${ports.keycloakManagement}`,
          // docs/conventions.md, "Keycloak host names": one issuer (http://localhost:8080) whichever
          // host asks, while servers call it on 127.0.0.1 (back channel).
          `--hostname=${keycloakPublicUrl}`,
          '--hostname-backchannel-dynamic=true',
          '--health-enabled=true',
          '--db=postgres',
          `--db-url=${jdbcUrl}`,
          '--db-username=postgres',
          '--db-password=postgres',
          ...keycloakTracingOptions(process.env),
        ],
        cwd: home,
        env: {
          JAVA_HOME: java.home,
          JAVA_OPTS_KC_HEAP: '-Xms256m -Xmx1g',
          KC_BOOTSTRAP_ADMIN_USERNAME: keycloakAdmin.username,
          KC_BOOTSTRAP_ADMIN_PASSWORD: keycloakAdmin.password,
          KEYCLOAK_IDENTITY_CLIENT_SECRET:
            process.env.KEYCLOAK_IDENTITY_CLIENT_SECRET ?? identityClientSecretDefault,
          KEYCLOAK_BFF_LOGIN_CLIENT_SECRET:
            process.env.KEYCLOAK_BFF_LOGIN_CLIENT_SECRET ?? loginClientSecretDefault,
        },
      });
      await waitUntilHealthy(isHealthy, {
        component: name,
        timeoutMs: 300_000,
        intervalMs: 1000,
        stillStarting: () => {
          if (!recordedLiveProcess(name))
            throw new Error(
              `${name}: exited while starting (pid ${pid}); see .stack/logs/${name}.log`,
            );
        },
      });
    },
  );
}

/** True while anything listens on Keycloak's HTTP or management port (a Keycloak running or starting). */
async function portsInUse(): Promise<boolean> {
  return (
    (await tcpAnswers(ports.keycloak, host)) || (await tcpAnswers(ports.keycloakManagement, host))
  );
}

async function ensure(): Promise<'reused' | 'started'> {
  const currentHash = realmFileHash();
  const realmChanged = importedRealmHash() !== currentHash;
  // A Keycloak this stack did not start (another checkout's, or one still
  // starting or slow under load) answers on its ports but not yet as healthy:
  // wait for it rather than recreate the database under it.
  if (!recordedLiveProcess(name) && !(await isHealthy()) && (await portsInUse())) {
    say(name, 'another Keycloak is listening on its ports: waiting until it is healthy');
    await waitUntilHealthy(isHealthy, { component: name, timeoutMs: 300_000, intervalMs: 1000 });
  }
  if (await isHealthy()) {
    if (!realmChanged) return 'reused';
    if (!recordedLiveProcess(name)) {
      say(
        name,
        'warning: infra/keycloak/raly-realm.json changed, but the running Keycloak was not started by this stack; restart it to re-import the realm',
      );
      return 'reused';
    }
    say(name, 'realm file changed: restarting Keycloak to re-import it');
  }
  if (recordedLiveProcess(name)) await stopRecorded(name);
  if (await portsInUse())
    throw new Error(
      `${name}: ports ${ports.keycloak}/${ports.keycloakManagement} are taken by a process this stack did not start; stop it first`,
    );
  await ensureServerFiles();
  if (realmChanged) {
    say(
      name,
      `realm file is new or changed: recreating database ${keycloakDatabase} so it is imported afresh`,
    );
    await recreateDatabase(keycloakDatabase);
  }
  await startServer();
  writeFileSync(importedRealmHashFile(), `${currentHash}\n`);
  return 'started';
}

export const keycloak: StackComponent = {
  name,
  address: `${host}:${ports.keycloak} (health ${ports.keycloakManagement})`,
  isHealthy,
  ensure,
  stop: () => stopRecorded(name, 30_000),
};

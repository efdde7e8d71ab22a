/**
 * Composition root of identity-profile: configuration, database, Keycloak
 * Admin API, outbox relay and the HTTP API. `start()`/`stop()` run it
 * in-process (tests use port 0); `main.ts` runs it as a process.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { createLogger } from '@raly/service-kit/logger';
import { runService, type RunningService } from '@raly/service-kit/service';
import { accountsRouter } from './api/accounts-router';
import { queriesRouter } from './api/queries-router';
import { usersRouter } from './api/users-router';
import { configSchema } from './config';
import { openIdentityDatabase } from './data-access/database';
import { keycloakUsers } from './data-access/keycloak-users';
import { userRepository } from './data-access/user-repository';

const serviceName = 'identity-profile';
let running: RunningService | undefined;

export interface StartOptions {
  /** TCP port; 0 picks a free one. Default env PORT, else 4001. */
  port?: number;
  /** Overrides of the environment (tests pass their own DATABASE_URL etc.). */
  env?: Record<string, string | undefined>;
}

/**
 * Starts the service (the database must be migrated: `npm run migrate`).
 * @returns the bound port
 * @throws Error for an invalid configuration, or when already started
 */
export async function start(options: StartOptions = {}): Promise<{ port: number }> {
  if (running) throw new Error(`${serviceName} is already started`);
  const config = loadConfig(configSchema, { ...process.env, ...options.env });
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openIdentityDatabase(config.DATABASE_URL);
  const keycloak = keycloakUsers({
    url: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_IDENTITY_CLIENT_ID,
    clientSecret: config.KEYCLOAK_IDENTITY_CLIENT_SECRET,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
  });
  running = await runService({
    name: serviceName,
    logger,
    port: options.port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    database,
    routes: (app, relay) => {
      const deps = {
        users: userRepository(database.prisma),
        keycloak,
        eventsCommitted: () => relay.wake(),
        logger,
      };
      app.use(accountsRouter(deps));
      app.use(usersRouter(deps, verifyAccessToken));
      app.use(queriesRouter(deps));
    },
  });
  return { port: running.port };
}

/** Stops the HTTP server, then the relay, then closes the database. */
export async function stop(): Promise<void> {
  const service = running;
  running = undefined;
  await service?.stop();
}

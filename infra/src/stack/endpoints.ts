/**
 * How code reaches the stack, wherever it runs (native, containers or given by
 * environment variables), and the environment variables that carry it to the
 * services (docs/conventions.md lists the names).
 */
import {
  host,
  identityClientSecretDefault,
  keycloakPublicUrl,
  loginClientSecretDefault,
  ports,
  postgresUrl,
  realm,
  s3Defaults,
} from './settings';

export interface StackEndpoints {
  /** A Postgres URL for one database, e.g. databaseUrl('raly_identity'). */
  databaseUrl(databaseName: string): string;
  redisUrl: string;
  kafkaBrokers: string[];
  /** Back channel: where servers and tests call Keycloak. */
  keycloakUrl: string;
  /** Front channel: the origin of the tokens' issuer (`iss = <keycloakPublicUrl>/realms/<realm>`). */
  keycloakPublicUrl: string;
  realm: string;
  identityClientSecret: string;
  /** The secret of the BFF's sign-in client `raly-bff-login` (password and refresh grants, docs/adr/0009). */
  loginClientSecret: string;
  s3: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
  };
  smtp: { host: string; port: number };
  smtpCatcherUrl: string;
}

export function nativeEndpoints(): StackEndpoints {
  return {
    databaseUrl: postgresUrl,
    redisUrl: `redis://${host}:${ports.redis}`,
    kafkaBrokers: [`${host}:${ports.kafka}`],
    keycloakUrl: `http://${host}:${ports.keycloak}`,
    keycloakPublicUrl,
    realm,
    identityClientSecret:
      process.env.KEYCLOAK_IDENTITY_CLIENT_SECRET ?? identityClientSecretDefault,
    loginClientSecret: process.env.KEYCLOAK_BFF_LOGIN_CLIENT_SECRET ?? loginClientSecretDefault,
    s3: { endpoint: `http://${host}:${ports.s3}`, ...s3Defaults },
    smtp: { host, port: ports.smtp },
    smtpCatcherUrl: `http://${host}:${ports.smtpCatcherHttp}`,
  };
}

/** Points a Postgres URL at another database of the same server. */
export function withDatabase(databaseUrl: string, databaseName: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/**
 * The stack described by environment variables, when KAFKA_BROKERS and
 * KEYCLOAK_URL are both given; the others fall back to the conventions'
 * defaults. Databases are found through DATABASE_URL, else RALY_POSTGRES_URL
 * (which `npm test` and `npm start` also export to workspaces without a database).
 */
export function endpointsFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): StackEndpoints | undefined {
  const { KAFKA_BROKERS, KEYCLOAK_URL } = env;
  if (!KAFKA_BROKERS || !KEYCLOAK_URL) return undefined;
  const defaults = nativeEndpoints();
  const postgresServerUrl =
    env.DATABASE_URL ?? env.RALY_POSTGRES_URL ?? defaults.databaseUrl('postgres');
  const smtpUrl = env.SMTP_URL ? new URL(env.SMTP_URL) : undefined;
  return {
    databaseUrl: (databaseName) => withDatabase(postgresServerUrl, databaseName),
    redisUrl: env.REDIS_URL ?? defaults.redisUrl,
    kafkaBrokers: KAFKA_BROKERS.split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
    keycloakUrl: KEYCLOAK_URL.replace(/\/$/, ''),
    keycloakPublicUrl: (env.KEYCLOAK_PUBLIC_URL ?? defaults.keycloakPublicUrl).replace(/\/$/, ''),
    realm: env.KEYCLOAK_REALM ?? defaults.realm,
    identityClientSecret: env.KEYCLOAK_IDENTITY_CLIENT_SECRET ?? defaults.identityClientSecret,
    loginClientSecret: env.KEYCLOAK_BFF_LOGIN_CLIENT_SECRET ?? defaults.loginClientSecret,
    s3: {
      endpoint: env.S3_ENDPOINT ?? defaults.s3.endpoint,
      bucket: env.S3_BUCKET ?? defaults.s3.bucket,
      region: env.S3_REGION ?? defaults.s3.region,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? defaults.s3.accessKeyId,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? defaults.s3.secretAccessKey,
    },
    smtp: smtpUrl ? { host: smtpUrl.hostname, port: Number(smtpUrl.port || 25) } : defaults.smtp,
    smtpCatcherUrl: env.SMTP_CATCHER_URL ?? defaults.smtpCatcherUrl,
  };
}

/** Which database each workspace owns; DATABASE_URL is set per workspace from this. */
export const workspaceDatabases: Record<string, string> = {
  'services/identity-profile': 'raly_identity',
  'services/brand': 'raly_brand',
  'services/media': 'raly_media',
  'services/offers': 'raly_offers',
  'services/collaborations': 'raly_collaborations',
  'services/notifications': 'raly_notifications',
  'services/moderation': 'raly_moderation',
};

/** The environment variables of docs/conventions.md for a child process. */
export function stackEnvironment(
  endpoints: StackEndpoints,
  workspace?: string,
): Record<string, string> {
  const database = workspace ? workspaceDatabases[workspace] : undefined;
  return {
    ...(database ? { DATABASE_URL: endpoints.databaseUrl(database) } : {}),
    RALY_POSTGRES_URL: endpoints.databaseUrl('postgres'),
    REDIS_URL: endpoints.redisUrl,
    KAFKA_BROKERS: endpoints.kafkaBrokers.join(','),
    KEYCLOAK_URL: endpoints.keycloakUrl,
    KEYCLOAK_PUBLIC_URL: endpoints.keycloakPublicUrl,
    KEYCLOAK_REALM: endpoints.realm,
    KEYCLOAK_IDENTITY_CLIENT_SECRET: endpoints.identityClientSecret,
    KEYCLOAK_BFF_LOGIN_CLIENT_SECRET: endpoints.loginClientSecret,
    KEYCLOAK_LOGIN_CLIENT_SECRET: endpoints.loginClientSecret,
    S3_ENDPOINT: endpoints.s3.endpoint,
    S3_BUCKET: endpoints.s3.bucket,
    S3_REGION: endpoints.s3.region,
    S3_ACCESS_KEY_ID: endpoints.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: endpoints.s3.secretAccessKey,
    SMTP_URL: `smtp://${endpoints.smtp.host}:${endpoints.smtp.port}`,
    SMTP_CATCHER_URL: endpoints.smtpCatcherUrl,
    BFF_URL: `http://${host}:${ports.bff}`,
    IDENTITY_URL: `http://${host}:${ports.identity}`,
    BRAND_URL: `http://${host}:${ports.brand}`,
    MEDIA_URL: `http://${host}:${ports.media}`,
    OFFERS_URL: `http://${host}:${ports.offers}`,
    COLLABORATIONS_URL: `http://${host}:${ports.collaborations}`,
    NOTIFICATIONS_URL: `http://${host}:${ports.notifications}`,
    MODERATION_URL: `http://${host}:${ports.moderation}`,
    WEB_URL: `http://localhost:${ports.web}`,
  };
}

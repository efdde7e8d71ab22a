/**
 * The stack's addresses and local defaults, exactly as docs/conventions.md lists
 * them. Every other module reads ports and URLs from here, never from literals.
 */
export const ports = {
  postgres: 5432,
  redis: 6379,
  kafka: 9092,
  kafkaController: 9093,
  keycloak: 8080,
  keycloakManagement: 9000,
  s3: 9090,
  s3Https: 9191,
  smtp: 1025,
  smtpCatcherHttp: 1080,
  bff: 4000,
  identity: 4001,
  brand: 4002,
  media: 4003,
  offers: 4004,
  collaborations: 4005,
  notifications: 4006,
  moderation: 4007,
  web: 5173,
} as const;

export const host = '127.0.0.1';

export const serviceDatabases = [
  'raly_identity',
  'raly_brand',
  'raly_media',
  'raly_offers',
  'raly_collaborations',
  'raly_notifications',
  'raly_moderation',
] as const;
export const keycloakDatabase = 'raly_keycloak';

export const realm = 'raly';
/** The issuer's origin: what tokens carry and the browser talks to (docs/conventions.md). */
export const keycloakPublicUrl = `http://localhost:${ports.keycloak}`;
export const identityClientSecretDefault = 'raly-identity-local-secret';
/** The BFF's sign-in client `raly-bff-login` (docs/adr/0009): the realm file's development default. */
export const loginClientSecretDefault = 'raly-bff-login-local-secret';
export const keycloakAdmin = { username: 'admin', password: 'admin' } as const;

export const s3Defaults = {
  bucket: 'raly-media',
  region: 'us-east-1',
  // S3Mock accepts any credentials; these only have to be non-empty for the SDKs.
  accessKeyId: 'raly-local',
  secretAccessKey: 'raly-local-secret',
} as const;

export const kafkaTopics = [
  'identity.user.v1',
  'brand.brand.v1',
  'brand.team.v1',
  'media.image.v1',
  'offers.offer.v1',
  'offers.application.v1',
  'collaborations.collaboration.v1',
  'collaborations.message.v1',
  'notifications.inbox.v1',
  'identity.audit.v1',
  'brand.audit.v1',
  'moderation.report.v1',
  'moderation.audit.v1',
  'live.presence.v1',
] as const;
export const kafkaTopicPartitions = 3;

export function allKafkaTopics(): string[] {
  return kafkaTopics.flatMap((topic) => [topic, `${topic}.dlq`]);
}

export function postgresUrl(database: string): string {
  return `postgresql://postgres@${host}:${ports.postgres}/${database}`;
}

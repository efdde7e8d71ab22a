/**
 * Container images of the stack, for testcontainers. docker-compose.yml at the
 * repository root uses the same tags; change both together.
 */
export const images = {
  postgres: 'postgres:15-alpine',
  redis: 'redis:7-alpine',
  kafka: 'apache/kafka:4.3.1',
  keycloak: 'keycloak/keycloak:26.7.3',
  s3: 'adobe/s3mock:5.2.0',
  smtp: 'maildev/maildev:2.2.1',
} as const;

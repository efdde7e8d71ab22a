/**
 * In production mode (NODE_ENV=production) media refuses to start with a
 * secret unset or at its development default, naming the variable.
 */
import { loadConfig } from '@raly/service-kit/config';
import { describeProductionSecrets } from '@raly/test-support/production-secrets';
import { configSchema } from '../src/config';

describeProductionSecrets('media', (env) => loadConfig(configSchema, env), {
  DATABASE_URL:
    'postgresql://raly_media:pr0d-secret@raly-postgres-pooler-rw:5432/raly_media?sslmode=no-verify',
  KEYCLOAK_SERVICE_CLIENT_SECRET: 'prod-media-service-secret',
  S3_ACCESS_KEY_ID: 'AKIAPRODUCTION',
  S3_SECRET_ACCESS_KEY: 'prod-s3-secret-access-key',
});

/**
 * In production mode (NODE_ENV=production) identity-profile refuses to start with a
 * secret unset or at its development default, naming the variable.
 */
import { loadConfig } from '@raly/service-kit/config';
import { describeProductionSecrets } from '@raly/test-support/production-secrets';
import { configSchema } from '../src/config';

describeProductionSecrets('identity-profile', (env) => loadConfig(configSchema, env), {
  DATABASE_URL:
    'postgresql://raly_identity:pr0d-secret@raly-postgres-pooler-rw:5432/raly_identity?sslmode=no-verify',
  KEYCLOAK_SERVICE_CLIENT_SECRET: 'prod-identity-service-secret',
  KEYCLOAK_IDENTITY_CLIENT_SECRET: 'prod-identity-admin-secret',
  SMTP_URL: 'smtp://raly:pr0d@smtp.example.com:587',
});

/**
 * In production mode (NODE_ENV=production) brand refuses to start with a
 * secret unset or at its development default, naming the variable.
 */
import { loadConfig } from '@raly/service-kit/config';
import { describeProductionSecrets } from '@raly/test-support/production-secrets';
import { configSchema } from '../src/config';

describeProductionSecrets('brand', (env) => loadConfig(configSchema, env), {
  DATABASE_URL:
    'postgresql://raly_brand:pr0d-secret@raly-postgres-pooler-rw:5432/raly_brand?sslmode=no-verify',
  KEYCLOAK_SERVICE_CLIENT_SECRET: 'prod-brand-service-secret',
  SMTP_URL: 'smtps://raly:pr0d-mail-secret@smtp.example.com:465',
});

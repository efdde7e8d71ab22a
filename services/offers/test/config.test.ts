/**
 * In production mode (NODE_ENV=production) offers refuses to start with a
 * secret unset or at its development default, naming the variable.
 */
import { loadConfig } from '@raly/service-kit/config';
import { describeProductionSecrets } from '@raly/test-support/production-secrets';
import { configSchema } from '../src/config';

describeProductionSecrets('offers', (env) => loadConfig(configSchema, env), {
  DATABASE_URL:
    'postgresql://raly_offers:pr0d-secret@raly-postgres-pooler-rw:5432/raly_offers?sslmode=no-verify',
});

/**
 * In production mode (NODE_ENV=production) the BFF refuses to start with a
 * secret unset or at its development default, naming the variable.
 */
import { describeProductionSecrets } from '@raly/test-support/production-secrets';
import { loadConfig } from '../src/config';

describeProductionSecrets('bff', loadConfig, {
  REDIS_URL: 'rediss://:pr0d-secret@redis.example.com:6380',
  DEVICE_COOKIE_SECRET: 'a-production-device-cookie-secret-0123456789',
  KEYCLOAK_SERVICE_CLIENT_SECRET: 'prod-bff-service-secret',
  KEYCLOAK_LOGIN_CLIENT_SECRET: 'prod-bff-login-secret',
});

import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { endpointsFromEnvironment, stackEnvironment, withDatabase } from '../src/stack/endpoints';

describe('stack endpoints from environment variables', () => {
  test('when KAFKA_BROKERS or KEYCLOAK_URL is missing, then the environment does not describe a stack', () => {
    assert.equal(endpointsFromEnvironment({ KAFKA_BROKERS: 'k:9092' }), undefined);
    assert.equal(endpointsFromEnvironment({ KEYCLOAK_URL: 'http://kc:8080' }), undefined);
  });

  test('when the conventions variables are given, then every database is found on the DATABASE_URL server', () => {
    const endpoints = endpointsFromEnvironment({
      KAFKA_BROKERS: 'a:9092, b:9092',
      KEYCLOAK_URL: 'http://kc:8080/',
      DATABASE_URL: 'postgresql://postgres@db:5433/raly_identity',
      SMTP_URL: 'smtp://mail:2525',
    });
    assert.ok(endpoints);
    assert.deepEqual(endpoints.kafkaBrokers, ['a:9092', 'b:9092']);
    assert.equal(endpoints.keycloakUrl, 'http://kc:8080');
    assert.equal(endpoints.databaseUrl('raly_media'), 'postgresql://postgres@db:5433/raly_media');
    assert.deepEqual(endpoints.smtp, { host: 'mail', port: 2525 });
    assert.equal(endpoints.keycloakPublicUrl, 'http://localhost:8080');
  });

  test('when a workspace owns a database, then its environment carries that DATABASE_URL', () => {
    const endpoints = endpointsFromEnvironment({
      KAFKA_BROKERS: 'k:9092',
      KEYCLOAK_URL: 'http://kc:8080',
    });
    assert.ok(endpoints);
    assert.equal(
      stackEnvironment(endpoints, 'services/brand').DATABASE_URL,
      'postgresql://postgres@127.0.0.1:5432/raly_brand',
    );
    assert.equal(stackEnvironment(endpoints, 'bff').DATABASE_URL, undefined);
    assert.equal(
      withDatabase('postgresql://u:p@h:1/x?sslmode=disable', 'y'),
      'postgresql://u:p@h:1/y?sslmode=disable',
    );
  });
});

/**
 * Production mode refuses development secrets (src/config.ts): with
 * NODE_ENV=production a secret left unset or at its development default
 * stops the start with a message naming the variable; real values pass;
 * outside production the defaults stand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { z } from 'zod';
import { loadConfig, secretWithDevelopmentDefault, serviceConfigShape } from '../src/config';

const schema = z.object({
  ...serviceConfigShape({ port: 4999, database: 'raly_test' }),
  API_SECRET: secretWithDevelopmentDefault(z.string().min(16), 'raly-local-api-secret'),
  NOT_SECRET: z.string().default('plain-default'),
});

const messageOf = (env: Record<string, string>) => {
  try {
    loadConfig(schema, env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('secrets in production mode', () => {
  test('when a secret is unset in production, then the start fails naming each missing secret', () => {
    const message = messageOf({ NODE_ENV: 'production' });
    assert.match(message, /API_SECRET: a secret, required in production/);
    assert.match(message, /DATABASE_URL: a secret, required in production/);
    assert.doesNotMatch(message, /NOT_SECRET/);
  });

  test('when a secret is still the development default in production, then the start fails naming it', () => {
    const message = messageOf({
      NODE_ENV: 'production',
      API_SECRET: 'raly-local-api-secret',
      DATABASE_URL: 'postgresql://raly:s3cret@db:5432/raly_test',
    });
    assert.match(message, /API_SECRET: still the development default/);
    assert.doesNotMatch(message, /DATABASE_URL/);
  });

  test('when every secret has a real value in production, then the configuration loads', () => {
    const config = loadConfig(schema, {
      NODE_ENV: 'production',
      API_SECRET: 'a-real-production-secret',
      DATABASE_URL: 'postgresql://raly:s3cret@db:5432/raly_test',
    });
    assert.equal(config.API_SECRET, 'a-real-production-secret');
  });

  test('when not in production, then the development defaults stand', () => {
    const config = loadConfig(schema, { NODE_ENV: 'development' });
    assert.equal(config.API_SECRET, 'raly-local-api-secret');
    assert.equal(config.DATABASE_URL, 'postgresql://postgres@127.0.0.1:5432/raly_test');
  });

  test('when a secret is also malformed in production, then both problems are named', () => {
    const message = messageOf({ NODE_ENV: 'production', API_SECRET: 'short' });
    assert.match(message, /API_SECRET: Too small/i);
    assert.match(message, /DATABASE_URL: a secret/);
  });
});

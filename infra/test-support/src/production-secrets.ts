/**
 * The shared test of an app's production secrets: with
 * NODE_ENV=production its config loader refuses each secret left unset or
 * at its development default, naming the variable, and accepts real values.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

/**
 * Declares the tests of one app's config loader.
 * @param app the app's name, for the test titles
 * @param load the app's config loader over an environment (throws on invalid configuration)
 * @param production a real value for every secret of the app (the variables the tests expect refused)
 */
export function describeProductionSecrets(
  app: string,
  load: (env: Record<string, string | undefined>) => unknown,
  production: Record<string, string>,
): void {
  const failureOf = (env: Record<string, string | undefined>): string => {
    try {
      load(env);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };
  describe(`${app} configuration in production mode`, () => {
    test('when no secret is set, then loading fails naming every secret', () => {
      const message = failureOf({ NODE_ENV: 'production' });
      for (const name of Object.keys(production))
        assert.match(message, new RegExp(`${name}: a secret, required in production`));
    });

    test('when each secret is still its development default, then loading fails naming it', () => {
      const defaults = load({ NODE_ENV: 'development' }) as Record<string, unknown>;
      for (const name of Object.keys(production)) {
        const message = failureOf({
          NODE_ENV: 'production',
          ...production,
          [name]: String(defaults[name]),
        });
        assert.match(message, new RegExp(`${name}: still the development default`), name);
        for (const other of Object.keys(production))
          if (other !== name) assert.doesNotMatch(message, new RegExp(`${other}:`), other);
      }
    });

    test('when every secret has a real value, then the configuration loads', () => {
      const config = load({ NODE_ENV: 'production', ...production }) as Record<string, unknown>;
      for (const [name, value] of Object.entries(production))
        assert.equal(String(config[name]), value, name);
    });
  });
}

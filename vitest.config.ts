/**
 * The one vitest configuration: a project per workspace (docs/conventions.md
 * § Tests). `npm test -w <workspace>` runs that workspace's project(s)
 * (`vitest run --config ../vitest.config.ts --project <name>`); `npx vitest run`
 * here runs them all. Integration projects talk to the stack (Keycloak,
 * Kafka, Postgres): one file at a time, each in its own process, with
 * generous timeouts; unit and component projects run in parallel.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = import.meta.dirname;

/** A project whose files share the stack: one file at a time, each in a fresh child process. */
const integration = (name: string, directory: string): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: `${root}/${directory}`,
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    // One more try for a test that failed against the shared stack (a broker's leader
    // election, a slow JVM, two cores shared with the whole stack): `npm test` names every
    // test that passed only on its retry (infra/src/cli/test-summary.ts), so none hides.
    retry: 1,
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
    teardownTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Failing tests and unhandled errors (e.g. an uncaught exception in a server under test) fail the run.
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      {
        test: {
          name: 'contracts',
          root: `${root}/services/shared/contracts`,
          include: ['test/**/*.test.ts'],
        },
      },
      integration('test-stack', 'infra/test-stack'),
      integration('kit', 'services/shared/service-kit'),
      integration('test-support', 'infra/test-support'),
      integration('identity-profile', 'services/identity-profile'),
      integration('brand', 'services/brand'),
      integration('media', 'services/media'),
      integration('offers', 'services/offers'),
      integration('collaborations', 'services/collaborations'),
      integration('notifications', 'services/notifications'),
      integration('moderation', 'services/moderation'),
      integration('bff', 'bff'),
      {
        test: { name: 'web-unit', root: `${root}/web`, include: ['test/unit/**/*.test.ts'] },
        resolve: { alias: { '@': `${root}/web/src` } },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': `${root}/web/src` } },
        test: {
          name: 'web-components',
          root: `${root}/web`,
          include: ['test/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['test/components/setup.ts'],
        },
      },
      {
        ...integration('web-e2e', 'web'),
        test: { ...integration('web-e2e', 'web').test, include: ['test/e2e/**/*.test.ts'] },
      },
      integration('infra', 'infra'),
      integration('bench', 'bench'),
    ],
  },
});

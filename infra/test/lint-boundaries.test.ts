/**
 * The boundaries lint enforces (docs/conventions.md "Boundaries"), checked through ESLint's
 * Node API with the repository's own eslint.config.js: each test lints a small snippet as if it
 * sat at a path in a workspace and asserts the boundary error it must get, and that the allowed
 * neighbour stays clean. Removing or loosening a rule fails its test. Nothing is written to disk.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, test } from 'vitest';

const repository = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({
  cwd: repository,
  overrideConfigFile: path.join(repository, 'eslint.config.js'),
});

/** One reported problem: the rule that reported it and its message. */
interface Problem {
  rule: string | null;
  message: string;
}

/**
 * Lints `code` as the file `file` (relative to the repository root) and returns the problems.
 * The snippet imports and re-exports, so no rule but the import rules has anything to say.
 */
async function problemsOf(file: string, code: string): Promise<Problem[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repository, file) });
  assert.ok(result, `ESLint returned no result for ${file}`);
  return result.messages.map((message) => ({ rule: message.ruleId, message: message.message }));
}

/** Asserts that linting `code` at `file` reports `rule` with a message containing `words`. */
async function assertRefused(
  file: string,
  code: string,
  rule: string,
  words: string,
): Promise<void> {
  const problems = await problemsOf(file, code);
  assert.ok(
    problems.some((problem) => problem.rule === rule && problem.message.includes(words)),
    `expected ${rule} ("${words}") for ${file}: ${code}\ngot ${JSON.stringify(problems)}`,
  );
}

/** Asserts that linting `code` at `file` reports nothing. */
async function assertAllowed(file: string, code: string): Promise<void> {
  assert.deepEqual(await problemsOf(file, code), [], `expected no problem for ${file}: ${code}`);
}

const reexport = (source: string) => `export * from '${source}';\n`;

describe('lint boundaries', () => {
  test('when a web feature imports another feature, by alias or by relative path, then lint refuses it', async () => {
    const file = 'web/src/features/home/components/probe.tsx';
    const words = 'A web feature does not import another feature (auth)';
    await assertRefused(
      file,
      reexport('@/features/auth/api/auth-api'),
      'boundaries/dependencies',
      words,
    );
    await assertRefused(
      file,
      reexport('../../auth/api/auth-api'),
      'boundaries/dependencies',
      words,
    );
    await assertAllowed(file, reexport('@/features/home/components/home-page'));
    await assertAllowed(file, reexport('@/components/ui/spinner'));
  });

  test('when a service or the BFF imports another app, by package or by relative path, then lint refuses it', async () => {
    await assertRefused(
      'services/media/src/domain/probe.ts',
      reexport('@raly/brand/app'),
      'boundaries/dependencies',
      'An app (media) never imports another app (brand)',
    );
    await assertRefused(
      'bff/src/domain/probe.ts',
      reexport('@raly/identity-profile/app'),
      'boundaries/dependencies',
      'An app (bff) never imports another app (identity-profile)',
    );
    await assertRefused(
      'services/brand/src/domain/probe.ts',
      reexport('../../../media/src/app'),
      'boundaries/dependencies',
      'An app (brand) never imports another app (media)',
    );
    await assertAllowed(
      'services/media/src/domain/probe.ts',
      reexport('@raly/contracts/messages') +
        reexport('@raly/service-kit/errors') +
        reexport('@raly/media/app'),
    );
  });

  test('when a relative path reaches into another workspace, even a shared package, then lint refuses it', async () => {
    await assertRefused(
      'services/media/src/domain/probe.ts',
      reexport('../../../shared/contracts/src/messages'),
      'no-restricted-imports',
      'A relative path never reaches into another workspace',
    );
    await assertRefused(
      'bff/test/probe.test.ts',
      reexport('../../services/shared/service-kit/src/errors'),
      'no-restricted-imports',
      'A relative path never reaches into another workspace',
    );
    await assertAllowed('services/media/test/probe.test.ts', reexport('../src/app'));
  });

  test('when shipped code imports infra/, then lint refuses it', async () => {
    await assertRefused(
      'services/identity-profile/src/probe.ts',
      reexport('@raly/infra/test-env'),
      'boundaries/dependencies',
      'Shipped code never imports infra/',
    );
  });

  test('when contracts import anything of ours, or the kit anything but contracts, then lint refuses it', async () => {
    await assertRefused(
      'services/shared/contracts/src/probe.ts',
      reexport('@raly/service-kit/errors'),
      'boundaries/dependencies',
      'Contracts import nothing of ours',
    );
    await assertRefused(
      'services/shared/service-kit/src/probe.ts',
      reexport('@raly/brand/app'),
      'boundaries/dependencies',
      'The service kit imports only @raly/contracts of ours',
    );
    await assertAllowed(
      'services/shared/service-kit/src/probe.ts',
      reexport('@raly/contracts/envelope'),
    );
  });

  test('when the kit imports a product module of contracts, then lint refuses it; the envelope it may import', async () => {
    const words = 'The service kit knows envelopes, not products';
    for (const product of ['events', 'messages', 'validation', 'internal'])
      await assertRefused(
        'services/shared/service-kit/src/probe.ts',
        reexport(`@raly/contracts/${product}`),
        '@typescript-eslint/no-restricted-imports',
        words,
      );
    await assertAllowed(
      'services/shared/service-kit/src/probe.ts',
      reexport('@raly/contracts/envelope'),
    );
    await assertAllowed(
      'services/shared/service-kit/test/probe.test.ts',
      reexport('@raly/contracts/events'),
    );
  });

  test('when web/src imports a node-only package of ours, then lint refuses it', async () => {
    await assertRefused(
      'web/src/lib/probe.ts',
      reexport('@raly/service-kit/errors'),
      'boundaries/dependencies',
      'web/src runs in the browser',
    );
    await assertAllowed('web/src/lib/probe.ts', reexport('@raly/contracts/messages'));
  });

  test('when code other than tests, test support or scripts/ tooling imports test support, then lint refuses it', async () => {
    const words =
      'Only tests (test/**, *.test.ts), test support itself and scripts/ tooling import @raly/test-support or @raly/test-stack';
    for (const file of [
      'bff/src/probe.ts',
      'web/src/lib/probe.ts',
      'services/shared/service-kit/src/probe.ts',
    ])
      for (const source of ['@raly/test-support', '@raly/test-stack'])
        await assertRefused(file, reexport(source), 'boundaries/dependencies', words);
    await assertAllowed('services/brand/test/probe.test.ts', reexport('@raly/test-support'));
    await assertAllowed('web/test/unit/probe.test.ts', reexport('@raly/test-support/records'));
    await assertAllowed('bff/scripts/probe.ts', reexport('@raly/test-support/signing-realm'));
    await assertAllowed('infra/test-support/src/probe.ts', reexport('@raly/test-stack'));
  });

  test('when infra/ imports test support, then lint refuses it (test support is built on the stack)', async () => {
    const words = 'infra/ (the stack and its CLIs) imports no test support';
    await assertRefused(
      'infra/src/probe.ts',
      reexport('@raly/test-support'),
      'boundaries/dependencies',
      words,
    );
    await assertRefused(
      'infra/test/probe.test.ts',
      reexport('@raly/test-stack'),
      'boundaries/dependencies',
      words,
    );
  });

  test('when @raly/test-stack imports an app, the kit or @raly/test-support, then lint refuses it', async () => {
    const words = '@raly/test-stack imports no app, not the service kit and not @raly/test-support';
    for (const source of ['@raly/brand/app', '@raly/service-kit/migrate', '@raly/test-support'])
      await assertRefused(
        'infra/test-stack/src/probe.ts',
        reexport(source),
        'boundaries/dependencies',
        words,
      );
    await assertAllowed('infra/test-stack/src/probe.ts', reexport('@raly/contracts/events'));
  });

  test("when the kit's or contracts' tests import @raly/test-support, then lint refuses it", async () => {
    const words = "The kit's and contracts' tests use @raly/test-stack, not @raly/test-support";
    for (const file of [
      'services/shared/service-kit/test/probe.test.ts',
      'services/shared/contracts/test/probe.test.ts',
    ])
      await assertRefused(file, reexport('@raly/test-support'), 'boundaries/dependencies', words);
    await assertAllowed(
      'services/shared/service-kit/test/probe.test.ts',
      reexport('@raly/test-stack'),
    );
  });

  test('when @raly/test-support imports an app outside src/apps.ts, then lint refuses it', async () => {
    await assertRefused(
      'infra/test-support/src/system.ts',
      reexport('@raly/brand/app'),
      'boundaries/dependencies',
      '@raly/test-support loads the apps in src/apps.ts only',
    );
    await assertAllowed('infra/test-support/src/apps.ts', reexport('@raly/brand/app'));
  });
});

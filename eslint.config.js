// One lint setup for every workspace (flat config).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every workspace directory: a relative import never names one (the package name is the only door). */
const workspaceDirectories = [
  'contracts',
  'service-kit',
  'test-stack',
  'test-support',
  'identity-profile',
  'brand',
  'media',
  'offers',
  'collaborations',
  'notifications',
  'moderation',
  'bff',
  'web',
  'infra',
  'bench',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.stack/**', '**/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript entry points (e.g. infra/bin/raly.mjs) run on Node.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Boundaries (docs/conventions.md "Boundaries"). eslint-plugin-boundaries classifies the
    // importing and the imported file by folder; imports are resolved by
    // eslint-import-resolver-typescript (tsconfig paths such as web's `@/`, package exports,
    // workspace symlinks to their real folders), so `@raly/brand/app`, `../../brand/src/app`
    // and `@/features/auth/...` are all seen as the folder they land in.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { boundaries },
    settings: {
      // Paths are relative to this file, not to the process's working directory
      // (`npm test -w infra` runs ESLint from infra/).
      'boundaries/root-path': import.meta.dirname,
      'import/resolver': {
        typescript: {
          project: [
            'tsconfig.base.json',
            '*/tsconfig.json',
            'services/*/tsconfig.json',
            'services/shared/*/tsconfig.json',
            'infra/*/tsconfig.json',
          ].map((pattern) => `${import.meta.dirname}/${pattern}`),
          noWarnOnMultipleProjects: true,
        },
      },
      'boundaries/elements': [
        // web/src/features/<feature>: one feature each; the rest of web/src is shared web code.
        {
          type: 'feature',
          pattern: 'web/src/features/*',
          capture: ['feature'],
          partialMatch: false,
        },
        { type: 'web', pattern: 'web/src', partialMatch: false },
        // Shared packages, then the apps (each service and the BFF, named by `app`).
        { type: 'contracts', pattern: 'services/shared/contracts/src', partialMatch: false },
        { type: 'kit', pattern: 'services/shared/service-kit/src', partialMatch: false },
        { type: 'app', pattern: 'services/*/src', capture: ['app'], partialMatch: false },
        { type: 'app', pattern: '(bff)/src', capture: ['app'], partialMatch: false },
        // The shared packages' own tests (they may not use what starts the apps).
        {
          type: 'library-test',
          pattern: 'services/shared/(service-kit|contracts)/test',
          partialMatch: false,
        },
        // Test support: the stack's tools (no app, no kit), then what starts the apps.
        { type: 'test-stack', pattern: 'infra/test-stack', partialMatch: false },
        { type: 'test-support', pattern: 'infra/test-support', partialMatch: false },
        // The local stack and CLIs (infra/src, infra/bin, infra/test…).
        { type: 'infra', pattern: 'infra', partialMatch: false },
        // Developer tooling run by hand (benchmarks, screenshots), never shipped.
        { type: 'tooling', pattern: '*/scripts', partialMatch: false },
        { type: 'tooling', pattern: 'bench', partialMatch: false },
      ],
      'boundaries/files': [
        { category: 'test', pattern: '**/test/**' },
        { category: 'test', pattern: '**/*.test.{ts,tsx}' },
        // The one module of test support that loads the apps (they are not its dependencies).
        { category: 'app-loader', pattern: 'infra/test-support/src/apps.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Later policies win over earlier ones.
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: {
                to: {
                  element: {
                    type: 'feature',
                    captured: { feature: '!{{ from.element.captured.feature }}' },
                  },
                },
              },
              message:
                'A web feature does not import another feature ({{ to.element.captured.feature }}): move what both need to web/src/components, lib or config.',
            },
            {
              from: { element: { type: 'app' } },
              disallow: {
                to: {
                  element: { type: 'app', captured: { app: '!{{ from.element.captured.app }}' } },
                },
              },
              message:
                'An app ({{ from.element.captured.app }}) never imports another app ({{ to.element.captured.app }}): call it over HTTP or share through @raly/contracts.',
            },
            {
              from: { element: { types: ['app', 'kit', 'contracts', 'web', 'feature'] } },
              disallow: { to: { element: { types: ['infra', 'tooling'] } } },
              message: 'Shipped code never imports infra/ or scripts.',
            },
            {
              from: { element: { type: 'kit' } },
              disallow: { to: { element: { types: ['app', 'web', 'feature'] } } },
              message: 'The service kit imports only @raly/contracts of ours.',
            },
            {
              from: { element: { type: 'contracts' } },
              disallow: { to: { element: { types: ['kit', 'app', 'web', 'feature'] } } },
              message: 'Contracts import nothing of ours.',
            },
            {
              from: { element: { types: ['web', 'feature'] } },
              disallow: { to: { element: { types: ['kit', 'app'] } } },
              message: 'web/src runs in the browser: it imports only @raly/contracts of ours.',
            },
            {
              disallow: { to: { element: { types: ['test-stack', 'test-support'] } } },
              message:
                'Only tests (test/**, *.test.ts), test support itself and scripts/ tooling import @raly/test-support or @raly/test-stack.',
            },
            {
              from: [
                { file: { categories: 'test' } },
                { element: { types: ['test-stack', 'test-support', 'tooling'] } },
              ],
              allow: { to: { element: { types: ['test-stack', 'test-support'] } } },
            },
            {
              from: { element: { type: 'test-stack' } },
              disallow: { to: { element: { types: ['app', 'kit', 'test-support'] } } },
              message:
                "@raly/test-stack imports no app, not the service kit and not @raly/test-support: the kit's own tests use it.",
            },
            {
              from: { element: { type: 'library-test' } },
              disallow: { to: { element: { type: 'test-support' } } },
              message:
                "The kit's and contracts' tests use @raly/test-stack, not @raly/test-support (it uses the kit and starts the apps).",
            },
            {
              from: { element: { type: 'infra' } },
              disallow: { to: { element: { types: ['test-stack', 'test-support'] } } },
              message:
                'infra/ (the stack and its CLIs) imports no test support: test support is built on it.',
            },
            {
              from: { element: { type: 'test-support' } },
              disallow: { to: { element: { type: 'app' } } },
              message:
                '@raly/test-support loads the apps in src/apps.ts only: they are not its dependencies (their tests use it).',
            },
            {
              from: { file: { categories: 'app-loader' } },
              allow: { to: { element: { type: 'app' } } },
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(services/)?(shared/)?(${workspaceDirectories.join('|')})(/|$)`,
              message:
                'A relative path never reaches into another workspace: import its package (@raly/…) instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // A generic kit (docs/conventions.md "Boundaries" rule 4): the kit is every app's toolkit, so
    // it knows envelopes, not Raly's products. Of contracts it imports only
    // @raly/contracts/envelope (the event envelope, its dead-letter topic, the service-token
    // header); an app hands it its payload schemas (`on(topic, type, schema, handle)`) and its
    // words for the kit's own failures (`failureMessages`). The typescript-eslint twin of
    // no-restricted-imports, so that the rule above stays whole for these files too.
    files: ['services/shared/service-kit/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@raly/contracts(?!/envelope$)',
              message:
                'The service kit knows envelopes, not products: of @raly/contracts it imports only @raly/contracts/envelope; an app passes its payload schemas and failure messages in.',
            },
          ],
        },
      ],
    },
  },
);

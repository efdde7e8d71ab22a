/**
 * `@raly/test-support`: what the apps' tests share: everything of
 * `@raly/test-stack`, plus databases migrated like a service's and the
 * services' own tokens. Heavier parts have their own entries:
 * `@raly/test-support/system` (services in-process), `/bff` (the BFF
 * in-process), `/fuzz` (the route fuzzer), `/records` (records only, for
 * browser-side tests).
 */
export * from '@raly/test-stack';
export * from './database';
export * from './service-tokens';

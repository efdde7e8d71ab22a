/**
 * `@raly/test-support`: what the apps' tests share: everything of
 * `@raly/test-stack`, plus databases migrated like a service's, the
 * services' own tokens and the staff audit entries read off Kafka. Heavier parts have their own entries:
 * `@raly/test-support/system` (services in-process), `/bff` (the BFF
 * in-process), `/fuzz` (the route fuzzer), `/records` (records only, for
 * browser-side tests).
 */
export * from '@raly/test-stack';
export * from './database';
export * from './service-tokens';
export * from './audit';

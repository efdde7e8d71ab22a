/**
 * `@raly/test-support`: what every workspace's tests share (the stack and a
 * service's environment, polling, free ports and raw HTTP, databases, Kafka,
 * Keycloak users, records, /metrics scrapes). Heavier parts have their own entries:
 * `@raly/test-support/system` (services in-process), `/bff` (the BFF
 * in-process), `/fuzz` (the route fuzzer), `/records` (records only, for
 * browser-side tests).
 */
export * from './database';
export * from './kafka';
export * from './metrics';
export * from './keycloak';
export * from './net';
export * from './polling';
export * from './records';
export * from './stack';
export * from './service-tokens';

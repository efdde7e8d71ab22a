/**
 * `@raly/test-stack`: the test stack and the plain tools to use it (a
 * service's environment, polling, free ports and raw HTTP, dropping
 * databases, Kafka, Keycloak users and grants, mail, records, /metrics
 * scrapes). It imports no app and not the service kit, so the kit's own
 * tests use it; `@raly/test-support` adds what starts the apps.
 */
export * from './database';
export * from './kafka';
export * from './metrics';
export * from './keycloak';
export * from './net';
export * from './polling';
export * from './records';
export * from './stack';
export * from './staff';

/** Records and registrations only (no Node-only import), for browser-side tests. */
export * from '@raly/test-stack/records';

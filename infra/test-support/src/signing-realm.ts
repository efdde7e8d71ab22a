/** A stand-in Keycloak realm that signs tokens (see @raly/test-stack/signing-realm). */
export * from '@raly/test-stack/signing-realm';

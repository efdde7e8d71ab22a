/**
 * Creating an account (spec §4 join, §7 createAccount): identity-profile
 * creates the user in Keycloak and its record; the BFF then signs the new
 * user in so the browser gets a session straight away.
 */
import { createAccountSchema, memberRegistrationSchema } from '@raly/contracts/validation';
import { bffErrors } from './errors';
import type { IdentityClient } from '../data-access/identity-client';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';

/**
 * @param command the CreateAccountCommand as the browser sent it (identity validates it)
 * @returns the new user's token set
 * @throws AppError with identity's code, message and status when it refuses;
 *   `internal` 'There was a problem creating your account. Try again.' when the sign-in after creation fails
 */
export async function createAccountAndSignIn(
  identity: IdentityClient,
  keycloak: KeycloakTokens,
  command: unknown,
): Promise<TokenSet> {
  await identity.createAccount(command);
  // Identity accepted the command, so it is a valid CreateAccountCommand.
  const { email, password } = createAccountSchema.parse(command).registration;
  return signIn(keycloak, email, password);
}

/**
 * Registration from a brand's invitation (`memberRegistrationSchema`), then sign-in.
 * @returns the new member's token set
 * @throws AppError as identity answered (the form, the invitation's refusal, username-taken, email-taken)
 */
export async function createMemberAndSignIn(
  identity: IdentityClient,
  keycloak: KeycloakTokens,
  registration: unknown,
): Promise<TokenSet> {
  await identity.createMemberAccount(registration);
  const { email, password } = memberRegistrationSchema.parse(registration);
  return signIn(keycloak, email, password);
}

async function signIn(keycloak: KeycloakTokens, email: string, password: string) {
  const tokens = await keycloak.passwordGrant(email, password).catch((error: unknown) => {
    throw bffErrors.createAccountFailed(error);
  });
  if (!tokens)
    throw bffErrors.createAccountFailed(new Error('sign-in after account creation refused'));
  return tokens;
}

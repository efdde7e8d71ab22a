/**
 * The spec's backend callables (spec §7): `checkEmailExists` and
 * `checkUsernameExists`, answered from identity-profile's queries.
 */
import { callables, type CallableName } from '@raly/contracts/callable';
import { firstErrorByField } from '@raly/contracts/validation';
import { bffErrors } from './errors';
import type { IdentityClient } from '../data-access/identity-client';

type Handlers = {
  [Name in CallableName]: (identity: IdentityClient, data: never) => Promise<unknown>;
};

const handlers: Handlers = {
  checkEmailExists: (identity, data: { email: string }) => identity.checkEmailExists(data.email),
  checkUsernameExists: (identity, data: { username: string }) =>
    identity.checkUsernameExists(data.username),
};

export const isCallableName = (name: string): name is CallableName => Object.hasOwn(handlers, name);

/**
 * Runs a callable.
 * @param name the callable's name (from the path)
 * @param body the request body, `{ data }`
 * @returns the callable's result (the answer's `data`)
 * @throws AppError `not-found` for an unknown name, `invalid-argument` for a
 *   body without `data` or data that fails the callable's schema
 */
export async function runCallable(
  identity: IdentityClient,
  name: string,
  body: unknown,
): Promise<unknown> {
  if (!isCallableName(name)) throw bffErrors.notFound(`No callable named ${name}`);
  if (!body || typeof body !== 'object' || !('data' in body)) {
    throw bffErrors.invalidArgument('Request body is missing data.');
  }
  const parsed = callables[name].safeParse((body as { data: unknown }).data);
  if (!parsed.success) {
    throw bffErrors.invalidArgument('Invalid data for ' + name, firstErrorByField(parsed.error));
  }
  return handlers[name](identity, parsed.data as never);
}

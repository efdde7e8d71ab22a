/**
 * identity-profile as the notifications service calls it (docs/api.md
 * "Internal endpoints"): a person's e-mail address and own username, asked
 * for when an e-mail is sent and never stored.
 */
import { userContactSchema, type UserContact } from '@raly/contracts/internal';
import {
  callInternal,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';

export interface ContactDirectory {
  /**
   * `GET /contacts/:userId`.
   * @returns the address and username, or null when identity-profile knows no such user
   * @throws AppError `unavailable` when identity-profile cannot be reached; Error for any other
   *   failure answer
   */
  contactOf(userId: string): Promise<UserContact | null>;
}

/**
 * @param identityUrl IDENTITY_URL
 * @param serviceTokens this service's access tokens (kit `createServiceTokenSource`)
 */
export function identityContacts(
  identityUrl: string,
  serviceTokens: ServiceTokenSource,
): ContactDirectory {
  return {
    async contactOf(userId) {
      const answer = await callInternal(
        identityUrl,
        serviceTokens,
        servicePath(['contacts', userId]),
        { method: 'GET', target: 'identity-profile', unreachable: 'unavailable' },
      );
      if (answer.status === 404) return null;
      if (answer.status !== 200)
        throw unexpectedAnswerError(answer, 'identity-profile', 'contact lookup');
      return userContactSchema.parse((answer.body as { data?: unknown } | undefined)?.data);
    },
  };
}

/**
 * services/brand as the brand registration saga calls it (docs/api.md
 * "Internal endpoints"): create the brand, and delete it to undo.
 */
import type { CreateBrandCommand } from '@raly/contracts/internal';
import {
  callInternal,
  errorCodeOf,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';

/** services/brand refused the brand's username (another brand holds it). */
export class BrandUsernameTakenError extends Error {
  constructor() {
    super('brand username taken');
    this.name = 'BrandUsernameTakenError';
  }
}

export interface BrandClient {
  /**
   * `POST /brands`; idempotent on `creatorUserId`.
   * @returns the brand's id
   * @throws BrandUsernameTakenError; AppError `unavailable` (503, untrusted) when the service
   *   cannot be reached or answers 503 (e.g. its database is away for the moment); Error when it
   *   answers any other failure
   */
  create(command: CreateBrandCommand): Promise<string>;
  /** `DELETE /brands/:id`. @throws as {@link BrandClient.create}, but never BrandUsernameTakenError */
  delete(brandId: string): Promise<void>;
}

/**
 * @param brandUrl BRAND_URL
 * @param serviceTokens this service's access tokens (kit `createServiceTokenSource`)
 */
export function createBrandClient(
  brandUrl: string,
  serviceTokens: ServiceTokenSource,
): BrandClient {
  return {
    async create(command) {
      const answer = await callInternal(brandUrl, serviceTokens, servicePath(['brands']), {
        method: 'POST',
        target: 'brand',
        json: command,
        unreachable: 'unavailable',
      });
      if (answer.status === 409 && errorCodeOf(answer) === 'username-taken')
        throw new BrandUsernameTakenError();
      const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (answer.status >= 300 || typeof id !== 'string')
        throw unexpectedAnswerError(answer, 'brand service', 'POST /brands');
      return id;
    },
    async delete(brandId) {
      const answer = await callInternal(brandUrl, serviceTokens, servicePath(['brands', brandId]), {
        method: 'DELETE',
        target: 'brand',
        unreachable: 'unavailable',
      });
      if (answer.status >= 300)
        throw unexpectedAnswerError(answer, 'brand service', `DELETE /brands/${brandId}`);
    },
  };
}

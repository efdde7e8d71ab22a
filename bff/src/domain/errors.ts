/**
 * `bffErrors`: the expected failures of the BFF, each with its spec message
 * (spec §8), in one table (docs/conventions.md "Names"). They are the kit's
 * one AppError; the kit's central `handleError` logs them for express, the
 * Kafka consumer and socket.io.
 */
import { messages } from '@raly/contracts/messages';
import { AppError, failedBecauseOf } from '@raly/service-kit/errors';

export const bffErrors = {
  /** Sign-in of a suspended creator or brand member (docs/console.md). */
  accountSuspended: () => new AppError('permission-denied', messages.accountSuspended),
  /** The public page of a suspended brand (docs/console.md). */
  brandUnavailable: () => new AppError('not-found', messages.brandUnavailable),
  incorrectLogin: (cause?: unknown) =>
    new AppError('unauthenticated', messages.incorrectLogin, { cause }),
  invalidArgument: (message: string, fields?: Record<string, string>) =>
    new AppError('invalid-argument', message, { fields }),
  notFound: (message: string = messages.pageNotFound) => new AppError('not-found', message),
  /** Wrong current password in the Verify Password dialog or an e-mail change (spec §4, §8). */
  incorrectPassword: (cause?: unknown) =>
    new AppError('unauthenticated', messages.incorrectPassword, { cause }),
  /** A rate limit is used up (docs/api.md "Rate limits"); callables read `resource-exhausted`. */
  tooManyRequests: (retryAfterSeconds: number) => {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return new AppError(
      'resource-exhausted',
      `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  },
  createAccountFailed: (cause?: unknown) => failedBecauseOf(messages.createAccountFailed, cause),
  /** Spec §8: a missing user record on brand update (or any other update failure). */
  updateAccountFailed: (cause?: unknown) => failedBecauseOf(messages.updateAccountFailed, cause),
  /** Brand-only routes for a user without a brand (spec §6). */
  notABrandUser: () => new AppError('permission-denied', messages.updateAccountFailed),
  /** An image upload that is not multipart/form-data: refused before it reaches media (415). */
  notMultipart: () =>
    new AppError('unsupported-media-type', messages.genericProblem, {
      fields: { file: 'Send the image as multipart/form-data' },
    }),
  /** A report of the caller themselves, their brand or its offer (docs/console.md "Reports"). */
  cannotReportYourself: () => new AppError('invalid-argument', messages.cannotReportYourself),
  /** A report of an item the BFF cannot find, or cannot show the caller. */
  reportedItemNotFound: () => new AppError('not-found', messages.reportedItemNotFound),
  /** Spec §8 image upload failure. */
  uploadFailed: (cause?: unknown) => failedBecauseOf(messages.genericProblem, cause),
} as const;

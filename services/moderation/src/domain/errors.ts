/** Every expected failure of the moderation service, with the words the caller sees, in one table. */
import { messages } from '@raly/contracts/messages';
import { AppError } from '@raly/service-kit/errors';

export const moderationErrors = {
  /** `before` is no page's `nextBefore` (a cursor this service never made). */
  badCursor: () =>
    new AppError('invalid-argument', messages.requestProblem, {
      fields: { before: messages.requestProblem },
    }),
  /** The reporter already reported this item (one report per person and item). */
  alreadyReported: () => new AppError('conflict', messages.alreadyReported),
  /** No report has this id. */
  reportNotFound: () => new AppError('not-found', messages.reportNotFound),
  /** A resolution of a report already resolved otherwise. */
  reportAlreadyResolved: () => new AppError('conflict', messages.reportAlreadyResolved),
};

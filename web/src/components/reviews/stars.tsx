/**
 * Stars out of five, drawn as filled and empty stars with the number in
 * words for screen readers (e.g. "4 out of 5 stars"); an average is rounded
 * to the nearest whole star in the drawing only.
 */
import { REVIEW_RATING_MAX } from '@raly/contracts/collaboration-reviews';

/** @param rating 1–5, or an average (shown with one decimal in words) */
export function Stars({ rating }: { rating: number }) {
  const filled = Math.round(rating);
  const words = `${Number.isInteger(rating) ? rating : rating.toFixed(1)} out of ${REVIEW_RATING_MAX} stars`;
  return (
    <span role="img" aria-label={words} title={words} className="text-amber-500">
      {'★'.repeat(filled)}
      <span className="text-slate-300">{'★'.repeat(REVIEW_RATING_MAX - filled)}</span>
    </span>
  );
}

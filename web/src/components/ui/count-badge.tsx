/** A round count beside a link or a row (new offers, unread messages); the unit is said to screen readers only. */
export function CountBadge({
  count,
  unit,
  testId,
  className = 'ml-1.5',
}: {
  count: number;
  /** Read after the number, e.g. 'new', 'unread'. */
  unit: string;
  testId: string;
  className?: string;
}) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex min-w-5 items-center justify-center rounded-full bg-indigo-600 px-1.5 text-xs font-semibold text-white ${className}`}
    >
      {count}
      <span className="sr-only"> {unit}</span>
    </span>
  );
}

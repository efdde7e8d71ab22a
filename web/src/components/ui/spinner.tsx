/**
 * A spinning circle for busy states. With a `label` it is announced
 * (role status); without one it is decoration (e.g. inside a busy button,
 * which says aria-busy itself).
 */
export function Spinner({ label, className = 'size-4' }: { label?: string; className?: string }) {
  const a11y = label ? { role: 'status', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <span
      {...a11y}
      className={`inline-block shrink-0 animate-spin rounded-full border-2 border-current border-r-transparent motion-reduce:animate-[spin_1.5s_linear_infinite] ${className}`}
    />
  );
}

/**
 * The centred spinner a page shows while its data loads. Spec §2.1 asks for one on /onboarding;
 * we show the same one on every page that waits for its data (/dashboard included).
 */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-indigo-600">
      <Spinner label={label} className="size-8" />
    </div>
  );
}

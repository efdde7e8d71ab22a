/**
 * The global toast of spec §2 (lib/toast): top right, success or alert,
 * optional title and message, a close button, and gone after
 * TOAST_DURATION_MS (5000 ms, spec §9). The live region stays mounted so
 * screen readers announce each new toast.
 */
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { TOAST_DURATION_MS } from '@raly/contracts/constants';
import { clearToast, selectToast, type Toast } from '@/lib/toast';
import { focusRing } from '@/components/ui/button';

function ToastIcon({ type }: { type: Toast['type'] }) {
  return type === 'success' ? (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
      className="size-5 shrink-0 text-emerald-600"
    >
      <path
        fillRule="evenodd"
        d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm3.86-9.81a.75.75 0 0 0-1.22-.88l-3.24 4.5-1.6-1.6a.75.75 0 1 0-1.06 1.06l2.25 2.25a.75.75 0 0 0 1.14-.1l3.73-5.23Z"
        clipRule="evenodd"
      />
    </svg>
  ) : (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
      className="size-5 shrink-0 text-red-600"
    >
      <path
        fillRule="evenodd"
        d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-8-5a.75.75 0 0 1 .75.75v4.5a.75.75 0 0 1-1.5 0v-4.5A.75.75 0 0 1 10 5Zm0 10a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function Toaster() {
  const toast = useSelector(selectToast);
  const dispatch = useDispatch();

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => dispatch(clearToast(toast.id)), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast, dispatch]);

  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] flex justify-end p-4 sm:top-2 sm:p-6"
    >
      {toast && (
        <div
          key={toast.id}
          role={toast.type === 'alert' ? 'alert' : 'status'}
          data-toast-type={toast.type}
          className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border-l-4 bg-white p-4 shadow-lg ring-1 ring-slate-900/10 motion-safe:animate-[toast-in_150ms_ease-out] ${
            toast.type === 'success' ? 'border-emerald-500' : 'border-red-500'
          }`}
        >
          <ToastIcon type={toast.type} />
          <div className="min-w-0 flex-1 pt-0.5">
            {toast.title && <p className="text-sm font-semibold text-slate-900">{toast.title}</p>}
            {toast.message && (
              <p className={`text-sm text-slate-700 ${toast.title ? 'mt-1' : ''}`}>
                {toast.message}
              </p>
            )}
          </div>
          <button
            type="button"
            aria-label="Close notification"
            onClick={() => dispatch(clearToast(toast.id))}
            className={`-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700 ${focusRing}`}
          >
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-5">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </div>
      )}
    </div>
  );
}

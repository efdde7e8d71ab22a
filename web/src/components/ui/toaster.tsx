/** Renders the global toast (lib/toast) top right and clears it after TOAST_DURATION_MS. */
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { TOAST_DURATION_MS } from '@raly/contracts/constants';
import { clearToast, selectToast } from '@/lib/toast';
import { focusRing } from '@/components/ui/button';

export function Toaster() {
  const toast = useSelector(selectToast);
  const dispatch = useDispatch();

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => dispatch(clearToast(toast.id)), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast, dispatch]);

  if (!toast) return null;
  const accent = toast.type === 'success' ? 'border-emerald-500' : 'border-red-500';
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 top-4 z-50 flex justify-end px-4">
      <div role={toast.type === 'alert' ? 'alert' : 'status'} className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border-l-4 bg-white p-4 shadow-lg ring-1 ring-slate-200 ${accent}`}>
        <div className="flex-1">
          {toast.title && <p className="text-sm font-semibold text-slate-900">{toast.title}</p>}
          <p className="text-sm text-slate-700">{toast.message}</p>
        </div>
        <button type="button" aria-label="Close" onClick={() => dispatch(clearToast(toast.id))} className={`rounded text-slate-400 hover:text-slate-600 ${focusRing}`}>
          ×
        </button>
      </div>
    </div>
  );
}

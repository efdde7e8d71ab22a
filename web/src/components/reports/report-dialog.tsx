/**
 * The report dialog (docs/console.md "Reports"): "Report this offer", "Report this profile" or
 * "Report this message", the reasons as a radio group (each with its words from `reportReasonWords`), a note of at most
 * 1000 characters with a counter, checked in the browser with `reportFormSchema` and its messages.
 * Submit sends `POST /api/reports`; a 201 closes the dialog with the toast 'Thanks, our team will
 * review your report.'; a refusal (409 'You have already reported this.', a field's message, a
 * rate limit) shows the BFF's message in the dialog. A native modal <dialog> (ModalDialog).
 */
import { useCallback, useId } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { messages } from '@raly/contracts/messages';
import {
  REPORT_NOTE_MAX_LENGTH,
  reportFormSchema,
  reportReasons,
  reportReasonWords,
  type ReportForm,
  type ReportItemKind,
} from '@raly/contracts/reports';
import { apiErrorMessage } from '@/lib/api-error';
import { useReportItemMutation } from '@/lib/reports-api';
import { showToast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { TextAreaField } from '@/components/ui/text-area-field';

/** The item a person reports: its kind and its id (the BFF looks up the rest). */
export interface ReportedItem {
  kind: ReportItemKind;
  id: string;
}

export interface ReportDialogProps {
  open: boolean;
  onClose: () => void;
  item: ReportedItem;
}

/** The dialog's title for each kind of item. */
const titles: Record<ReportItemKind, string> = {
  offer: 'Report this offer',
  creator: 'Report this profile',
  brand: 'Report this profile',
  message: 'Report this message',
};

/** The BFF's field messages of a 400 refusal, when it named fields. */
function fieldMessagesOf(error: unknown): Record<string, string> {
  const body = (error as { data?: { error?: { fields?: unknown } } } | null)?.data;
  const fields = body?.error?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

/** @param props whether it shows, how it asks to close, and the reported item */
export function ReportDialog({ open, onClose, item }: ReportDialogProps) {
  const titleId = useId();
  const reasonErrorId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof reportFormSchema>, unknown, ReportForm>({
    resolver: zodResolver(reportFormSchema),
    defaultValues: { item: { kind: item.kind, id: item.id }, note: '' },
  });
  const [reportItem] = useReportItemMutation();
  const dispatch = useDispatch();

  const onOpen = useCallback(
    () => reset({ item: { kind: item.kind, id: item.id }, note: '' }),
    [reset, item.kind, item.id],
  );

  const onSubmit = async (form: ReportForm) => {
    try {
      await reportItem(form).unwrap();
      dispatch(showToast({ type: 'success', message: messages.reportThanks }));
      onClose();
    } catch (error) {
      const fields = fieldMessagesOf(error);
      if (fields.reason) setError('reason', { type: 'server', message: fields.reason });
      if (fields.note) setError('note', { type: 'server', message: fields.note });
      if (!fields.reason && !fields.note)
        setError('root.server', {
          type: 'server',
          message: apiErrorMessage(error, messages.genericProblem),
        });
    }
  };

  const note = watch('note') ?? '';
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      onOpen={onOpen}
      labelledBy={titleId}
      width="max-w-lg"
    >
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {titles[item.kind]}
        </h2>
        <fieldset aria-describedby={errors.reason ? reasonErrorId : undefined}>
          <legend className="text-sm font-medium text-slate-700">Reason</legend>
          <div className="mt-2 max-h-72 space-y-2 overflow-y-auto">
            {reportReasons.map((reason) => (
              <div key={reason} className="flex items-start gap-3 text-sm">
                <input
                  type="radio"
                  id={`${titleId}-${reason}`}
                  value={reason}
                  aria-describedby={`${titleId}-${reason}-description`}
                  className="mt-0.5 size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
                  {...register('reason')}
                />
                <div>
                  <label
                    htmlFor={`${titleId}-${reason}`}
                    className="block font-medium text-slate-900"
                  >
                    {reportReasonWords[reason].label}
                  </label>
                  <p id={`${titleId}-${reason}-description`} className="text-slate-600">
                    {reportReasonWords[reason].description}
                  </p>
                </div>
              </div>
            ))}
          </div>
          {errors.reason && (
            <p id={reasonErrorId} role="alert" className="mt-1 text-sm text-red-600">
              {errors.reason.message}
            </p>
          )}
        </fieldset>
        <TextAreaField
          label="Note"
          length={note.length}
          maxLength={REPORT_NOTE_MAX_LENGTH}
          error={errors.note?.message}
          {...register('note')}
        />
        {errors.root?.server && (
          <p role="alert" className="text-sm text-red-700">
            {errors.root.server.message}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Submit
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

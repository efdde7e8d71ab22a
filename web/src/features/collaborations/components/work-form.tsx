/**
 * The frame of a form on a deliverable (hand in, review): its fields, the
 * service's refusal when there is one, and the submit button, busy while
 * the command runs.
 */
import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';

export interface WorkFormProps {
  /** The form's accessible name, e.g. 'Hand in Launch video'. */
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The refusal to show above the button (the form's `root.server` error). */
  refusal?: string;
  busy: boolean;
  submitLabel: string;
  children: ReactNode;
}

export function WorkForm({ label, onSubmit, refusal, busy, submitLabel, children }: WorkFormProps) {
  return (
    <form
      noValidate
      aria-label={label}
      onSubmit={onSubmit}
      className="mt-4 space-y-3 rounded-md bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      {children}
      {refusal && <Notification>{refusal}</Notification>}
      <div className="flex justify-end">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The frame every creator onboarding step shares: its title, its content and the Next/Done button. */
import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '@/components/ui/button';

export interface StepFrameProps {
  title: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}

export function StepFrame({ title, submitLabel, busy, onSubmit, children }: StepFrameProps) {
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="space-y-6 rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200"
    >
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
      <div className="flex justify-end">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

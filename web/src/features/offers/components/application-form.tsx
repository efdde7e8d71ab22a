/**
 * The Apply form of /offers/:id: a pitch (32 to 500 characters)
 * and an optional proposed rate, checked by the shared
 * `applicationFormSchema`. Success: 'Application sent!' (the page then
 * shows the application's live status); failure: the returned error text.
 */
import { useForm } from 'react-hook-form';
import { messages } from '@raly/contracts/messages';
import {
  PITCH_MAX_LENGTH,
  type ApplicationForm as ApplicationFormValues,
} from '@raly/contracts/offers';
import { useApplyToOfferMutation } from '@/features/offers/api/applications-api';
import { useCommandToast } from '@/lib/use-command-toast';
import { MoneyFields } from '@/components/offers/money-fields';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/text-area-field';
import {
  applicationFormResolver,
  emptyApplicationFormInput,
  type ApplicationFormInput,
} from '@/features/offers/utils/application-form-values';

export function ApplicationForm({ offerId }: { offerId: string }) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ApplicationFormInput, unknown, ApplicationFormValues>({
    resolver: applicationFormResolver,
    defaultValues: emptyApplicationFormInput,
  });
  const [apply] = useApplyToOfferMutation();
  const run = useCommandToast();

  const onSubmit = async (form: ApplicationFormValues) => {
    await run(() => apply({ offerId, form }).unwrap(), messages.applicationSent);
  };

  return (
    <form
      noValidate
      aria-label="Apply"
      onSubmit={handleSubmit(onSubmit)}
      className="space-y-5 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 className="text-lg font-semibold text-slate-900">Apply</h2>
      <TextAreaField
        label="Pitch"
        rows={5}
        placeholder="Why you, and what you would make for this brand"
        length={(watch('pitch') ?? '').length}
        maxLength={PITCH_MAX_LENGTH}
        error={errors.pitch?.message}
        {...register('pitch')}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Proposed rate (optional)</legend>
        <MoneyFields
          className="mt-1"
          amount={register('rateAmount')}
          currency={register('rateCurrency')}
          amountError={errors.rateAmount?.message}
          currencyError={errors.rateCurrency?.message}
        />
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" busy={isSubmitting}>
          Apply
        </Button>
      </div>
    </form>
  );
}

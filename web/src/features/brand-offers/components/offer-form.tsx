/**
 * The offer form of /brand/offers/new and /brand/offers/:id/edit:
 * every field of `offerFormSchema` (title, brief, interests, platforms,
 * deliverables, compensation as a fixed amount with its currency or the
 * product only with its description, creators wanted, apply-by as a date),
 * its rules' messages under the fields. A new offer or a draft is saved
 * as a draft ('Offer saved!') or published ('Offer published!'); an open
 * offer is saved. Failure: the returned error text.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { INTERESTS } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import {
  OFFER_BRIEF_MAX_LENGTH,
  OFFER_DELIVERABLES_MAX_LENGTH,
  OFFER_PLATFORMS,
  type OfferForm as OfferFormValues,
  type OfferRecord,
} from '@raly/contracts/offers';
import { paths, pathOf } from '@/config/paths';
import { platformLabels } from '@/lib/offer-format';
import {
  useCreateOfferMutation,
  useOpenOfferMutation,
  useUpdateOfferMutation,
} from '@/features/brand-offers/api/brand-offers-api';
import { useCommandToast } from '@/lib/use-command-toast';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { MoneyFields } from '@/components/offers/money-fields';
import { Button } from '@/components/ui/button';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { TextAreaField } from '@/components/ui/text-area-field';
import { TextField } from '@/components/ui/text-field';
import {
  emptyOfferFormInput,
  offerFormInputOf,
  offerFormResolver,
  type OfferFormInput,
} from '@/features/brand-offers/utils/offer-form-values';

type Intent = 'draft' | 'publish' | 'save';

const radioClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset has-[:checked]:bg-indigo-50 has-[:checked]:ring-indigo-300';

export function OfferForm({ offer }: { offer?: OfferRecord }) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<OfferFormInput, unknown, OfferFormValues>({
    resolver: offerFormResolver,
    defaultValues: offer ? offerFormInputOf(offer) : emptyOfferFormInput,
  });
  const [intent, setIntent] = useState<Intent>('draft');
  const [createOffer] = useCreateOfferMutation();
  const [updateOffer] = useUpdateOfferMutation();
  const [openOffer] = useOpenOfferMutation();
  const run = useCommandToast();
  const navigate = useNavigate();
  const scrollToTop = useScrollToTopOnError();
  const isDraft = !offer || offer.status === 'draft';

  const save = (chosen: Intent) => async (values: OfferFormValues) => {
    const publish = chosen === 'publish';
    const saved = await run(
      async () => {
        if (!offer) return createOffer({ ...values, open: publish }).unwrap();
        const updated = await updateOffer({ id: offer.id, changes: values }).unwrap();
        return publish ? openOffer(offer.id).unwrap() : updated;
      },
      publish ? messages.offerPublished : messages.offerSaved,
    );
    if (saved) navigate(pathOf(paths.brandOffer, { id: saved.id }));
  };

  const kind = watch('compensationKind');
  const busy = (which: Intent) => isSubmitting && intent === which;

  return (
    <form
      noValidate
      aria-label="Offer"
      onSubmit={handleSubmit(save(isDraft ? 'publish' : 'save'), scrollToTop)}
      className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <TextField
        label="Title"
        autoComplete="off"
        error={errors.title?.message}
        {...register('title')}
      />
      <TextAreaField
        label="Brief"
        rows={6}
        length={(watch('brief') ?? '').length}
        maxLength={OFFER_BRIEF_MAX_LENGTH}
        error={errors.brief?.message}
        {...register('brief')}
      />
      <CheckboxGroup
        legend="Interests"
        options={INTERESTS}
        registration={register('interests')}
        error={errors.interests?.message}
      />
      <CheckboxGroup
        legend="Platforms"
        options={OFFER_PLATFORMS}
        labels={platformLabels}
        registration={register('platforms')}
        error={errors.platforms?.message}
      />
      <TextAreaField
        label="Deliverables"
        rows={4}
        length={(watch('deliverables') ?? '').length}
        maxLength={OFFER_DELIVERABLES_MAX_LENGTH}
        error={errors.deliverables?.message}
        {...register('deliverables')}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Compensation</legend>
        <div className="mt-2 grid grid-cols-2 gap-2 sm:max-w-md">
          <label className={radioClass}>
            <input type="radio" value="fixed" {...register('compensationKind')} />
            Fixed amount
          </label>
          <label className={radioClass}>
            <input type="radio" value="product" {...register('compensationKind')} />
            Product only
          </label>
        </div>
        {kind === 'product' ? (
          <TextAreaField
            className="mt-4"
            label="Product description"
            rows={3}
            error={errors.productDescription?.message}
            {...register('productDescription')}
          />
        ) : (
          <MoneyFields
            className="mt-4 sm:max-w-md"
            amount={register('amount')}
            currency={register('currency')}
            amountError={errors.amount?.message}
            currencyError={errors.currency?.message}
          />
        )}
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Creators wanted"
          type="number"
          inputMode="numeric"
          min={1}
          error={errors.creatorsWanted?.message}
          {...register('creatorsWanted')}
        />
        <TextField
          label="Apply by"
          type="date"
          hint="Applications close at the end of this day."
          error={errors.applyByDate?.message}
          {...register('applyByDate')}
        />
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        {isDraft ? (
          <>
            <Button
              variant="secondary"
              busy={busy('draft')}
              disabled={isSubmitting}
              onClick={(event) => {
                setIntent('draft');
                void handleSubmit(save('draft'), scrollToTop)(event);
              }}
            >
              Save draft
            </Button>
            <Button
              type="submit"
              busy={busy('publish')}
              disabled={isSubmitting}
              onClick={() => setIntent('publish')}
            >
              Publish
            </Button>
          </>
        ) : (
          <Button
            type="submit"
            busy={busy('save')}
            disabled={isSubmitting}
            onClick={() => setIntent('save')}
          >
            Save
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * The brand profile form of /settings/brand (spec §3, §5, §8): username (with
 * the public URL prefix), company, website, bio (with its character count)
 * and the x, instagram, threads and discord links. The rules are the shared
 * `brandProfileSchema`; the username's uniqueness is asked of the server
 * only when it changed. Success: 'Brand profile updated!'; failure: the
 * returned error text. The form follows live updates of the brand, except
 * fields being edited.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import { brandProfileSchema } from '@raly/contracts/validation';
import { publicUrlPrefixes } from '@/config/public-urls';
import { apiErrorMessage } from '@/lib/api-error';
import { showToast } from '@/lib/toast';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { useUniquenessChecks } from '@/lib/use-uniqueness-checks';
import { normalizingUsername } from '@/lib/username-field';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useUpdateBrandMutation } from '@/features/brand-profile/api/brand-api';
import { BioField } from '@/features/brand-profile/components/bio-field';
import {
  brandFormValuesOf,
  usernameNeedsCheck,
  type BrandFormInput,
  type BrandFormValues,
} from '@/features/brand-profile/utils/brand-form-values';

/** The social links of spec §3, in the spec's order, with their labels. */
const socialLinks = [
  { key: 'x', label: 'X' },
  { key: 'instagram', label: 'Instagram' },
  { key: 'threads', label: 'Threads' },
  { key: 'discord', label: 'Discord' },
] as const;

export function BrandProfileForm({ brand }: { brand: BrandRecord }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<BrandFormInput, unknown, BrandFormValues>({
    resolver: zodResolver(brandProfileSchema),
    // `values` keeps the form on the live brand; fields being edited keep what the user typed.
    values: brandFormValuesOf(brand),
    resetOptions: { keepDirtyValues: true },
  });
  const { usernameIsFree } = useUniquenessChecks(setError);
  const [updateBrand, { isLoading: saving }] = useUpdateBrandMutation();
  const dispatch = useDispatch();
  const scrollToTop = useScrollToTopOnError();

  const onSubmit = async (values: BrandFormValues) => {
    if (usernameNeedsCheck(brand, values.username) && !(await usernameIsFree(values.username))) {
      scrollToTop();
      return;
    }
    try {
      const saved = await updateBrand(values).unwrap();
      reset(brandFormValuesOf(saved));
      dispatch(showToast({ type: 'success', message: messages.brandProfileUpdated }));
    } catch (error) {
      dispatch(
        showToast({ type: 'alert', message: apiErrorMessage(error, messages.updateAccountFailed) }),
      );
    }
  };

  return (
    <form
      noValidate
      onSubmit={handleSubmit(onSubmit, scrollToTop)}
      className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 className="text-lg font-semibold text-slate-900">Brand Profile</h2>
      <TextField
        label="Username"
        autoComplete="off"
        leadingText={publicUrlPrefixes.brand}
        error={errors.username?.message}
        {...normalizingUsername(register('username'))}
      />
      <TextField
        label="Company"
        autoComplete="organization"
        error={errors.company?.message}
        {...register('company')}
      />
      <TextField
        label="Website"
        type="url"
        placeholder="https://"
        autoComplete="url"
        error={errors.websiteUrl?.message}
        {...register('websiteUrl')}
      />
      <BioField
        label="Bio"
        length={(watch('bio') ?? '').length}
        error={errors.bio?.message}
        {...register('bio')}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Socials</legend>
        <div className="mt-2 grid gap-5 sm:grid-cols-2">
          {socialLinks.map(({ key, label }) => (
            <TextField
              key={key}
              label={label}
              type="url"
              placeholder="https://"
              error={errors.socials?.[key]?.message}
              {...register(`socials.${key}`)}
            />
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" busy={isSubmitting || saving}>
          Save
        </Button>
      </div>
    </form>
  );
}

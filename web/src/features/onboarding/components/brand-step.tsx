/**
 * Brand onboarding step "brand" (spec §4.1, §5.8): the brand profile's
 * essentials — company, website and a bio of 32 to 280 characters — under
 * the brand profile form's rules (the shared `brandOnboardingStepSchema`),
 * prefilled from the brand, with the optional profile image above them.
 * Saving stores them on the brand and sets the brand flag; a refusal shows
 * the returned message, under its field when it names one.
 */
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { BIO_MAX_LENGTH } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import {
  brandOnboardingStepSchema,
  type BrandOnboardingStepForm,
} from '@raly/contracts/validation';
import { apiErrorMessage } from '@/lib/api-error';
import { showToast } from '@/lib/toast';
import { TextAreaField } from '@/components/ui/text-area-field';
import { TextField } from '@/components/ui/text-field';
import { useCompleteBrandStepMutation } from '@/features/onboarding/api/onboarding-api';
import { StepFrame } from '@/features/onboarding/components/step-frame';

const fieldNames = ['company', 'websiteUrl', 'bio'] as const;

/** The field errors of a refused call (the BFF's `error.fields`), if any. */
function fieldErrorsOf(error: unknown): Partial<Record<string, string>> {
  const body = (error as { data?: { error?: { fields?: unknown } } } | null)?.data;
  const fields = body?.error?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

export interface BrandStepProps {
  submitLabel: string;
  brand: BrandRecord;
  /** The profile image with its picker (optional to change), shown above the fields. */
  profileImage?: ReactNode;
}

export function BrandStep({ submitLabel, brand, profileImage }: BrandStepProps) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<BrandOnboardingStepForm>({
    resolver: zodResolver(brandOnboardingStepSchema),
    defaultValues: { company: brand.company, websiteUrl: brand.websiteUrl, bio: brand.bio },
  });
  const [completeBrandStep] = useCompleteBrandStepMutation();
  const dispatch = useDispatch();

  const onSubmit = async (values: BrandOnboardingStepForm) => {
    try {
      await completeBrandStep(values).unwrap();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      for (const name of fieldNames) {
        const message = fields[name];
        if (message) setError(name, { message });
      }
      dispatch(
        showToast({ type: 'alert', message: apiErrorMessage(error, messages.genericProblem) }),
      );
    }
  };

  return (
    <StepFrame
      title="Your brand"
      submitLabel={submitLabel}
      busy={isSubmitting}
      onSubmit={handleSubmit(onSubmit)}
    >
      <p className="text-sm text-slate-600">
        Creators see this on your public brand profile and next to your offers.
      </p>
      {profileImage}
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
      <TextAreaField
        label="Bio"
        maxLength={BIO_MAX_LENGTH}
        length={(watch('bio') ?? '').length}
        error={errors.bio?.message}
        {...register('bio')}
      />
    </StepFrame>
  );
}

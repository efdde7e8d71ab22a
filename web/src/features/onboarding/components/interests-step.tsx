/**
 * Onboarding step "interests" (spec §4, §5): pick from the interest options,
 * at least one ('You must select at least one interest'); saving them sets
 * the interests flag.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { INTERESTS, type Interest } from '@raly/contracts/constants';
import { interestsSchema } from '@raly/contracts/validation';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { useUpdateInterestsMutation } from '@/features/onboarding/api/onboarding-api';
import { StepFrame } from '@/features/onboarding/components/step-frame';
import { useStepFailure } from '@/features/onboarding/hooks/use-step-failure';

const interestsFormSchema = z.object({ interests: interestsSchema });

/** @param interests what the user picked before (preselected) */
export function InterestsStep({
  submitLabel,
  interests,
}: {
  submitLabel: string;
  interests: Interest[];
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(interestsFormSchema), defaultValues: { interests } });
  const [updateInterests] = useUpdateInterestsMutation();
  const stepFailed = useStepFailure();

  const onSubmit = async (values: { interests: Interest[] }) => {
    await updateInterests(values.interests).unwrap().catch(stepFailed);
  };

  return (
    <StepFrame
      title="Pick your interests"
      submitLabel={submitLabel}
      busy={isSubmitting}
      onSubmit={handleSubmit(onSubmit)}
    >
      <p className="text-sm text-slate-600">We match you with campaigns about what you like.</p>
      <CheckboxGroup
        legend="Interests"
        options={INTERESTS}
        registration={register('interests')}
        error={errors.interests?.message}
      />
    </StepFrame>
  );
}

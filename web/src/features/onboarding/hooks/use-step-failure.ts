/** Spec §8: an onboarding step that fails says 'Hmm, there was a problem. Try again.' in the toast. */
import { useDispatch } from 'react-redux';
import { messages } from '@raly/contracts/messages';
import { showToast } from '@/lib/toast';

/** @returns a function that shows the step-failure toast */
export function useStepFailure(): () => void {
  const dispatch = useDispatch();
  return () => dispatch(showToast({ type: 'alert', message: messages.genericProblem }));
}

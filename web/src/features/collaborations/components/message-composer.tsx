/**
 * The composer of a conversation: one message of 1 to 2,000 characters,
 * checked by the shared `sendMessageSchema` (the same messages as the
 * service's). A body that looks like an e-mail address or a phone number
 * is not sent until its author confirms the contact-details notice; the
 * confirmed message goes with `confirmContactDetails: true` and the same
 * `clientId`. Enter sends, Shift+Enter starts a new line.
 */
import { useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_MAX_LENGTH,
  looksLikeContactDetails,
  sendMessageSchema,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/text-area-field';
import type { Draft, SendOutcome } from '@/features/collaborations/hooks/use-outbox';

const bodySchema = sendMessageSchema.pick({ body: true });

export interface MessageComposerProps {
  /** Sends a message (optimistically); resolves with what became of it. */
  onSend: (draft: Draft) => Promise<SendOutcome>;
}

export function MessageComposer({ onSend }: MessageComposerProps) {
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<{ body: string }>({
    resolver: zodResolver(bodySchema),
    defaultValues: { body: '' },
  });
  // The message waiting for its author to confirm the contact-details notice.
  const [confirming, setConfirming] = useState<Draft | null>(null);
  const typed = watch('body') ?? '';
  // Editing the text withdraws the question: the next Send checks the new text.
  const asking = confirming !== null && typed.trim() === confirming.body;

  const dispatch = async (draft: Draft) => {
    reset({ body: '' });
    setConfirming(null);
    if ((await onSend(draft)) !== 'contact-details') return;
    setValue('body', draft.body);
    setConfirming({ ...draft, confirmContactDetails: false });
  };

  const onSubmit = ({ body }: { body: string }) => {
    const draft = { clientId: crypto.randomUUID(), body, confirmContactDetails: false };
    if (looksLikeContactDetails(body)) setConfirming(draft);
    else void dispatch(draft);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  };

  return (
    <form
      noValidate
      aria-label="Write a message"
      onSubmit={handleSubmit(onSubmit)}
      className="space-y-3 border-t border-slate-200 p-4"
    >
      <TextAreaField
        label="Message"
        rows={3}
        placeholder="Write to the other side. Enter sends, Shift+Enter adds a line."
        length={typed.length}
        maxLength={MESSAGE_MAX_LENGTH}
        error={errors.body?.message}
        onKeyDown={onKeyDown}
        {...register('body')}
      />
      {asking && (
        <div
          role="alert"
          className="space-y-3 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
        >
          <p>{messages.contactDetailsNotice}</p>
          <div className="flex justify-end gap-3">
            <Button
              variant="secondary"
              onClick={() => {
                setConfirming(null);
                setFocus('body');
              }}
            >
              Edit message
            </Button>
            <Button onClick={() => void dispatch({ ...confirming, confirmContactDetails: true })}>
              Send anyway
            </Button>
          </div>
        </div>
      )}
      {!asking && (
        <div className="flex justify-end">
          <Button type="submit">Send</Button>
        </div>
      )}
    </form>
  );
}

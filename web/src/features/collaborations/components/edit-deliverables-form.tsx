/**
 * The brand splits the work before the first submission: titles and
 * optional due dates (a date input, sent as the end of that day), checked
 * by the shared `setDeliverablesSchema`. Saving replaces the whole list.
 */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  DELIVERABLES_MAX,
  setDeliverablesSchema,
  type Deliverable,
} from '@raly/contracts/collaboration-work';
import { dateInputOf, endOfDayIso } from '@/lib/offer-format';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { TextField } from '@/components/ui/text-field';
import { useSetDeliverablesMutation } from '@/features/collaborations/api/collaboration-work-api';
import { showRefusal } from '@/features/collaborations/utils/form-errors';

/** The form's items carry a date input's value; an empty one means "no due date". */
const formSchema = z
  .object({ items: z.array(z.object({ title: z.string(), dueAt: z.string() })) })
  .transform(({ items }): z.input<typeof setDeliverablesSchema> => ({
    items: items.map(({ title, dueAt }) => ({
      title,
      dueAt: dueAt.trim() === '' ? null : endOfDayIso(dueAt) || dueAt,
    })),
  }))
  .pipe(setDeliverablesSchema);

export interface EditDeliverablesFormProps {
  collaborationId: string;
  deliverables: readonly Pick<Deliverable, 'title' | 'dueAt'>[];
  onDone: () => void;
}

export function EditDeliverablesForm({
  collaborationId,
  deliverables,
  onDone,
}: EditDeliverablesFormProps) {
  const [setDeliverables] = useSetDeliverablesMutation();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(formSchema),
    defaultValues: {
      items: deliverables.map(({ title, dueAt }) => ({
        title,
        dueAt: dueAt ? dateInputOf(dueAt) : '',
      })),
    },
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'items' });

  const onSubmit = async (values: z.output<typeof formSchema>) => {
    try {
      await setDeliverables({ collaborationId, deliverables: values }).unwrap();
      onDone();
    } catch (error) {
      showRefusal(error, setError, ['items']);
    }
  };

  return (
    <form
      noValidate
      aria-label="Edit deliverables"
      onSubmit={handleSubmit(onSubmit)}
      className="space-y-4"
    >
      <ol className="space-y-3">
        {fields.map((field, index) => (
          <li key={field.id} className="flex flex-wrap items-end gap-3">
            <TextField
              label={`Deliverable ${index + 1}`}
              className="min-w-48 flex-1"
              error={errors.items?.[index]?.title?.message}
              {...register(`items.${index}.title`)}
            />
            <TextField
              label="Due (optional)"
              type="date"
              className="w-40"
              error={errors.items?.[index]?.dueAt?.message}
              {...register(`items.${index}.dueAt`)}
            />
            <Button
              variant="ghost"
              aria-label={`Remove deliverable ${index + 1}`}
              disabled={fields.length === 1}
              onClick={() => remove(index)}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      {errors.items?.message && <Notification>{errors.items.message}</Notification>}
      {errors.items?.root?.message && <Notification>{errors.items.root.message}</Notification>}
      {errors.root?.server && <Notification>{errors.root.server.message}</Notification>}
      <div className="flex flex-wrap justify-between gap-3">
        <Button
          variant="secondary"
          disabled={fields.length >= DELIVERABLES_MAX}
          onClick={() => append({ title: '', dueAt: '' })}
        >
          Add deliverable
        </Button>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Save deliverables
          </Button>
        </div>
      </div>
    </form>
  );
}

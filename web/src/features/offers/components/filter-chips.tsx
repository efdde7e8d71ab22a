/** A row of toggle buttons for one filter of the feed (interests, platforms); pressed = filtering by it. */
import { focusRing } from '@/components/ui/button';

export function FilterChips<T extends string>({
  legend,
  options,
  labels,
  selected,
  onToggle,
}: {
  legend: string;
  options: readonly T[];
  labels?: Readonly<Record<T, string>>;
  selected: readonly T[];
  onToggle: (option: T) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {options.map((option) => {
          const pressed = selected.includes(option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={pressed}
              onClick={() => onToggle(option)}
              className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${focusRing} ${
                pressed
                  ? 'bg-indigo-600 text-white ring-indigo-600'
                  : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
              }`}
            >
              {labels?.[option] ?? option}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

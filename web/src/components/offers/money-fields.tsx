/**
 * An amount typed in major units and its currency, side by side (the offer's
 * fixed compensation, an application's proposed rate), each with its
 * message underneath. Pass the two react-hook-form registrations.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CURRENCIES } from '@raly/contracts/offers';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';

export function MoneyFields({
  amount,
  currency,
  amountError,
  currencyError,
  className = '',
}: {
  amount: UseFormRegisterReturn;
  currency: UseFormRegisterReturn;
  amountError?: string;
  currencyError?: string;
  className?: string;
}) {
  return (
    <div className={`grid grid-cols-[1fr_7rem] gap-3 ${className}`}>
      <TextField
        label="Amount"
        inputMode="decimal"
        autoComplete="off"
        error={amountError}
        {...amount}
      />
      <SelectField label="Currency" options={CURRENCIES} error={currencyError} {...currency} />
    </div>
  );
}

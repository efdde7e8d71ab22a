/**
 * The bio textarea of the brand profile (spec §5: optional, 32 to 280
 * characters when given) with its character count, so the user sees how
 * close they are to either bound.
 */
import { BIO_MAX_LENGTH } from '@raly/contracts/constants';
import { TextAreaField, type TextAreaFieldProps } from '@/components/ui/text-area-field';

export interface BioFieldProps extends Omit<TextAreaFieldProps, 'maxLength' | 'length'> {
  /** Characters typed so far. */
  length: number;
}

export function BioField(props: BioFieldProps) {
  return <TextAreaField {...props} maxLength={BIO_MAX_LENGTH} />;
}

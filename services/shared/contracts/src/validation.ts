/**
 * Validation rules of spec §5 as zod schemas, shared by the web forms
 * (react-hook-form + zodResolver) and the services, so both answer the same
 * rule with the same message. Uniqueness checks (username, e-mail) need the
 * server and are not here: see the callables in `./callable`.
 *
 * Every text field has a maximum length and refuses control characters
 * (NUL, escape, DEL, C1): Postgres cannot store NUL, Keycloak refuses
 * over-long values, and neither belongs in a name, an address or a URL.
 */
import { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  BIO_MIN_LENGTH,
  BRAND_ONBOARDING_STEPS,
  CREATOR_ONBOARDING_STEPS,
  EMAIL_MAX_LENGTH,
  INTERESTS,
  LOOKUP_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_NUMBER_MAX_LENGTH,
  URL_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';
import { messages } from './messages';

/**
 * What the username field does while typing (spec §5): the first whitespace
 * character is removed and the text is lowercased.
 * @param raw what the user typed
 * @returns the normalised username
 */
export function normalizeUsernameInput(raw: string): string {
  return raw.replace(/\s/, '').toLowerCase();
}

/**
 * The stored form of a username, used by every service before it looks a
 * username up, compares it or claims it: trimmed and lowercased (spec §5
 * requires uniqueness; case-insensitive and across creators and brands is
 * our reading).
 * @param username a username as sent
 * @returns the form the username registry and the records hold
 */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * The stored form of an e-mail: trimmed and lowercased (spec §5: one
 * account per e-mail, whatever its case).
 * @param email an e-mail as sent
 * @returns the form the user records and Keycloak hold
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * True when `value` is an absolute http(s) URL with a host name that has a
 * dot (or is localhost), e.g. `https://raly.example`.
 */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.hostname === 'localhost' || /^[^.]+(\.[^.]+)+$/.test(url.hostname);
}

// Control characters are exactly what these patterns are about.
/* eslint-disable no-control-regex */
/** No C0 or C1 control character, nor DEL. */
const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same, except tab, line feed and carriage return: for multi-line text (bio). */
const WITHOUT_CONTROL_CHARACTERS_BUT_LINE_BREAKS =
  /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
/* eslint-enable no-control-regex */

/**
 * A one-line text field: at most `maxLength` characters (else `tooLong`), no
 * control characters (else 'Remove the invisible control characters from this field').
 */
export const boundedText = (maxLength: number, tooLong: string) =>
  z.string().max(maxLength, tooLong).regex(WITHOUT_CONTROL_CHARACTERS, messages.controlCharacters);

/**
 * A multi-line text field (bio, an offer's brief): no control characters
 * except tab, line feed and carriage return (else 'Remove the invisible
 * control characters from this field'). Length rules are the caller's.
 */
export const multilineText = () =>
  z.string().regex(WITHOUT_CONTROL_CHARACTERS_BUT_LINE_BREAKS, messages.controlCharacters);

/**
 * A value the server only looks up (a callable's argument, a reset code): a
 * string of at most 255 characters without control characters.
 */
export const lookupValueSchema = boundedText(LOOKUP_MAX_LENGTH, messages.valueTooLong);

export const usernameSchema = z
  .string()
  .min(1, messages.usernameRequired)
  .min(USERNAME_MIN_LENGTH, messages.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, messages.usernameTooLong)
  .regex(/^[A-Za-z0-9]*$/, messages.usernameCharacters);

export const emailSchema = z
  .string()
  .trim()
  .min(1, messages.emailRequired)
  .max(EMAIL_MAX_LENGTH, messages.emailTooLong)
  .pipe(z.email(messages.emailInvalid));

/** A password as typed at sign-in: required, bounded, no control characters. */
const enteredPassword = (requiredMessage: string) =>
  boundedText(PASSWORD_MAX_LENGTH, messages.passwordTooLong).min(1, requiredMessage);

export const passwordSchema = enteredPassword(messages.passwordRequired).min(
  PASSWORD_MIN_LENGTH,
  messages.passwordTooShort,
);

/** A required name (first, last, company): trimmed, 1 to 255 characters. */
const requiredName = (required: string, tooLong: string) =>
  boundedText(NAME_MAX_LENGTH, tooLong).trim().min(1, required);

/** A URL field: trimmed, at most 2048 characters. */
const urlText = () => boundedText(URL_MAX_LENGTH, messages.urlTooLong).trim();

/** An optional URL field: empty means absent; otherwise a valid http(s) URL. */
const optionalUrl = (message: string) =>
  urlText()
    .refine((v) => v === '' || isHttpUrl(v), message)
    .optional()
    .default('');

const passwordPair = {
  password: passwordSchema,
  confirmPassword: enteredPassword(messages.passwordConfirmationRequired),
};

function passwordsMatch(
  value: { password: string; confirmPassword: string },
  ctx: z.RefinementCtx,
) {
  if (value.confirmPassword !== '' && value.password !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: messages.passwordMismatch });
  }
}

const creatorRegistrationShape = {
  username: usernameSchema,
  email: emailSchema,
  ...passwordPair,
  agreeTerms: z.boolean().refine((v) => v === true, messages.agreeTermsRegistration),
};

/** Registration as a creator (`/join/creator`). */
export const creatorRegistrationSchema = z
  .object(creatorRegistrationShape)
  .superRefine(passwordsMatch);
export type CreatorRegistration = z.infer<typeof creatorRegistrationSchema>;

/** Registration as a brand (`/join/brand`): adds the brand-only fields. */
export const brandRegistrationSchema = z
  .object({
    ...creatorRegistrationShape,
    firstName: requiredName(messages.firstNameRequired, messages.firstNameTooLong),
    lastName: requiredName(messages.lastNameRequired, messages.lastNameTooLong),
    company: requiredName(messages.companyRequired, messages.companyTooLong),
    website: urlText().min(1, messages.websiteRequired).refine(isHttpUrl, messages.urlHttps),
  })
  .superRefine(passwordsMatch);
export type BrandRegistration = z.infer<typeof brandRegistrationSchema>;

/**
 * Registration from a brand's invitation (`/join/team?token=…`): the person
 * joins the invitation's brand as a member with their own handle (unique
 * like usernames, same rules); the e-mail must be the invited one.
 */
export const memberRegistrationSchema = z
  .object({
    token: lookupValueSchema.min(1, messages.invitationInvalid),
    handle: usernameSchema,
    email: emailSchema,
    ...passwordPair,
    firstName: requiredName(messages.firstNameRequired, messages.firstNameTooLong),
    lastName: requiredName(messages.lastNameRequired, messages.lastNameTooLong),
    agreeTerms: z.boolean().refine((v) => v === true, messages.agreeTermsRegistration),
  })
  .superRefine(passwordsMatch);
export type MemberRegistration = z.infer<typeof memberRegistrationSchema>;

/** createAccount command body (spec §7): registration data plus isBrand. */
export const createAccountSchema = z.discriminatedUnion('isBrand', [
  z.object({ isBrand: z.literal(false), registration: creatorRegistrationSchema }),
  z.object({ isBrand: z.literal(true), registration: brandRegistrationSchema }),
]);
export type CreateAccountCommand = z.infer<typeof createAccountSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: enteredPassword(messages.passwordRequired),
});
export type LoginForm = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

/** The `/auth/action` reset form; actionCode is the oobCode query value. */
export const resetPasswordFormSchema = z.object(passwordPair).superRefine(passwordsMatch);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
export const resetPasswordSchema = z.object({
  actionCode: lookupValueSchema.min(1),
  password: passwordSchema,
});

export const verifyPasswordSchema = z.object({
  password: enteredPassword(messages.verifyPasswordRequired),
});

export const interestSchema = z.enum(INTERESTS);
export const interestsSchema = z.array(interestSchema).min(1, messages.interestsRequired);

export const onboardingTermsSchema = z.object({
  agreeTerms: z.boolean().refine((v) => v === true, messages.agreeTermsOnboarding),
});

const notificationsSchema = z.object({ offers: z.boolean(), marketing: z.boolean() });
const phoneNumberText = () =>
  boundedText(PHONE_NUMBER_MAX_LENGTH, messages.phoneNumberTooLong).trim();
const phoneNumberSchema = phoneNumberText().optional().default('');

/** Account form of a creator (non-brand user): username and interests shown. */
export const creatorAccountSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  phoneNumber: phoneNumberSchema,
  interests: interestsSchema,
  notifications: notificationsSchema,
});
export type CreatorAccountForm = z.infer<typeof creatorAccountSchema>;

/** Account form of a brand user: no username; first and last name required. */
export const brandUserAccountSchema = z.object({
  firstName: requiredName(messages.firstNameRequired, messages.firstNameTooLong),
  lastName: requiredName(messages.lastNameRequired, messages.lastNameTooLong),
  email: emailSchema,
  phoneNumber: phoneNumberSchema,
  notifications: z.object({ marketing: z.boolean() }),
});
export type BrandUserAccountForm = z.infer<typeof brandUserAccountSchema>;

/**
 * A partial update of a creator's account (server side of PATCH /api/me):
 * the fields of {@link creatorAccountSchema}, each optional, no defaults, no
 * other keys. An absent field stays as it is.
 */
export const creatorAccountUpdateSchema = z
  .object({
    username: usernameSchema,
    email: emailSchema,
    phoneNumber: phoneNumberText(),
    interests: interestsSchema,
    notifications: notificationsSchema,
  })
  .partial()
  .strict();
export type CreatorAccountUpdate = z.infer<typeof creatorAccountUpdateSchema>;

/**
 * A partial update of a brand user's account: the fields of
 * {@link brandUserAccountSchema}, each optional (first and last name, when
 * sent, must not be empty); no username, interests or offer notifications.
 */
export const brandUserAccountUpdateSchema = z
  .object({
    firstName: requiredName(messages.firstNameRequired, messages.firstNameTooLong),
    lastName: requiredName(messages.lastNameRequired, messages.lastNameTooLong),
    email: emailSchema,
    phoneNumber: phoneNumberText(),
    notifications: z.object({ marketing: z.boolean() }).strict(),
  })
  .partial()
  .strict();
export type BrandUserAccountUpdate = z.infer<typeof brandUserAccountUpdateSchema>;

/** Every onboarding step name (spec §4); which ones apply depends on the user's kind. */
export const onboardingStepSchema = z.union([
  z.enum(CREATOR_ONBOARDING_STEPS),
  z.enum(BRAND_ONBOARDING_STEPS),
]);
export type OnboardingStep = z.infer<typeof onboardingStepSchema>;

/** Brand profile form (`/settings/brand`). */
export const brandProfileSchema = z.object({
  username: usernameSchema,
  company: requiredName(messages.companyRequired, messages.companyTooLong),
  websiteUrl: urlText().min(1, messages.urlHttpOrHttps).refine(isHttpUrl, messages.urlHttpOrHttps),
  bio: multilineText()
    .trim()
    .refine((v) => v === '' || v.length >= BIO_MIN_LENGTH, messages.bioTooShort)
    .refine((v) => v.length <= BIO_MAX_LENGTH, messages.bioTooLong)
    .optional()
    .default(''),
  socials: z.object({
    x: optionalUrl(messages.urlHttps),
    instagram: optionalUrl(messages.urlHttps),
    threads: optionalUrl(messages.urlHttps),
    discord: optionalUrl(messages.urlHttps),
  }),
});
export type BrandProfileForm = z.infer<typeof brandProfileSchema>;

/**
 * The brand step of brand onboarding (spec §4.1): the brand profile's
 * essentials under the brand profile form's rules (§5.8). The bio is asked
 * for here, so an empty one is refused as shorter than 32 characters; the
 * username and the social links stay as they are.
 */
export const brandOnboardingStepSchema = brandProfileSchema
  .pick({ company: true, websiteUrl: true })
  .extend({
    bio: multilineText()
      .trim()
      .min(BIO_MIN_LENGTH, messages.bioTooShort)
      .max(BIO_MAX_LENGTH, messages.bioTooLong),
  })
  .strict();
export type BrandOnboardingStepForm = z.infer<typeof brandOnboardingStepSchema>;

/**
 * The first message per field of a failed parse, keyed by dotted path
 * (`socials.x`). Useful for services answering a form with field errors.
 */
export function firstErrorByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

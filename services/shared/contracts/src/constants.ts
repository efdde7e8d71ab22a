/** Business constants and limits of spec §9. Units are in the names. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 18;
export const PASSWORD_MIN_LENGTH = 6;
/** Longest accepted password (NIST SP 800-63B asks for at least 64). */
export const PASSWORD_MAX_LENGTH = 128;
/** Longest e-mail address (RFC 5321: a forward path of 256 octets less the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;
/** Longest first name, last name or company name (Keycloak's user profile caps names at 255). */
export const NAME_MAX_LENGTH = 255;
/** Longest website or social link. */
export const URL_MAX_LENGTH = 2048;
export const PHONE_NUMBER_MAX_LENGTH = 32;
/** Longest value of a field that is only looked up (a reset code, a callable's argument). */
export const LOOKUP_MAX_LENGTH = 255;
export const BIO_MIN_LENGTH = 32;
export const BIO_MAX_LENGTH = 280;
/** 5 MB, the largest accepted image (spec §5, §9). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg', 'svg', 'webp'] as const;
export const TOAST_DURATION_MS = 5000;
export const RESET_REDIRECT_DELAY_MS = 3000;
export const ONBOARDING_TERMS_DELAY_MS = 500;
export const CALLABLE_TIMEOUT_MS = 70_000;
export const CALLABLE_REGION = 'us-central1';
export const INITIALS_MAX_LETTERS = 2;
export const TERMS_BOX_HEIGHT_PX = 170;
/** How long a brand's invitation link stays usable (7 days). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How many invitations one brand may send in {@link INVITATION_RATE_WINDOW_MS}. */
export const INVITATIONS_PER_WINDOW = 20;
/** The window of the brand's invitation limit (1 hour). */
export const INVITATION_RATE_WINDOW_MS = 60 * 60 * 1000;

/** Interest options of spec §3, in the spec's order. */
export const INTERESTS = [
  'AI',
  'NFTs',
  'Gaming',
  'Fashion',
  'Gambling',
  'Memecoins',
  'Sports',
  'Business',
  'Crypto',
  'Other',
] as const;
export type Interest = (typeof INTERESTS)[number];

/** Creator onboarding steps in the order the flow shows them (spec §4). */
export const CREATOR_ONBOARDING_STEPS = ['terms', 'interests', 'connects', 'wallet'] as const;
export const BRAND_ONBOARDING_STEPS = ['terms', 'brand'] as const;

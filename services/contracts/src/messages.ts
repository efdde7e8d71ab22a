/**
 * Every user-facing text of the spec (§2, §4, §5, §8), word for word, in one
 * table. Browser and services import these so both say the same thing for
 * the same rule. Never inline one of these strings elsewhere.
 */
export const messages = {
  // §5 Username
  usernameRequired: 'Username is required',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must not exceed 18 characters',
  usernameCharacters: 'Username can only contain letters or numbers. No Special characters.',
  usernameTaken: 'Username is already taken',
  // §5 Brand registration
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  companyRequired: 'Company name is required',
  websiteRequired: 'A valid website is required',
  urlHttps: 'Please enter a valid url, including https://',
  urlHttpOrHttps: 'Please enter a valid url, including http:// or https://',
  // §5 Email
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  emailTaken: "There's already an account associated with this email",
  emailUnknown: 'There is no account associated with this email',
  // §5 Password
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordConfirmationRequired: 'Password confirmation is required',
  passwordMismatch: 'Password does not match',
  // §5 Terms and interests
  agreeTermsRegistration: 'You must agree to terms and conditions',
  agreeTermsOnboarding: 'You must agree to the terms above',
  interestsRequired: 'You must select at least one interest',
  // §5 Brand profile
  bioTooShort: 'Bio must be at least 32 characters',
  bioTooLong: 'Bio must not exceed 280 characters',
  // Maximum lengths and control characters (not in the spec; same wording as its length rules)
  emailTooLong: 'Email must not exceed 254 characters',
  passwordTooLong: 'Password must not exceed 128 characters',
  firstNameTooLong: 'First name must not exceed 255 characters',
  lastNameTooLong: 'Last name must not exceed 255 characters',
  companyTooLong: 'Company name must not exceed 255 characters',
  urlTooLong: 'URL must not exceed 2048 characters',
  phoneNumberTooLong: 'Phone number must not exceed 32 characters',
  valueTooLong: 'This value is too long',
  controlCharacters: 'Remove the invisible control characters from this field',
  // §5 Verify password dialog and images
  verifyPasswordRequired: 'Please enter a password.',
  imageTooLarge: 'Image size must be < 5MB',
  // §8 Error catalogue
  usernameExists: 'Username already exists. Try another.',
  createAccountFailed: 'There was a problem creating your account. Try again.',
  updateAccountFailed: 'There was a problem updating your account. Try again.',
  profileUpdated: 'Profile updated!',
  brandProfileUpdated: 'Brand profile updated!',
  incorrectLogin: 'Incorrect login',
  requestProblem: 'There was a problem with your request.',
  genericProblem: 'Hmm, there was a problem. Try again.',
  profileImageUpdated: 'Profile image updated!',
  coverImageUpdated: 'Cover image updated!',
  incorrectPassword: 'Incorrect password',
  pageNotFound: 'Sorry, we couldn’t find the page you’re looking for.',
  // §4 Flows
  resetLinkSent: 'Check your email for a password reset link',
  passwordUpdated: 'Password updated! Redirecting now..',
} as const;

export type MessageKey = keyof typeof messages;

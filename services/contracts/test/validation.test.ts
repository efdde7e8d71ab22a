import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../src/messages';
import {
  brandProfileSchema,
  brandRegistrationSchema,
  brandUserAccountSchema,
  creatorAccountSchema,
  creatorRegistrationSchema,
  firstErrorByField,
  forgotPasswordSchema,
  interestsSchema,
  isHttpUrl,
  loginSchema,
  normalizeUsernameInput,
  onboardingTermsSchema,
  resetPasswordFormSchema,
  verifyPasswordSchema,
} from '../src/validation';
import type { z } from 'zod';

/** First message per field when `schema` rejects `value`; {} when it accepts. */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  return result.success ? {} : firstErrorByField(result.error);
}

const validCreator = {
  username: 'maya21',
  email: 'maya@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
  agreeTerms: true,
};

describe('username rules (spec §5)', () => {
  const cases: Array<[string, string]> = [
    ['', messages.usernameRequired],
    ['ab', messages.usernameTooShort],
    ['a'.repeat(19), messages.usernameTooLong],
    ['maya_21', messages.usernameCharacters],
    ['maya 21', messages.usernameCharacters],
  ];
  for (const [username, expected] of cases) {
    it(`when the username is '${username}', then registration answers '${expected}'`, () => {
      assert.equal(
        errorsOf(creatorRegistrationSchema, { ...validCreator, username }).username,
        expected,
      );
    });
  }
  it('when the username has 3 or 18 letters and digits, then it is accepted', () => {
    assert.deepEqual(errorsOf(creatorRegistrationSchema, { ...validCreator, username: 'ab1' }), {});
    assert.deepEqual(
      errorsOf(creatorRegistrationSchema, { ...validCreator, username: 'a'.repeat(18) }),
      {},
    );
  });
  it('while typing, the first whitespace is removed and the text lowercased', () => {
    assert.equal(normalizeUsernameInput(' Maya Rose'), 'maya rose');
    assert.equal(normalizeUsernameInput('Maya Rose'), 'mayarose');
    assert.equal(normalizeUsernameInput('MAYA'), 'maya');
  });
});

describe('email and password rules (spec §5)', () => {
  it('when the email is empty, then the answer is Email is required', () => {
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, email: '' }).email,
      messages.emailRequired,
    );
  });
  it('when the email is malformed, then the answer is Please enter a valid email', () => {
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, email: 'maya@' }).email,
      messages.emailInvalid,
    );
    assert.equal(errorsOf(forgotPasswordSchema, { email: 'nope' }).email, messages.emailInvalid);
  });
  it('when the password is empty or short, then the spec messages are given', () => {
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, password: '' }).password,
      messages.passwordRequired,
    );
    assert.equal(
      errorsOf(creatorRegistrationSchema, {
        ...validCreator,
        password: '12345',
        confirmPassword: '12345',
      }).password,
      messages.passwordTooShort,
    );
  });
  it('when the confirmation is empty or different, then the spec messages are given', () => {
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, confirmPassword: '' }).confirmPassword,
      messages.passwordConfirmationRequired,
    );
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, confirmPassword: 'secret2' })
        .confirmPassword,
      messages.passwordMismatch,
    );
    assert.equal(
      errorsOf(resetPasswordFormSchema, { password: 'secret1', confirmPassword: 'secret2' })
        .confirmPassword,
      messages.passwordMismatch,
    );
  });
  it('when terms are not agreed, then registration answers You must agree to terms and conditions', () => {
    assert.equal(
      errorsOf(creatorRegistrationSchema, { ...validCreator, agreeTerms: false }).agreeTerms,
      messages.agreeTermsRegistration,
    );
  });
  it('login needs a valid email and a password', () => {
    assert.deepEqual(errorsOf(loginSchema, { email: '', password: '' }), {
      email: messages.emailRequired,
      password: messages.passwordRequired,
    });
  });
  it('the verify password dialog answers Please enter a password. when empty', () => {
    assert.equal(
      errorsOf(verifyPasswordSchema, { password: '' }).password,
      messages.verifyPasswordRequired,
    );
  });
});

describe('brand registration (spec §5)', () => {
  const validBrand = {
    ...validCreator,
    firstName: 'Ana',
    lastName: 'Lee',
    company: 'Acme',
    website: 'https://acme.example',
  };
  it('accepts a complete brand registration', () => {
    assert.deepEqual(errorsOf(brandRegistrationSchema, validBrand), {});
  });
  it('when brand fields are empty, then each has its message', () => {
    const errors = errorsOf(brandRegistrationSchema, {
      ...validBrand,
      firstName: ' ',
      lastName: '',
      company: '',
      website: '',
    });
    assert.equal(errors.firstName, messages.firstNameRequired);
    assert.equal(errors.lastName, messages.lastNameRequired);
    assert.equal(errors.company, messages.companyRequired);
    assert.equal(errors.website, messages.websiteRequired);
  });
  it('when the website is not a URL, then Please enter a valid url, including https://', () => {
    assert.equal(
      errorsOf(brandRegistrationSchema, { ...validBrand, website: 'acme.com' }).website,
      messages.urlHttps,
    );
  });
});

describe('onboarding, interests and account forms (spec §5)', () => {
  it('terms in onboarding answer You must agree to the terms above', () => {
    assert.equal(
      errorsOf(onboardingTermsSchema, { agreeTerms: false }).agreeTerms,
      messages.agreeTermsOnboarding,
    );
  });
  it('interests need at least one from the list', () => {
    assert.equal(errorsOf(interestsSchema, [])[''], messages.interestsRequired);
    assert.equal(interestsSchema.safeParse(['AI', 'Crypto']).success, true);
    assert.equal(interestsSchema.safeParse(['Cooking']).success, false);
  });
  it('the creator account form needs interests; the brand user form needs names', () => {
    const creatorErrors = errorsOf(creatorAccountSchema, {
      username: 'maya21',
      email: 'maya@example.com',
      interests: [],
      notifications: { offers: true, marketing: false },
    });
    assert.equal(creatorErrors.interests, messages.interestsRequired);
    const brandErrors = errorsOf(brandUserAccountSchema, {
      firstName: '',
      lastName: '',
      email: 'ana@example.com',
      notifications: { marketing: true },
    });
    assert.equal(brandErrors.firstName, messages.firstNameRequired);
    assert.equal(brandErrors.lastName, messages.lastNameRequired);
  });
});

describe('brand profile (spec §5)', () => {
  const validProfile = {
    username: 'acme',
    company: 'Acme',
    websiteUrl: 'http://acme.example',
    bio: '',
    socials: { x: '', instagram: '', threads: '', discord: '' },
  };
  it('accepts an empty bio and empty socials', () => {
    assert.deepEqual(errorsOf(brandProfileSchema, validProfile), {});
  });
  it('bio must be 32 to 280 characters when given', () => {
    assert.equal(
      errorsOf(brandProfileSchema, { ...validProfile, bio: 'short' }).bio,
      messages.bioTooShort,
    );
    assert.equal(
      errorsOf(brandProfileSchema, { ...validProfile, bio: 'x'.repeat(281) }).bio,
      messages.bioTooLong,
    );
    assert.deepEqual(errorsOf(brandProfileSchema, { ...validProfile, bio: 'x'.repeat(32) }), {});
  });
  it('website and socials must be URLs', () => {
    const errors = errorsOf(brandProfileSchema, {
      ...validProfile,
      websiteUrl: 'acme',
      socials: { ...validProfile.socials, x: 'x.com/acme' },
    });
    assert.equal(errors.websiteUrl, messages.urlHttpOrHttps);
    assert.equal(errors['socials.x'], messages.urlHttps);
  });
});

describe('isHttpUrl', () => {
  it('accepts http and https URLs with a host and rejects the rest', () => {
    assert.equal(isHttpUrl('https://acme.example/path'), true);
    assert.equal(isHttpUrl('http://localhost:3000'), true);
    assert.equal(isHttpUrl('ftp://acme.example'), false);
    assert.equal(isHttpUrl('https://acme'), false);
    assert.equal(isHttpUrl('javascript:alert(1)'), false);
  });
});

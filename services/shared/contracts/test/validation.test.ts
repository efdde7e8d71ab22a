import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { callables } from '../src/callable';
import { messages } from '../src/messages';
import {
  brandOnboardingStepSchema,
  brandProfileSchema,
  brandRegistrationSchema,
  brandUserAccountSchema,
  brandUserAccountUpdateSchema,
  creatorAccountSchema,
  creatorAccountUpdateSchema,
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

const validBrand = {
  ...validCreator,
  firstName: 'Ana',
  lastName: 'Lee',
  company: 'Acme',
  website: 'https://acme.example',
};

const validProfile = {
  username: 'acme',
  company: 'Acme',
  websiteUrl: 'http://acme.example',
  bio: '',
  socials: { x: '', instagram: '', threads: '', discord: '' },
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

describe('the brand step of brand onboarding (spec §4.1, §5.8)', () => {
  const essentials = {
    company: 'Acme',
    websiteUrl: 'https://acme.example',
    bio: 'We make bright running shoes for city runners.',
  };
  it('accepts the essentials under the brand profile rules', () => {
    assert.deepEqual(errorsOf(brandOnboardingStepSchema, essentials), {});
  });
  it('asks for the bio: an empty or short one is shorter than 32 characters, a long one too long', () => {
    for (const bio of ['', '   ', 'short'])
      assert.equal(
        errorsOf(brandOnboardingStepSchema, { ...essentials, bio }).bio,
        messages.bioTooShort,
      );
    assert.equal(
      errorsOf(brandOnboardingStepSchema, { ...essentials, bio: 'x'.repeat(281) }).bio,
      messages.bioTooLong,
    );
  });
  it('company and website follow the brand profile form', () => {
    const errors = errorsOf(brandOnboardingStepSchema, {
      ...essentials,
      company: '',
      websiteUrl: 'acme',
    });
    assert.equal(errors.company, messages.companyRequired);
    assert.equal(errors.websiteUrl, messages.urlHttpOrHttps);
  });
  it('refuses other fields (the username and socials are not part of the step)', () => {
    assert.ok(
      Object.keys(errorsOf(brandOnboardingStepSchema, { ...essentials, username: 'other' })).length,
    );
  });
});

describe('maximum lengths and control characters (every text field)', () => {
  const validCreatorAccount = {
    username: 'maya21',
    email: 'maya@example.com',
    phoneNumber: '+1 555 0100',
    interests: ['AI'],
    notifications: { offers: true, marketing: false },
  };
  const validBrandAccount = {
    firstName: 'Ana',
    lastName: 'Lee',
    email: 'ana@example.com',
    phoneNumber: '',
    notifications: { marketing: true },
  };
  const longEmail = `${'a'.repeat(64)}@${'b'.repeat(240)}.example`;

  it('when an e-mail is longer than 254 characters, then every form answers Email must not exceed 254 characters', () => {
    for (const [schema, value] of [
      [creatorRegistrationSchema, validCreator],
      [brandRegistrationSchema, validBrand],
      [creatorAccountSchema, validCreatorAccount],
      [brandUserAccountSchema, validBrandAccount],
      [loginSchema, { email: '', password: 'secret1' }],
      [forgotPasswordSchema, { email: '' }],
    ] as const) {
      assert.equal(errorsOf(schema, { ...value, email: longEmail }).email, messages.emailTooLong);
    }
    assert.deepEqual(errorsOf(forgotPasswordSchema, { email: `a@${'b'.repeat(240)}.example` }), {});
  });

  it('when a name, company, URL, phone number or password is too long, then its field says so', () => {
    const long = (length: number) => 'x'.repeat(length);
    const brand = errorsOf(brandRegistrationSchema, {
      ...validBrand,
      firstName: long(256),
      lastName: long(256),
      company: long(256),
      website: `https://acme.example/${long(2048)}`,
      password: long(129),
      confirmPassword: long(129),
    });
    assert.equal(brand.firstName, messages.firstNameTooLong);
    assert.equal(brand.lastName, messages.lastNameTooLong);
    assert.equal(brand.company, messages.companyTooLong);
    assert.equal(brand.website, messages.urlTooLong);
    assert.equal(brand.password, messages.passwordTooLong);
    assert.equal(
      errorsOf(creatorAccountSchema, { ...validCreatorAccount, phoneNumber: long(33) }).phoneNumber,
      messages.phoneNumberTooLong,
    );
    assert.equal(
      errorsOf(brandProfileSchema, {
        ...validProfile,
        socials: { ...validProfile.socials, discord: `https://discord.example/${long(2048)}` },
      })['socials.discord'],
      messages.urlTooLong,
    );
    assert.deepEqual(
      errorsOf(brandRegistrationSchema, { ...validBrand, firstName: long(255) }),
      {},
    );
  });

  it('when a text field holds a NUL or another control character, then it is refused with Remove the invisible control characters from this field', () => {
    const nul = 'a\u0000b';
    const brand = errorsOf(brandRegistrationSchema, {
      ...validBrand,
      firstName: nul,
      lastName: 'Lee\u001b',
      company: nul,
      password: 'secret\u0000',
      confirmPassword: 'secret\u0000',
    });
    assert.equal(brand.firstName, messages.controlCharacters);
    assert.equal(brand.lastName, messages.controlCharacters);
    assert.equal(brand.company, messages.controlCharacters);
    assert.equal(brand.password, messages.controlCharacters);
    assert.equal(
      errorsOf(creatorAccountSchema, { ...validCreatorAccount, phoneNumber: '555\u00000100' })
        .phoneNumber,
      messages.controlCharacters,
    );
    assert.equal(
      errorsOf(brandUserAccountUpdateSchema, { firstName: nul }).firstName,
      messages.controlCharacters,
    );
    assert.equal(
      errorsOf(creatorAccountUpdateSchema, { phoneNumber: nul }).phoneNumber,
      messages.controlCharacters,
    );
    assert.equal(
      errorsOf(brandProfileSchema, { ...validProfile, company: nul }).company,
      messages.controlCharacters,
    );
    assert.notDeepEqual(errorsOf(creatorRegistrationSchema, { ...validCreator, email: nul }), {});
  });

  it('when a bio has line breaks, then they are kept, but other control characters are refused', () => {
    const lines = `${'Line one of the bio.\n'}\tLine two, long enough to pass.`;
    assert.deepEqual(errorsOf(brandProfileSchema, { ...validProfile, bio: lines }), {});
    assert.equal(
      errorsOf(brandProfileSchema, { ...validProfile, bio: `${lines}\u0000` }).bio,
      messages.controlCharacters,
    );
  });

  it("when a callable's argument holds a NUL or is over 255 characters, then it is refused", () => {
    assert.equal(
      errorsOf(callables.checkEmailExists, { email: 'a\u0000@b.test' }).email,
      messages.controlCharacters,
    );
    assert.equal(
      errorsOf(callables.checkUsernameExists, { username: 'x'.repeat(256) }).username,
      messages.valueTooLong,
    );
    assert.deepEqual(errorsOf(callables.checkUsernameExists, { username: 'maya21' }), {});
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

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
  // Offers and applications (not in the spec, worded like its rules)
  offerTitleRequired: 'Title is required',
  offerTitleTooShort: 'Title must be at least 8 characters',
  offerTitleTooLong: 'Title must not exceed 80 characters',
  offerBriefRequired: 'Brief is required',
  offerBriefTooShort: 'Brief must be at least 32 characters',
  offerBriefTooLong: 'Brief must not exceed 2000 characters',
  offerInterestsRequired: 'Select at least one interest',
  offerPlatformsRequired: 'Select at least one platform',
  offerDeliverablesRequired: 'Deliverables are required',
  offerDeliverablesTooLong: 'Deliverables must not exceed 1000 characters',
  compensationAmountInvalid: 'Enter an amount greater than 0',
  compensationAmountTooLarge: 'Amount must not exceed 1,000,000',
  compensationCurrencyInvalid: 'Choose a currency',
  compensationProductRequired: 'Describe the product',
  compensationProductTooLong: 'Product description must not exceed 500 characters',
  creatorsWantedRange: 'Number of creators must be between 1 and 100',
  creatorsWantedBelowPlacesFilled:
    'Number of creators cannot be lower than the places already filled',
  applyByRequired: 'Apply-by date is required',
  applyByInFuture: 'Apply-by date must be in the future',
  pitchRequired: 'Pitch is required',
  pitchTooShort: 'Pitch must be at least 32 characters',
  pitchTooLong: 'Pitch must not exceed 500 characters',
  offerNotFound: 'This offer does not exist or is no longer available.',
  applicationNotFound: 'This application does not exist.',
  notABrandMember: 'Only members of this brand can manage its offers.',
  brandSuspended: 'Your brand is suspended and cannot open offers.',
  creatorSuspended: 'Your account is suspended and cannot apply to offers.',
  /** Sign-in of a suspended creator or a member of a suspended brand (docs/console.md). */
  accountSuspended: 'This account is suspended.',
  /** The public page of a suspended brand (docs/console.md). */
  brandUnavailable: 'This brand is unavailable.',
  /** The public page of a suspended creator (docs/console.md). */
  creatorUnavailable: 'This creator is unavailable.',
  suspensionReasonRequired: 'Give a reason for the suspension.',
  suspensionReasonTooLong: 'The reason must not exceed 500 characters.',
  /** Viewing contact details in the console (docs/console.md): a reason of 3–500 characters. */
  contactViewReasonRequired: 'Give a reason for viewing contact details (at least 3 characters).',
  flagsRequired: 'Set at least one flag.',
  /** The console's creator lookup (docs/console.md): 3–100 characters after trimming. */
  creatorQueryTooShort: 'Enter at least 3 characters of a username or an e-mail.',
  /** A console search over 100 characters: the creator lookup's and the audit log's. */
  searchTooLong: 'The search must not exceed 100 characters.',
  brandUsersCannotApply: 'Brand accounts cannot apply to offers.',
  onboardingRequired: 'Finish onboarding before applying to offers.',
  alreadyApplied: 'You have already applied to this offer.',
  offerNotOpen: 'This offer is not taking applications.',
  offerClosed: 'This offer is closed and cannot be changed.',
  offerFull: 'Every place on this offer is filled.',
  applicationDecided: 'This application has already been decided.',
  offerSaved: 'Offer saved!',
  offerPublished: 'Offer published!',
  offerClosedNotice: 'Offer closed.',
  applicationSent: 'Application sent!',
  applicationWithdrawn: 'Application withdrawn.',
  applicationAccepted: 'Application accepted.',
  applicationDeclined: 'Application declined.',
  // Collaborations (not in the spec, worded like its rules)
  messageRequired: 'Message is required',
  messageTooLong: 'Message must not exceed 2000 characters',
  contactDetailsNotice:
    'This message looks like it holds an e-mail address or a phone number. Raly keeps contact details private: sharing yours is your own choice. Send it anyway?',
  collaborationNotFound: 'This collaboration does not exist.',
  messageNotFound: 'This message does not exist.',
  collaborationCancelled: 'This collaboration was cancelled.',
  collaborationNotActive: 'This collaboration is no longer active.',
  onlyTheBrandCan: 'Only the brand can do this.',
  onlyTheCreatorCan: 'Only the creator can do this.',
  dueDateInvalid: 'Enter a valid date',
  deliverableTitleRequired: 'Title is required',
  deliverableTitleTooLong: 'Title must not exceed 200 characters',
  deliverablesRequired: 'Add at least one deliverable',
  deliverablesTooMany: 'A collaboration can have at most 20 deliverables',
  deliverablesLocked: 'Deliverables can no longer be changed once work has been submitted.',
  deliverableNotFound: 'This deliverable does not exist.',
  deliverableNotAwaitingWork: 'This deliverable is not waiting for work.',
  deliverableNotSubmitted: 'There is no submission to review.',
  submissionLinkRequired: 'Link is required',
  submissionNoteTooLong: 'Note must not exceed 1000 characters',
  reviewCommentRequired: 'Say what should change',
  reviewCommentTooLong: 'Comment must not exceed 1000 characters',
  noRoundsLeft: 'No rounds of changes are left: approve the work or open a dispute.',
  disputeNotYet: 'A dispute can be opened once every round of changes is used.',
  paymentRecordedOnly: 'Raly records the payment; it does not move money.',
  paymentReferenceTooLong: 'Reference must not exceed 200 characters',
  paymentNotDue: 'The payment is not due yet.',
  paymentNotMarked: 'The brand has not marked the payment as paid yet.',
  paymentAlreadyConfirmed: 'The payment is already confirmed.',
  cancelReasonRequired: 'Give a reason for cancelling',
  cancelReasonTooLong: 'Reason must not exceed 500 characters',
  reviewRatingRequired: 'Choose from 1 to 5 stars',
  partyReviewCommentTooLong: 'Review must not exceed 500 characters',
  reviewContactDetails:
    'Leave e-mail addresses and phone numbers out of a review: Raly keeps contact details private.',
  reviewNotYet: 'Reviews can be left once the collaboration is completed.',
  reviewAlreadyLeft: 'You have already reviewed this collaboration.',
  reviewSent: 'Thank you, your review is published.',
  // Notifications (not in the spec, worded like its rules)
  notificationNotFound: 'This notification does not exist.',
  notificationPreferencesInvalid:
    'Send on (true) or off (false) for the switches to change: offers, applications and collaborations each by in_app and email, the digest by email.',
  notificationPreferencesSaved: 'Notification settings saved.',
  // Brand teams (not in the spec, worded like its rules)
  invitationSent: 'Invitation sent!',
  invitationCancelledNotice: 'Invitation cancelled.',
  invitationNotFound: 'This invitation does not exist.',
  invitationInvalid: 'This invitation link is not valid. Ask your brand for a new one.',
  invitationExpired: 'This invitation has expired. Ask your brand for a new one.',
  invitationUsed: 'This invitation has already been used.',
  invitationCancelled: 'This invitation was cancelled. Ask your brand for a new one.',
  invitationEmailMismatch: 'Use the email address the invitation was sent to.',
  tooManyInvitations: 'Too many invitations sent. Try again later.',
  creatorCannotJoinBrand: 'Creator accounts cannot join a brand. Sign up with another email.',
  alreadyInABrand: 'Your account already belongs to a brand.',
  onlyAdminsCan: 'Only admins of this brand can do this.',
  notATeamMember: 'Only members of this brand can see its team.',
  memberNotFound: 'This member is not on the team.',
  lastAdmin: 'A brand needs at least one admin: make another member admin first.',
  handleRequired: 'Choose a handle first.',
  handleSaved: 'Handle saved!',
  memberRoleChanged: 'Role updated.',
  memberRemoved: 'Member removed.',
  teamLeft: 'You left the team.',
  unsubscribeLinkInvalid:
    'This unsubscribe link is not valid. Use the link in your latest e-mail from Raly.',
  // Reports (not in the spec, worded like its rules; docs/console.md "Reports")
  alreadyReported: 'You have already reported this.',
  reportReasonRequired: 'Choose a reason for the report.',
  reportNoteRequired: 'Tell us what is wrong in the note.',
  reportNoteTooLong: 'The note must not exceed 1000 characters.',
  reportAlreadyResolved: 'This report is already resolved.',
  reportNotFound: 'This report does not exist.',
  reportOutcomeRequired: 'Choose an outcome for the report.',
  reportResolutionNoteRequired: 'Explain the decision in the note.',
  cannotReportYourself: 'You cannot report yourself or your own brand.',
  reportedItemNotFound: 'We could not find what you are reporting. It may have been removed.',
  messageReportsUnavailable:
    'Messages cannot be reported yet. Report the creator or the brand who sent it instead.',
  reportThanks: 'Thanks, our team will review your report.',
  // §4 Flows
  resetLinkSent: 'Check your email for a password reset link',
  passwordUpdated: 'Password updated! Redirecting now..',
} as const;

export type MessageKey = keyof typeof messages;

/**
 * The spec's words for the failures every app's toolkit answers by itself
 * (`FailureMessages` of @raly/service-kit/errors; each app passes these at start).
 */
export const failureMessages = {
  badRequest: messages.requestProblem,
  notFound: messages.pageNotFound,
  internal: messages.genericProblem,
} as const;

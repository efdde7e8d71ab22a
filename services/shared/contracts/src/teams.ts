/**
 * Brands as teams: the team record (members by handle and role), the last
 * change it carries, invitations, and the forms and commands around them.
 * Shared by services/brand (owner of the team), identity-profile (joining),
 * the BFF and the web app. Members see one another by handle only: no name
 * and no e-mail of a member is ever in a team record.
 */
import { z } from 'zod';
import { messages } from './messages';
import { emailSchema, lookupValueSchema, usernameSchema } from './validation';

const isoDate = z.string();

/** One member of a brand's team. `handle` is null until the member chooses one (a brand's founder). */
export const teamMemberSchema = z.object({
  userId: z.string(),
  handle: z.string().nullable(),
  isAdmin: z.boolean(),
  joined: isoDate,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** What changed a team: who (by handle) did what to whom (by handle). */
export const teamChangeKinds = [
  'joined',
  'left',
  'removed',
  'promoted',
  'demoted',
  'handle-chosen',
  'invited',
  'invitation-cancelled',
] as const;
export type TeamChangeKind = (typeof teamChangeKinds)[number];

export const teamChangeSchema = z.object({
  kind: z.enum(teamChangeKinds),
  /** The member the change is about (joined, left, removed, promoted, demoted, handle-chosen). */
  userId: z.string().nullable(),
  /** That member's handle. */
  handle: z.string().nullable(),
  /** The handle of the member who made the change (an admin, or the member themself). */
  byHandle: z.string().nullable(),
});
export type TeamChange = z.infer<typeof teamChangeSchema>;

/**
 * A brand's team (`brand.team.v1` snapshot, live `team.updated`): its
 * members, oldest first, the number of pending invitations (their e-mails
 * are for admins only, read through the invitations list) and the change
 * that made this version. `id` is the brand's id.
 */
export const teamRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  members: z.array(teamMemberSchema),
  pendingInvitations: z.number().int().nonnegative(),
  lastChange: teamChangeSchema.nullable(),
});
export type TeamRecord = z.infer<typeof teamRecordSchema>;

/** A pending invitation as admins list it. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  expiresAt: isoDate,
  created: isoDate,
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The team page's invite form. */
export const inviteFormSchema = z.object({ email: emailSchema });
export type InviteForm = z.infer<typeof inviteFormSchema>;

/** A member's own handle (same rules as usernames, spec §5). */
export const handleFormSchema = z.object({ handle: usernameSchema });
export type HandleForm = z.infer<typeof handleFormSchema>;

/** An admin makes a member admin or not. */
export const memberRoleSchema = z.object({ isAdmin: z.boolean() }).strict();
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** The token an invitation link carries. */
export const invitationTokenSchema = lookupValueSchema.min(1, messages.invitationInvalid);

/** `POST /api/invitations/preview`: what the landing page shows of an invitation. */
export const invitationPreviewRequestSchema = z.object({ token: invitationTokenSchema });

/** The invitation's brand (public fields) and the invited e-mail, for its landing page. */
export const invitationPreviewSchema = z.object({
  brandId: z.string(),
  company: z.string(),
  brandUsername: z.string(),
  email: z.string(),
  expiresAt: isoDate,
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** An existing brand-side user without a brand joins through a link (`POST /api/me/team`). */
export const joinTeamSchema = z.object({ token: invitationTokenSchema, handle: usernameSchema });
export type JoinTeamForm = z.infer<typeof joinTeamSchema>;

/**
 * `POST /invitations/accept` on services/brand (identity-profile only): spend
 * the invitation for `userId`, whose e-mail must be the invited one, who
 * joins with `handle`.
 */
export const acceptInvitationCommandSchema = z.object({
  token: invitationTokenSchema,
  userId: lookupValueSchema.min(1),
  email: emailSchema,
  handle: usernameSchema,
});
export type AcceptInvitationCommand = z.infer<typeof acceptInvitationCommandSchema>;

/**
 * `POST /brand-memberships/sync` on identity-profile (BFF only): the user
 * record's brand follows services/brand's membership of `userId` in `brandId`.
 */
export const membershipSyncSchema = z.object({
  userId: lookupValueSchema.min(1),
  brandId: lookupValueSchema.min(1),
});
export type MembershipSync = z.infer<typeof membershipSyncSchema>;

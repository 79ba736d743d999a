import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { isSafeImageUrl } from './product.ts';
import { meVerificationSchema } from './business.ts';

const passwordRule = /^(?=.*[a-z])(?=.*[A-Z]).{6,}$/;

/** A password being chosen (sign-up, reset, change): the same rule everywhere. */
const newPasswordSchema = z
  .string({ error: MESSAGES.weakPassword })
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`)
  .regex(passwordRule, MESSAGES.weakPassword);

const emailSchema = z.email('Enter a valid email address').max(254);

/**
 * Sign-up body, shaped as better-auth's POST /api/auth/sign-up/email takes it (`image` is the photo
 * URL). The server runs the same schema in front of better-auth, so the API and the form agree.
 */
export const signUpInputSchema = z.object({
  name: z
    .string({ error: MESSAGES.nameTooShort })
    .trim()
    .min(5, MESSAGES.nameTooShort)
    .max(LIMITS.userNameMax, `Name must be at most ${LIMITS.userNameMax} characters`),
  email: emailSchema,
  password: newPasswordSchema,
  image: z
    .string()
    .trim()
    .max(LIMITS.imageUrlMax)
    .refine((v) => v === '' || (isSafeImageUrl(v) && v.startsWith('https://')), 'Photo URL must be an https URL')
    .optional(),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const signInInputSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(LIMITS.passwordMax),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** The signed-in user, as the original app's User entity named the fields. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  /** Whether the account proved it holds its e-mail address (docs/decisions/015-account-trust.md). */
  emailVerified: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

/** GET /api/me: who is signed in (`user` is null when nobody is; that is not an error for the app). */
export const meResponseSchema = z.object({
  user: meSchema.nullable(),
  googleEnabled: z.boolean(),
  /** The demo buyer, for pre-filling the sign-in form; only in demo mode (docs/product/screens.md). */
  demoLogin: z.object({ email: z.string(), password: z.string() }).optional(),
  /** How the signed-in user is priced (status `none` when signed out); docs/decisions/014. */
  verification: meVerificationSchema,
  /** Whether the signed-in user is an operator (reviews verifications). */
  operator: z.boolean(),
  /** Whether the signed-in user has products or sales: the navbar then links the dashboard (decision 019). */
  seller: z.boolean(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** Where a mailed link may send the browser back to: a path on this site, never another origin. */
const sitePathSchema = z
  .string()
  .max(200)
  .regex(/^\/(?![/\\])[\x21-\x7e]*$/, 'Must be a path on this site');

/** POST /api/auth/request-password-reset (better-auth's body). */
export const requestPasswordResetInputSchema = z.object({ email: emailSchema, redirectTo: sitePathSchema.optional() });
export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetInputSchema>;

/** POST /api/auth/reset-password: the token is the one in the mailed link. */
export const resetPasswordInputSchema = z.object({
  newPassword: newPasswordSchema,
  token: z.string().min(1, 'The reset link is incomplete').max(200),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

/** The reset form: the new password typed twice. */
export const resetPasswordFormSchema = z
  .object({ newPassword: newPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The two passwords differ' });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** POST /api/auth/change-password: other sessions are always signed out. */
export const changePasswordInputSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(LIMITS.passwordMax),
  newPassword: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** POST /api/auth/change-email: confirmed by a link sent to the new address. */
export const changeEmailInputSchema = z.object({ newEmail: emailSchema, callbackURL: sitePathSchema.optional() });
export type ChangeEmailInput = z.infer<typeof changeEmailInputSchema>;

/** POST /api/auth/send-verification-email: resend the link to the signed-in account's own address. */
export const sendVerificationInputSchema = z.object({ email: emailSchema.optional(), callbackURL: sitePathSchema.optional() });

/** One signed-in device of GET /api/me/sessions (never its token). */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** A readable name of the browser and system ("Chrome on Windows"), or "Unknown device". */
  device: z.string(),
  /** Where it signed in from: the IP address as seen by the server, or null when unknown. */
  place: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessionsResponse = z.infer<typeof accountSessionsResponseSchema>;

/** DELETE /api/me: the password confirms it is the owner, not a borrowed session (Google-only accounts have none). */
export const deleteAccountInputSchema = z.object({ password: z.string().max(LIMITS.passwordMax).optional() });
export type DeleteAccountInput = z.infer<typeof deleteAccountInputSchema>;

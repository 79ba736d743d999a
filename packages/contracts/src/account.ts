import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { isSafeImageUrl } from './product.ts';
import { meVerificationSchema } from './business.ts';

const passwordRule = /^(?=.*[a-z])(?=.*[A-Z]).{6,}$/;

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
  email: z.email('Enter a valid email address').max(254),
  password: z
    .string({ error: MESSAGES.weakPassword })
    .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`)
    .regex(passwordRule, MESSAGES.weakPassword),
  image: z
    .string()
    .trim()
    .max(LIMITS.imageUrlMax)
    .refine((v) => v === '' || (isSafeImageUrl(v) && v.startsWith('https://')), 'Photo URL must be an https URL')
    .optional(),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const signInInputSchema = z.object({
  email: z.email('Enter a valid email address').max(254),
  password: z.string().min(1, 'Password is required').max(LIMITS.passwordMax),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** The signed-in user, as the original app's User entity named the fields. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
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
});
export type MeResponse = z.infer<typeof meResponseSchema>;

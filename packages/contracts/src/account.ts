import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { isSafeImageUrl } from './product.ts';

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

/** GET /api/me: the spec's User entity. */
export interface Me {
  id: string;
  email: string;
  displayName: string;
  photoURL: string | null;
}

import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { user as userTable } from '../../db/schema/auth.ts';
import { DEMO_OPERATOR } from '../../db/seed/demo-accounts.ts';

/** The addresses of operators: ADMIN_EMAILS, and in demo mode the seeded demo operator. */
export function isOperatorAddress(config: Config, email: string | null | undefined): boolean {
  if (!email) return false;
  const normalised = email.trim().toLowerCase();
  if (config.adminEmails.includes(normalised)) return true;
  return config.seedDemo && normalised === DEMO_OPERATOR.email;
}

/**
 * An operator is an account at an operator's address that proved it holds the mailbox and that its
 * credentials were chosen through it (a reset link, or a provider vouching for the address): typing
 * the address at sign-up, or a stranger's account whose confirmation link the owner clicked, gives
 * nothing (docs/decisions/015-account-trust.md). Only operator addresses cost a lookup.
 */
export async function isOperator(db: Db, config: Config, user: { id: string; email: string; emailVerified: boolean } | null): Promise<boolean> {
  if (!user || !user.emailVerified || !isOperatorAddress(config, user.email)) return false;
  const [row] = await db.select({ provenAt: userTable.ownerProvenAt }).from(userTable).where(eq(userTable.id, user.id));
  return Boolean(row?.provenAt);
}

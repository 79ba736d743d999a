import type { Config } from '../../config.ts';
import { DEMO_OPERATOR } from '../../db/seed/demo-accounts.ts';

/** Operators are named by ADMIN_EMAILS; in demo mode the seeded demo operator is one too. */
export function isOperator(config: Config, email: string | null | undefined): boolean {
  if (!email) return false;
  const normalised = email.trim().toLowerCase();
  if (config.adminEmails.includes(normalised)) return true;
  return config.seedDemo && normalised === DEMO_OPERATOR.email;
}

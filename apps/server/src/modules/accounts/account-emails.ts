import { paths } from '@bulkcart/contracts/routes';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/notifications.ts';

/**
 * The e-mails of an account's own life: confirm the address, reset the password, confirm a new
 * address and tell the old one. They go through the outbox like every e-mail (sent once, retried while
 * the mail server is down); those with a link are marked `carriesSecret`, so the deliverer deletes
 * them once sent instead of keeping their link (docs/decisions/015-account-trust.md).
 */
interface AccountEmail {
  to: string;
  subject: string;
  body: string;
  carriesSecret: boolean;
}

async function queue(db: Db, email: AccountEmail): Promise<void> {
  await db.insert(emailOutbox).values({ toEmail: email.to, subject: email.subject, body: email.body, carriesSecret: email.carriesSecret });
}

const SIGN_OFF = '\n\nBulkCart';

/** How long a reset link works; the reset token's lifetime in auth.ts reads it too. */
export const RESET_LINK_SECONDS = 60 * 60;
/** How long an e-mail confirmation link works. */
export const VERIFY_LINK_SECONDS = 24 * 60 * 60;

/** The page the reset link opens; it posts the token with the new password to /api/auth/reset-password. */
export function resetLink(config: Config, token: string): string {
  return `${config.baseUrl}${paths.resetPassword}?token=${encodeURIComponent(token)}`;
}

export function queueVerificationEmail(db: Db, to: string, name: string, url: string): Promise<void> {
  return queue(db, {
    to,
    subject: 'Confirm your e-mail for BulkCart',
    body: `Hello ${name},\n\nPlease confirm that ${to} is your e-mail address by opening this link within 24 hours:\n\n${url}\n\nIf you did not create a BulkCart account, ignore this e-mail: nothing happens until the link is opened.${SIGN_OFF}`,
    carriesSecret: true,
  });
}

/**
 * An operator's address proves itself by choosing the password through the mailbox (a reset link),
 * never by a confirmation click: the account may hold a password a stranger chose.
 */
export function queueOperatorProofEmail(db: Db, config: Config, to: string, token: string): Promise<void> {
  return queue(db, {
    to,
    subject: 'Set your BulkCart operator password',
    body: `Hello,\n\nAn account with the operator address ${to} asked to be confirmed. Operators confirm their address by choosing their password through this link, valid for one hour; every session of the account is signed out when you do:\n\n${resetLink(config, token)}\n\nIf you did not expect this, choose a password anyway: that keeps the address yours.${SIGN_OFF}`,
    carriesSecret: true,
  });
}

export function queueResetEmail(db: Db, config: Config, to: string, token: string): Promise<void> {
  return queue(db, {
    to,
    subject: 'Reset your BulkCart password',
    body: `Hello,\n\nSomeone asked to reset the password of the BulkCart account for ${to}. Choose a new password through this link within one hour; it works once, and every session of the account is signed out:\n\n${resetLink(config, token)}\n\nIf this was not you, ignore this e-mail: your password stays as it is.${SIGN_OFF}`,
    carriesSecret: true,
  });
}

export function queueChangeEmailConfirmation(db: Db, to: string, url: string): Promise<void> {
  return queue(db, {
    to,
    subject: 'Confirm your new e-mail for BulkCart',
    body: `Hello,\n\nA BulkCart account asked to use ${to} as its e-mail address. Open this link within 24 hours to confirm it; until then the account keeps its old address:\n\n${url}\n\nIf this was not you, ignore this e-mail.${SIGN_OFF}`,
    carriesSecret: true,
  });
}

export function queueChangeEmailNotice(db: Db, oldAddress: string, newAddress: string): Promise<void> {
  return queue(db, {
    to: oldAddress,
    subject: 'Your BulkCart e-mail is being changed',
    body: `Hello,\n\nYour BulkCart account asked to change its e-mail from ${oldAddress} to ${newAddress}. The change takes effect once the new address is confirmed.\n\nIf this was not you, reset your password now from the sign-in page: that signs out every session.${SIGN_OFF}`,
    carriesSecret: false,
  });
}

/** Sent in place of a confirmation when the new address belongs to an operator: no link, no takeover. */
export function queueOperatorAddressRefusal(db: Db, to: string): Promise<void> {
  return queue(db, {
    to,
    subject: 'An account tried to move to your BulkCart address',
    body: `Hello,\n\nAn existing BulkCart account asked to change its e-mail to ${to}, an operator address. Operator addresses cannot be moved onto another account, so nothing changed.${SIGN_OFF}`,
    carriesSecret: false,
  });
}

import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './mail-deliverer.ts';

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  receivedAt: string;
}

/** What the developer's mailbox keeps: the newest messages, in this process's memory only. */
const KEPT_MESSAGES = 100;

export interface LocalMailbox extends MailTransport {
  /** The newest first. */
  messages(): MailboxMessage[];
}

/**
 * Where e-mail goes when no SMTP_URL is set, so a verification or reset e-mail is never silently
 * dropped. In demo mode the messages are kept in memory for /dev/mailbox; otherwise each delivery is
 * logged as a warning naming recipient and subject, never the body: its link is a secret.
 */
export function createLocalMailbox(options: { keep: boolean; log: FastifyBaseLogger }): LocalMailbox {
  const kept: MailboxMessage[] = [];
  return {
    async sendMail(message) {
      if (!options.keep) {
        options.log.warn(
          { to: message.to, subject: message.subject },
          'e-mail not sent: SMTP_URL is not set (the message stays unread; see docs/decisions/015-account-trust.md)',
        );
        return;
      }
      kept.unshift({ id: message.messageId, to: message.to, subject: message.subject, text: message.text, receivedAt: new Date().toISOString() });
      kept.length = Math.min(kept.length, KEPT_MESSAGES);
    },
    messages: () => [...kept],
  };
}

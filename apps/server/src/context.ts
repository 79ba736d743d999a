import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Auth } from './modules/accounts/auth.ts';
import type { LocalMailbox } from './modules/notifications/local-mailbox.ts';
import type { ReadRouting } from './plugins/read-routing.ts';
import type { AnswerCache } from './lib/answer-cache.ts';

/** What every route module is handed: settings, the database and the account service. */
export interface AppContext {
  config: Config;
  database: Database;
  /** The primary: every write, and every read that decides something. */
  db: Db;
  /** The lag-tolerant reads: on the read replica when there is one (plugins/read-routing.ts). */
  reads: ReadRouting;
  /** The public catalog answers kept for CATALOG_CACHE_MS; every write in this process forgets them (lib/answer-cache.ts). */
  catalogAnswers: AnswerCache;
  auth: Auth;
  /** The time rules read (ship-by, late, the 3-business-day sweep); tests move it instead of waiting days. */
  clock: () => Date;
  /** Where e-mail goes when SMTP_URL is unset (the developer's mailbox at /dev/mailbox in demo mode). */
  mailbox: LocalMailbox;
}

import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Auth } from './modules/accounts/auth.ts';

/** What every route module is handed: settings, the database and the account service. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  auth: Auth;
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { currentPrimaryLsn, formatLsn, openReplica, parseLsn, type Replica, type ReplicaHealth } from '../db/replica.ts';
import { isDatabaseUnavailable } from '../lib/error-causes.ts';
import { AppError } from '../lib/app-error.ts';
import { createRepeatLimiter } from '../lib/repeat-limiter.ts';
import { isApiPath, pathOf } from './canonical-path.ts';

/**
 * Where the lag-tolerant reads go (docs/decisions/020-processes-pooler-replicas.md): product lists and
 * pages, search and suggest, the seller dashboard and the exports read the replica (DATABASE_READ_URL)
 * when one is set, answers and is within its lag bound; everything else, and everything that decides or
 * writes, uses the primary.
 *
 * Read your writes: a successful write answers with a signed cookie holding the primary's log position
 * after it. While the replica has not replayed that far, the browser's reads go to the primary, whichever
 * web process serves them (the cookie travels with the browser, no process keeps it). The cookie lasts
 * READ_AFTER_WRITE_S; with a replica whose replay position cannot be read (not a streaming standby), the
 * writer's reads stay on the primary that long.
 */
export const READ_AFTER_COOKIE = 'bulkcart_read_after';
export const READ_AFTER_WRITE_S = 60;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ReadRouting {
  /** The database a lag-tolerant read of this request uses now. */
  dbFor(request: FastifyRequest): Db;
  /**
   * Runs a lag-tolerant read (`read` must only read: it may run twice). A replica that fails it as
   * unavailable is set aside and the read runs on the primary: the user never sees the replica's outage.
   */
  read<T>(request: FastifyRequest, read: (db: Db) => Promise<T>): Promise<T>;
  /** The replica's state for /api/health; null when none is configured. */
  replicaHealth(): ReplicaHealth | null;
}

/** Every read on the primary: no replica configured, or a process that serves no reads (a worker). */
export function primaryOnly(database: Database): ReadRouting {
  return { dbFor: () => database.db, read: (_request, read) => read(database.db), replicaHealth: () => null };
}

function sign(secret: string, lsn: string): string {
  return createHmac('sha256', secret).update(`${READ_AFTER_COOKIE}:${lsn}`).digest('base64url');
}

/** The write position a request's cookie carries, when it is there and signed by us. */
function writePositionOf(request: FastifyRequest, secret: string): bigint | null {
  const header = request.headers.cookie;
  if (!header || !header.includes(READ_AFTER_COOKIE)) return null;
  const value = header
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${READ_AFTER_COOKIE}=`))
    ?.slice(READ_AFTER_COOKIE.length + 1);
  const match = value && /^([0-9A-F]{1,8}\/[0-9A-F]{1,8})\.([\w-]{43})$/.exec(value);
  if (!match) return null;
  const expected = Buffer.from(sign(secret, match[1]!));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? parseLsn(match[1]!) : null;
}

function appendSetCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}

/**
 * Opens the replica when DATABASE_READ_URL is set and marks every successful write's answer with the
 * position reads must wait for. The replica closes with the app.
 */
export async function registerReadRouting(app: FastifyInstance, config: Config, database: Database): Promise<ReadRouting> {
  const readUrl = config.database.kind === 'postgres' ? config.database.readUrl : null;
  if (!readUrl || config.database.kind !== 'postgres') return primaryOnly(database);
  const replica: Replica = await openReplica({
    url: readUrl,
    primary: database.db,
    maxLagMs: config.database.readMaxLagMs,
    poolSize: config.database.poolSize,
    poolIdleMs: config.database.poolIdleMs,
    log: app.log,
  });
  app.addHook('onClose', async () => {
    await replica.close();
  });
  const secret = config.authSecret;
  const secure = config.baseUrl.startsWith('https://');
  // A replica going away fails every read in flight at once: one line per window says so.
  const decideFailureLine = createRepeatLimiter();

  app.addHook('onSend', async (request, reply, payload) => {
    if (!WRITE_METHODS.has(request.method) || reply.statusCode >= 400 || !isApiPath(pathOf(request))) return payload;
    try {
      const lsn = formatLsn(await currentPrimaryLsn(database.db));
      const attributes = `Path=/; Max-Age=${READ_AFTER_WRITE_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
      appendSetCookie(reply, `${READ_AFTER_COOKIE}=${lsn}.${sign(secret, lsn)}; ${attributes}`);
    } catch (error) {
      // The write is done; without the mark this user may read the replica's older copy for a moment.
      request.log.warn({ err: error }, 'could not mark the write for read-your-writes');
    }
    return payload;
  });

  const dbFor = (request: FastifyRequest): Db => {
    if (!replica.isUsable()) return database.db;
    const wrote = writePositionOf(request, secret);
    return wrote === null || replica.hasReplayed(wrote) ? replica.db : database.db;
  };
  return {
    dbFor,
    async read(request, read) {
      const db = dbFor(request);
      if (db === database.db) return read(db);
      try {
        return await read(db);
      } catch (error) {
        // A rule's answer (not found, forbidden) is the answer. Anything else the replica did (gone,
        // restarting, a query cancelled by a conflict with replay) is read again on the primary: a
        // read may run twice, and a fault of our own fails there too.
        if (error instanceof AppError) throw error;
        if (isDatabaseUnavailable(error)) replica.markDown(error);
        const { write, suppressed } = decideFailureLine('replica read failed');
        const err = { message: (error as Error).message, code: (error as { code?: string }).code };
        if (write)
          request.log.warn({ err, ...(suppressed > 0 ? { suppressedSinceLast: suppressed } : {}) }, 'read replica failed a read: read again on the primary');
        return read(database.db);
      }
    },
    replicaHealth: () => replica.health(),
  };
}

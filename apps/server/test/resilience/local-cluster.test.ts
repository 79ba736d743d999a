import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { validProductBody } from '../helpers/products.ts';
import { startSmtp, type LocalSmtp } from '../helpers/smtp.ts';
import { bearer, send, signUp, type Account, type HttpAnswer } from './support/http-client.ts';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../../scripts/local-cluster.sh', import.meta.url));
/** The replica's lag bound in this cluster: a read within it after a write still meets the replica. */
const MAX_LAG_MS = 4_000;
const LEASE_MS = 3_000;
/** Every wait below polls for a state; this only bounds a wait that never ends. */
const WAIT = { timeout: 30_000, interval: 100 };

/**
 * The whole path past one machine, on this one (docs/deploy.md): a primary, a streaming replica,
 * PgBouncer in transaction pooling, two web processes and a worker, started by scripts/local-cluster.sh.
 */
describe('a local cluster: primary, streaming replica, PgBouncer, two web processes and a worker', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-cluster-'));
  let cluster: Record<string, string> = {};
  let mail: LocalSmtp;
  /** The Message-IDs the mail server accepted, in order. */
  const accepted = () => mail.received.map((message) => message.messageId);
  let primary: pg.Client;
  let webs: string[] = [];
  let seller: Account;
  let buyers: Account[] = [];
  const productIds: string[] = [];
  const initialStock = new Map<string, number>();
  const confirmed: Array<{ id: string; productId: string; quantity: number }> = [];
  // Built from scratch (PATH only), as an operator's shell would give it: nothing of the test runner leaks in.
  const scriptEnv = () => ({
    PATH: process.env.PATH ?? '',
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    MAIL_INTERVAL_MS: '200',
    ORDER_SWEEP_INTERVAL_MS: '1000',
    JOB_LEASE_MS: String(LEASE_MS),
    READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    PASSWORD_HASH: 'test-sha256',
    RATE_LIMIT: 'false',
    LOG_LEVEL: 'info',
  });
  const cli = (...args: string[]) => run('bash', [script, ...args], { env: scriptEnv(), maxBuffer: 10_000_000 });
  const pidOf = (name: string) => Number(readFileSync(path.join(dir, 'pids', `${name}.pid`), 'utf8').trim());
  const logOf = (name: string) => readFileSync(path.join(dir, 'logs', `${name}.log`), 'utf8');
  const onReplica = async (query: string) => {
    const client = new pg.Client({ connectionString: cluster.DATABASE_READ_URL });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  const replicaState = async (web: string) =>
    (await send(web, { method: 'GET', path: '/api/health' })).json<{ databases: { replica: { state: string } } }>().databases.replica.state;
  const productName = async (web: string, id: string, headers: Record<string, string> = {}) => {
    const answer = await send(web, { method: 'GET', path: `/api/product/${id}`, headers });
    expect(answer.status, answer.body).toBe(200);
    return answer.json<{ name: string }>().name;
  };

  /** The seller saves a product under a new name, through the first web process. */
  const rename = async (productId: string, name: string) => {
    const saved = await send(webs[0]!, {
      method: 'PUT',
      path: `/api/updateproduct/${productId}`,
      headers: { origin: webs[0]!, ...bearer(seller.token) },
      body: validProductBody({ name, mainquantity: 25, minquantity: 1, discount: 0 }),
    });
    expect(saved.status, saved.body).toBe(200);
    return saved;
  };

  beforeAll(async () => {
    mail = await startSmtp();
    await cli('start', dir);
    cluster = Object.fromEntries(
      readFileSync(path.join(dir, 'cluster.env'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    webs = [cluster.WEB_1_URL!, cluster.WEB_2_URL!];
    primary = new pg.Client({ connectionString: cluster.DATABASE_MIGRATION_URL });
    await primary.connect();
    seller = await signUp(webs[0]!, 'Cluster Seller', `cluster-seller-${Date.now()}@example.com`);
    buyers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => signUp(webs[i % 2]!, `Cluster Buyer ${i}`, `cluster-buyer-${i}-${Date.now()}@example.com`)),
    );
    for (let i = 0; i < 4; i += 1) {
      const added = await send(webs[i % 2]!, {
        method: 'POST',
        path: '/api/addproduct',
        headers: { origin: webs[i % 2]!, ...bearer(seller.token) },
        body: validProductBody({ name: `Cluster Crate ${i}`, mainquantity: 25, minquantity: 1, discount: 0 }),
      });
      expect(added.status, added.body).toBe(201);
      productIds.push(added.json<{ _id: string }>()._id);
      initialStock.set(productIds[i]!, 25);
    }
    // Buyers read the replica: the load starts once it has the catalog.
    for (const web of webs) {
      for (const id of productIds)
        await vi.waitFor(async () => expect((await send(web, { method: 'GET', path: `/api/product/${id}` })).status).toBe(200), WAIT);
    }
  }, 180_000);

  afterAll(async () => {
    await primary?.end();
    await cli('stop', dir);
    await mail?.close();
  }, 60_000);

  it('takes orders from many buyers through PgBouncer with none oversold, while reads go on and the replica is stopped mid-load', async () => {
    const failures: string[] = [];
    const note = (what: string, answer: HttpAnswer | Error) => {
      if (answer instanceof Error) failures.push(`${what}: ${answer.message}`);
      else if (answer.status >= 500) failures.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`);
    };
    let ordering = true;
    let replicaGone = false;
    let readsWithoutReplica = 0;
    const readers = Array.from({ length: 4 }, async (_, r) => {
      let reads = 0;
      // Each reader goes on until the orders are done and it has read 10 times with the replica gone.
      for (let i = 0, after = 0; ordering || after < 10; i += 1) {
        const web = webs[(r + i) % 2]!;
        const paths = ['/api/allproduct?limit=20', `/api/product/${productIds[i % 4]}`, '/api/search?q=crate', '/api/search/suggest?q=cra'];
        const path = paths[i % paths.length]!;
        const answer = await send(web, { method: 'GET', path }).catch((error: Error) => error);
        note(`GET ${web}${path}`, answer);
        if (!(answer instanceof Error) && answer.status !== 200) failures.push(`GET ${path}: ${answer.status}`);
        reads += 1;
        if (replicaGone) {
          after += 1;
          readsWithoutReplica += 1;
        }
      }
      return reads;
    });
    const ORDERS = 160;
    let placed = 0;
    let replicaStopped: Promise<unknown> | null = null;
    const orderers = Array.from({ length: 12 }, async (_, w) => {
      for (let i = w; i < ORDERS; i += 12) {
        const buyer = buyers[i % buyers.length]!;
        const productId = productIds[i % 4]!;
        const quantity = 1 + (i % 2);
        const web = webs[i % 2]!;
        const answer = await send(web, {
          method: 'POST',
          path: '/api/order',
          headers: { origin: web, ...bearer(buyer.token) },
          body: { productId, quantity },
        }).catch((error: Error) => error);
        note(`POST /api/order on ${web}`, answer);
        if (!(answer instanceof Error)) {
          if (answer.status === 201) confirmed.push({ id: answer.json<{ _id: string }>()._id, productId, quantity });
          else if (answer.status !== 409) failures.push(`order: ${answer.status} ${answer.body.slice(0, 200)}`);
        }
        placed += 1;
        // A third of the way in, the replica goes away under the load.
        if (placed === Math.floor(ORDERS / 3)) replicaStopped = cli('replica-stop', dir).then(() => (replicaGone = true));
      }
    });
    await Promise.all(orderers);
    await replicaStopped;
    // Reads go on a little after the replica is gone, then stop.
    ordering = false;
    const reads = (await Promise.all(readers)).reduce((a, b) => a + b, 0);
    try {
      expect(failures).toEqual([]);
      expect(reads).toBeGreaterThan(40);
      expect(readsWithoutReplica).toBeGreaterThanOrEqual(40);

      // Demand (about 240) was above supply (100): every unit sold once, none twice, none below zero.
      const { rows } = await primary.query<{ id: string; mainquantity: number }>('SELECT id, mainquantity FROM products WHERE id = ANY($1)', [productIds]);
      for (const row of rows) {
        const sold = confirmed.filter((order) => order.productId === row.id).reduce((sum, order) => sum + order.quantity, 0);
        expect(sold).toBeLessThanOrEqual(initialStock.get(row.id)!);
        expect(row.mainquantity).toBe(initialStock.get(row.id)! - sold);
      }
      expect(confirmed.length).toBeGreaterThan(40);
      // Every web process set the replica aside and said so in its log.
      for (const web of webs) expect(await replicaState(web)).toBe('down');
      for (const name of ['web-1', 'web-2']) expect(logOf(name)).toMatch(/read replica (not answering|failed a read)/);
    } finally {
      await cli('replica-start', dir);
    }
    for (const web of webs) await vi.waitFor(async () => expect(await replicaState(web)).toBe('ok'), WAIT);
  }, 120_000);

  it('shows a seller the product they saved at once, and other buyers after the replica catches up', async () => {
    const productId = productIds[0]!;
    const before = await productName(webs[0]!, productId);
    // The replica stops replaying: whatever is written now, it does not have yet.
    await onReplica('SELECT pg_wal_replay_pause()');
    try {
      const saved = await rename(productId, 'Cluster Crate, renamed');
      const mark = String(([] as string[]).concat(saved.headers['set-cookie'] ?? []).find((c) => c.startsWith('bulkcart_read_after='))).split(';')[0]!;
      // Read back at once, on the other web process: the seller's mark sends the read to the primary.
      expect(await productName(webs[1]!, productId, { ...bearer(seller.token), cookie: mark })).toBe('Cluster Crate, renamed');
      // Another buyer, a moment later (within the lag bound), still reads the replica's copy.
      expect(await productName(webs[1]!, productId, bearer(buyers[0]!.token))).toBe(before);
    } finally {
      await onReplica('SELECT pg_wal_replay_resume()');
    }
    await vi.waitFor(async () => expect(await productName(webs[1]!, productId, bearer(buyers[0]!.token))).toBe('Cluster Crate, renamed'), WAIT);
  }, 60_000);

  it('sends reads to the primary, with a log line, while the replica lags past its bound', async () => {
    const productId = productIds[1]!;
    await onReplica('SELECT pg_wal_replay_pause()');
    try {
      await rename(productId, 'Cluster Crate, lagging');
      await vi.waitFor(async () => expect(await replicaState(webs[1]!)).toBe('lagging'), WAIT);
      // A buyer with no mark of their own now reads the primary: the new name, though the replica lacks it.
      expect(await productName(webs[1]!, productId, bearer(buyers[1]!.token))).toBe('Cluster Crate, lagging');
      expect(logOf('web-2')).toMatch(/read replica lags beyond its bound/);
    } finally {
      await onReplica('SELECT pg_wal_replay_resume()');
    }
    await vi.waitFor(async () => expect(await replicaState(webs[1]!)).toBe('ok'), WAIT);
  }, 60_000);

  it('runs the order sweep and the e-mail outbox in the worker alone, each once', async () => {
    const worker = `:${pidOf('worker-1')}:`;
    // Five orders placed long ago and never accepted: the sweep cancels each once and restocks it once.
    const stale = confirmed.slice(0, 5);
    const stockBefore = await primary.query<{ id: string; mainquantity: number }>('SELECT id, mainquantity FROM products WHERE id = ANY($1)', [productIds]);
    await primary.query(`UPDATE orders SET created_at = now() - interval '10 days' WHERE id = ANY($1)`, [stale.map((o) => o.id)]);
    await vi.waitFor(async () => {
      const { rows } = await primary.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND status = 'cancelled'`, [
        stale.map((o) => o.id),
      ]);
      expect(rows[0]?.n).toBe(5);
    }, WAIT);
    const events = await primary.query<{ order_id: string; n: number }>(
      `SELECT order_id, count(*)::int AS n FROM order_events WHERE order_id = ANY($1) AND to_status = 'cancelled' GROUP BY order_id`,
      [stale.map((o) => o.id)],
    );
    expect(events.rows.map((row) => row.n)).toEqual([1, 1, 1, 1, 1]);
    const stockAfter = await primary.query<{ id: string; mainquantity: number }>('SELECT id, mainquantity FROM products WHERE id = ANY($1)', [productIds]);
    for (const row of stockAfter.rows) {
      const restocked = stale.filter((o) => o.productId === row.id).reduce((sum, o) => sum + o.quantity, 0);
      expect(row.mainquantity).toBe(stockBefore.rows.find((r) => r.id === row.id)!.mainquantity + restocked);
    }

    // Every e-mail of the run leaves the outbox, once each, sent by the worker.
    await vi.waitFor(async () => {
      const { rows } = await primary.query<{ n: number }>('SELECT count(*)::int AS n FROM email_outbox WHERE sent_at IS NULL');
      expect(rows[0]?.n).toBe(0);
    }, WAIT);
    expect(accepted().length).toBeGreaterThan(confirmed.length);
    expect(new Set(accepted()).size).toBe(accepted().length);
    const senders = await primary.query<{ claimed_by: string | null }>('SELECT DISTINCT claimed_by FROM email_outbox');
    expect(senders.rows.map((row) => row.claimed_by?.includes(worker))).toEqual([true]);
    // The periodic tasks too: the two web processes, up all along, never ran one.
    const tasks = await primary.query<{ name: string; claimed_by: string; runs: number }>('SELECT name, claimed_by, runs FROM background_tasks ORDER BY name');
    expect(tasks.rows.map((row) => row.name)).toEqual([
      'catalog import rows sweep',
      'order sweep',
      'permit expiry sweep',
      'rate limit counter sweep',
      'sent email pruning',
    ]);
    for (const row of tasks.rows) expect(row.claimed_by, row.name).toContain(worker);
  }, 60_000);

  it('finishes the job of a worker killed with SIGKILL mid-job in another worker, once', async () => {
    const first = pidOf('worker-1');
    mail.hold();
    const before = mail.received.length;
    // A new order's e-mail to the seller: the worker takes it and the mail server stalls mid-send.
    const web = webs[0]!;
    const ordered = await send(web, {
      method: 'POST',
      path: '/api/order',
      headers: { origin: web, ...bearer(buyers[2]!.token) },
      body: { productId: productIds[3]!, quantity: 1 },
    });
    expect([201, 409]).toContain(ordered.status);
    if (ordered.status === 409) {
      // Sold out: any other write that e-mails the seller would do; restock and order again.
      await primary.query('UPDATE products SET mainquantity = 10 WHERE id = $1', [productIds[3]]);
      const again = await send(web, {
        method: 'POST',
        path: '/api/order',
        headers: { origin: web, ...bearer(buyers[2]!.token) },
        body: { productId: productIds[3]!, quantity: 1 },
      });
      expect(again.status, again.body).toBe(201);
    }
    await vi.waitFor(() => expect(mail.held).toHaveLength(1), WAIT);
    const heldId = mail.held[0]!.messageId!;
    const row = await primary.query<{ claimed_by: string; sent: boolean }>(
      `SELECT claimed_by, sent_at IS NOT NULL AS sent FROM email_outbox WHERE '<' || id || '@bulkcart>' = $1`,
      [heldId],
    );
    expect(row.rows[0]).toMatchObject({ claimed_by: expect.stringContaining(`:${first}:`), sent: false });

    await cli('kill', dir, 'worker-1', 'KILL');
    // The dead worker renews nothing more: its claim runs until then.
    const lapse = await primary.query<{ until: number }>(
      `SELECT extract(epoch FROM claimed_until) * 1000 AS until FROM email_outbox WHERE '<' || id || '@bulkcart>' = $1`,
      [heldId],
    );
    const claimUntil = Number(lapse.rows[0]!.until);
    await cli('app', dir, 'worker-2', 'worker');
    const second = pidOf('worker-2');
    await vi.waitFor(() => expect(accepted().slice(before)).toContain(heldId), WAIT);
    // Taken over only once the dead worker's claim had lapsed.
    expect(mail.received.find((message) => message.messageId === heldId)!.at).toBeGreaterThanOrEqual(claimUntil);
    // The mail server has it; the worker marks it sent once the server's answer reaches it.
    await vi.waitFor(async () => {
      const after = await primary.query<{ claimed_by: string; sent: boolean; attempts: number }>(
        `SELECT claimed_by, sent_at IS NOT NULL AS sent, attempts FROM email_outbox WHERE '<' || id || '@bulkcart>' = $1`,
        [heldId],
      );
      expect(after.rows[0]).toMatchObject({ claimed_by: expect.stringContaining(`:${second}:`), sent: true, attempts: 2 });
    }, WAIT);
    expect(accepted().filter((id) => id === heldId)).toHaveLength(1);
  }, 60_000);
});

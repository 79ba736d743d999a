import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { createPostgresDatabase, createTestEnv, DATABASE_KINDS, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser } from '../../../test/helpers/accounts.ts';
import { startSmtp } from '../../../test/helpers/smtp.ts';
import { seedProduct } from '../../../test/helpers/products.ts';
import { queryRows } from '../../db/rows.ts';
import { startBackgroundWork } from '../../background.ts';
import { createSmtpTransport, deliverDueEmails, KEEP_SENT_EMAILS_MS, pruneSentEmails } from './mail-deliverer.ts';

/** A port nothing listens on (yet): the mail server is down. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

async function placeOrder(env: TestEnv, name: string): Promise<{ order: Order; sellerEmail: string }> {
  const seller = await signUpUser(env, { name: `${name} Seller` });
  const buyer = await signUpUser(env, { name: `${name} Buyer` });
  const { id: productId } = await seedProduct(env, seller, { mainquantity: 100, minquantity: 1, priceCents: 100 });
  const response = await env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 2 } });
  expect(response.statusCode, response.body).toBe(201);
  return { order: response.json() as Order, sellerEmail: seller.email };
}

async function outbox(env: TestEnv) {
  return queryRows<{ attempts: number; sent: boolean; last_error: string | null }>(
    env.db(),
    sql`SELECT attempts, sent_at IS NOT NULL AS sent, last_error FROM email_outbox ORDER BY created_at`,
  );
}

async function claims(env: TestEnv) {
  return queryRows<{ claimed_by: string | null; sent: boolean; attempts: number }>(
    env.db(),
    sql`SELECT claimed_by, sent_at IS NOT NULL AS sent, attempts FROM email_outbox ORDER BY created_at`,
  );
}

for (const kind of DATABASE_KINDS) {
  describe(`order emails [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('sends one email per event, naming the order number, and never twice across a server restart', async () => {
      const smtp = await startSmtp();
      cleanups.push(smtp.close);
      // One database both "processes" open in turn: a data directory for PGlite, one PostgreSQL database.
      const pg = kind === 'postgres' ? await createPostgresDatabase() : null;
      if (pg) cleanups.push(pg.drop);
      const dataDir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'bulkcart-mail-')) : null;
      if (dataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const vars = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_INTERVAL_MS: '100', ...(pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dataDir! }) };

      const first = await createTestEnv(kind, vars);
      const { order, sellerEmail } = await placeOrder(first, 'Mail');
      const transport = createSmtpTransport(first.config.mail!.smtpUrl);
      expect(await deliverDueEmails(first.db(), transport, first.config.mail!.from, new Date())).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueEmails(first.db(), transport, first.config.mail!.from, new Date())).toEqual({ sent: 0, failed: 0 });
      transport.close?.();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.to).toEqual([sellerEmail]);
      expect(smtp.received[0]?.raw).toContain(`New order ${order.number}`);
      await first.close();

      // The next process on the same database runs its background deliverer: it sends the e-mail of a
      // new order (proof that it ran a pass over the outbox), and the one already sent not again.
      const second = await createTestEnv(kind, vars);
      cleanups.push(() => second.close());
      const background = startBackgroundWork(second.ctx, second.app.log);
      try {
        const { order: next } = await placeOrder(second, 'Mail Again');
        // The deliverer runs while the test signs its users up: it may send a confirmation e-mail before
        // the test deletes it (signUpUser), so only the order e-mails are counted.
        const orderMails = () => smtp.received.filter((message) => message.raw.includes('New order'));
        await vi.waitFor(() => expect(orderMails().length).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 50 });
        expect(orderMails()).toHaveLength(2);
        expect(orderMails()[1]?.raw).toContain(`New order ${next.number}`);
      } finally {
        await background.stop();
      }
      expect(await outbox(second)).toEqual([
        { attempts: 1, sent: true, last_error: null },
        { attempts: 1, sent: true, last_error: null },
      ]);
    }, 120_000);

    it('retries with backoff while the mail server is down, without holding up the order', async () => {
      const port = await freePort();
      const env = await createTestEnv(kind, { SMTP_URL: `smtp://127.0.0.1:${port}` });
      cleanups.push(() => env.close());
      const { order } = await placeOrder(env, 'Down');
      // The order was answered without trying the mail server: its e-mail waits in the outbox, untried.
      expect(await outbox(env)).toEqual([{ attempts: 0, sent: false, last_error: null }]);
      const transport = createSmtpTransport(env.config.mail!.smtpUrl);
      const now = new Date();
      expect(await deliverDueEmails(env.db(), transport, env.config.mail!.from, now)).toEqual({ sent: 0, failed: 1 });
      expect(await outbox(env)).toEqual([{ attempts: 1, sent: false, last_error: expect.any(String) }]);
      // Not due again until its backoff has passed.
      expect(await deliverDueEmails(env.db(), transport, env.config.mail!.from, now)).toEqual({ sent: 0, failed: 0 });
      expect(await deliverDueEmails(env.db(), transport, env.config.mail!.from, new Date(now.getTime() + 1_500))).toEqual({ sent: 0, failed: 1 });

      const smtp = await startSmtp(port);
      cleanups.push(smtp.close);
      expect(await deliverDueEmails(env.db(), transport, env.config.mail!.from, new Date(now.getTime() + 10_000))).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueEmails(env.db(), transport, env.config.mail!.from, new Date(now.getTime() + 60_000))).toEqual({ sent: 0, failed: 0 });
      transport.close?.();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.raw).toContain(order.number);
      expect(await outbox(env)).toEqual([{ attempts: 3, sent: true, last_error: null }]);
    }, 120_000);

    it('renews its claim while a slow send runs, so no other process takes the e-mail meanwhile', async () => {
      const env = await createTestEnv(kind, { SMTP_URL: 'smtp://127.0.0.1:9' });
      cleanups.push(() => env.close());
      await placeOrder(env, 'Slow');
      const claimUntil = async () =>
        (await queryRows<{ until: number }>(env.db(), sql`SELECT extract(epoch FROM claimed_until) * 1000 AS until FROM email_outbox`))[0]!.until;
      const holder = { claimer: 'slow-sender', leaseMs: 1_500 };
      const other = { claimer: 'other-process', leaseMs: 1_500 };
      const sent: string[] = [];
      const slow = {
        async sendMail() {
          const first = Number(await claimUntil());
          // The send lasts until the claim has been pushed on past where it first ended.
          await vi.waitFor(async () => expect(Number(await claimUntil())).toBeGreaterThan(first + 1_000), { timeout: 20_000, interval: 50 });
          // Past the first lease's end, another process still finds the e-mail held.
          expect(await deliverDueEmails(env.db(), { sendMail: async () => void sent.push('other') }, 'x', new Date(first + 100), other)).toEqual({
            sent: 0,
            failed: 0,
          });
          sent.push('slow');
        },
      };
      expect(await deliverDueEmails(env.db(), slow, 'x', new Date(), holder)).toEqual({ sent: 1, failed: 0 });
      expect(sent).toEqual(['slow']);
    }, 120_000);

    it('leaves an e-mail claimed by a process that died to another process once the claim lapses, and sends it once', async () => {
      const smtp = await startSmtp();
      cleanups.push(smtp.close);
      const env = await createTestEnv(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      cleanups.push(() => env.close());
      const { order } = await placeOrder(env, 'Orphan');
      const transport = createSmtpTransport(env.config.mail!.smtpUrl);
      const from = env.config.mail!.from;
      const now = new Date();
      // A process claims the e-mail for 30 s and dies before sending (it never renews nor marks it).
      const stalled = { sendMail: () => new Promise<never>(() => {}) };
      const dead = { claimer: 'dead-process', leaseMs: 30_000 };
      void deliverDueEmails(env.db(), stalled, from, now, dead);
      await vi.waitFor(async () => expect((await claims(env))[0]?.claimed_by).toBe('dead-process'), { timeout: 10_000, interval: 20 });
      const next = { claimer: 'next-process', leaseMs: 30_000 };
      // While the claim runs, another process leaves the e-mail alone…
      expect(await deliverDueEmails(env.db(), transport, from, new Date(now.getTime() + 29_000), next)).toEqual({ sent: 0, failed: 0 });
      // …and after it, sends it, once.
      expect(await deliverDueEmails(env.db(), transport, from, new Date(now.getTime() + 31_000), next)).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueEmails(env.db(), transport, from, new Date(now.getTime() + 120_000), next)).toEqual({ sent: 0, failed: 0 });
      transport.close?.();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.raw).toContain(order.number);
      expect(await claims(env)).toEqual([{ claimed_by: 'next-process', sent: true, attempts: 2 }]);
    }, 120_000);

    if (kind === 'postgres') {
      it('sends each email once when two processes deliver at the same moment', async () => {
        const smtp = await startSmtp();
        cleanups.push(smtp.close);
        const pg = await createPostgresDatabase();
        cleanups.push(pg.drop);
        const vars = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, DATABASE_URL: pg.url };
        const a = await createTestEnv('postgres', vars);
        cleanups.push(() => a.close());
        const b = await createTestEnv('postgres', vars);
        cleanups.push(() => b.close());
        for (let i = 0; i < 6; i += 1) await placeOrder(a, `Twin ${i}`);
        const ta = createSmtpTransport(a.config.mail!.smtpUrl);
        const tb = createSmtpTransport(b.config.mail!.smtpUrl);
        const now = new Date();
        const results = await Promise.all([
          deliverDueEmails(a.db(), ta, a.config.mail!.from, now),
          deliverDueEmails(b.db(), tb, b.config.mail!.from, now),
          deliverDueEmails(a.db(), ta, a.config.mail!.from, now),
        ]);
        ta.close?.();
        tb.close?.();
        expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(6);
        expect(smtp.received).toHaveLength(6);
        expect(new Set(smtp.received.map((m) => m.to[0])).size).toBe(6);
      }, 120_000);
    }
  });
}

describe('mail settings', () => {
  it('writes no order e-mails to the outbox when SMTP_URL is not set (in-app notifications only)', async () => {
    const env = await createTestEnv('pglite');
    try {
      await placeOrder(env, 'Quiet');
      expect(await outbox(env)).toEqual([]);
      const [row] = await queryRows<{ n: number }>(env.db(), sql`SELECT count(*)::int AS n FROM notifications`);
      expect(row?.n).toBe(1);
    } finally {
      await env.close();
    }
  }, 60_000);
});

for (const kind of DATABASE_KINDS) {
  describe(`sent emails are kept 30 days [${kind}]`, () => {
    it('deletes only sent emails past their keeping time, never an unsent one', async () => {
      const env = await createTestEnv(kind);
      try {
        const now = new Date('2026-11-24T12:00:00Z');
        const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
        const day = 24 * 60 * 60_000;
        await env.db().execute(sql`INSERT INTO email_outbox (to_email, subject, body, sent_at, created_at) VALUES
          ('old@example.com', 'sent 31 days ago', 'x', ${ago(31 * day)}, ${ago(31 * day)}),
          ('edge@example.com', 'sent just inside the keeping time', 'x', ${ago(KEEP_SENT_EMAILS_MS - 60_000)}, ${ago(40 * day)}),
          ('unsent@example.com', 'never sent, 60 days old', 'x', NULL, ${ago(60 * day)})`);
        expect(await pruneSentEmails(env.db(), now)).toBe(1);
        const left = await queryRows<{ subject: string }>(env.db(), sql`SELECT subject FROM email_outbox ORDER BY subject`);
        expect(left.map((r) => r.subject)).toEqual(['never sent, 60 days old', 'sent just inside the keeping time']);
        expect(await pruneSentEmails(env.db(), now)).toBe(0);
      } finally {
        await env.close();
      }
    }, 60_000);
  });
}

import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../test/helpers/test-app.ts';
import { insertBuyers } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { lockCart } from './cart.queries.ts';

/** Whether one transaction waits for another needs transactions side by side: PostgreSQL only. */
describe('the cart lock [postgres]', () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv('postgres');
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A promise and the function that settles it: a transaction below commits once told to. */
  function gate(): { open: () => void; opened: Promise<void> } {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  }

  /** Runs lockCart in a transaction that records when it holds the lock, and commits once `until` settles. */
  function holder(buyerId: string, name: string, events: string[], until: Promise<void> = Promise.resolve()) {
    return env.db().transaction(async (tx) => {
      await lockCart(tx, buyerId);
      events.push(`${name} locked`);
      await until;
      events.push(`${name} commits`);
    });
  }

  async function untilEvent(events: string[], event: string): Promise<void> {
    while (!events.includes(event)) await sleep(5);
  }

  /** Resolves once a session of this test's database waits on a lock; a lock nobody waits on fails the test. */
  async function someoneWaitsOnALock(): Promise<void> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(10)) {
      const [row] = await queryRows<{ n: number }>(
        env.db(),
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if ((row?.n ?? 0) > 0) return;
    }
    throw new Error('no transaction waited on the lock within 10 s');
  }

  it('holds an existing cart: a second transaction waits for the first to commit', async () => {
    const [buyer] = await insertBuyers(env.db(), 1);
    const events: string[] = [];
    await holder(buyer!.id, 'create', events);
    const a = gate();
    const first = holder(buyer!.id, 'A', events, a.opened);
    await untilEvent(events, 'A locked');
    const second = holder(buyer!.id, 'B', events);
    await someoneWaitsOnALock();
    a.open();
    await Promise.all([first, second]);
    expect(events).toEqual(['create locked', 'create commits', 'A locked', 'A commits', 'B locked', 'B commits']);
  });

  it('holds a cart another transaction created while this one waited on it', async () => {
    const [buyer] = await insertBuyers(env.db(), 1);
    const events: string[] = [];
    // The creator inserts the cart and keeps it uncommitted; A's insert waits for it to commit, after
    // A's statement took its snapshot, so A's own lock cannot see the row.
    const c = gate();
    const creator = holder(buyer!.id, 'creator', events, c.opened);
    await untilEvent(events, 'creator locked');
    const a = gate();
    const first = holder(buyer!.id, 'A', events, a.opened);
    await someoneWaitsOnALock();
    c.open();
    await untilEvent(events, 'A locked');
    // Once A says it holds the cart, B must wait for A's commit.
    const second = holder(buyer!.id, 'B', events);
    await someoneWaitsOnALock();
    a.open();
    await Promise.all([creator, first, second]);
    expect(events).toEqual(['creator locked', 'creator commits', 'A locked', 'A commits', 'B locked', 'B commits']);
  });
});

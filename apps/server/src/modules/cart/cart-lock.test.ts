import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../test/helpers/test-app.ts';
import { insertBuyers } from '../../../test/helpers/accounts.ts';
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

  /** Runs lockCart in a transaction that records when it holds the lock, and commits once `until` settles. */
  function holder(buyerId: string, name: string, events: string[], until: Promise<void> = sleep(300)) {
    return env.db().transaction(async (tx) => {
      await lockCart(tx, buyerId);
      events.push(`${name} locked`);
      await until;
      events.push(`${name} commits`);
    });
  }

  it('holds an existing cart: a second transaction waits for the first to commit', async () => {
    const [buyer] = await insertBuyers(env.db(), 1);
    const events: string[] = [];
    await holder(buyer!.id, 'create', events, Promise.resolve());
    const first = holder(buyer!.id, 'A', events);
    while (!events.includes('A locked')) await sleep(5);
    await Promise.all([first, holder(buyer!.id, 'B', events, Promise.resolve())]);
    expect(events).toEqual(['create locked', 'create commits', 'A locked', 'A commits', 'B locked', 'B commits']);
  });

  it('holds a cart another transaction created while this one waited on it', async () => {
    const [buyer] = await insertBuyers(env.db(), 1);
    const events: string[] = [];
    let commitCreator!: () => void;
    const creatorMayCommit = new Promise<void>((resolve) => (commitCreator = resolve));
    // The creator inserts the cart and keeps it uncommitted; A's insert then waits for it to commit,
    // after A's statement took its snapshot, so A's own lock cannot see the row.
    const creator = holder(buyer!.id, 'creator', events, creatorMayCommit);
    while (!events.includes('creator locked')) await sleep(5);
    const a = holder(buyer!.id, 'A', events);
    await sleep(200);
    commitCreator();
    while (!events.includes('A locked')) await sleep(5);
    // Once A says it holds the cart, B must wait for A's commit.
    await Promise.all([creator, a, holder(buyer!.id, 'B', events, Promise.resolve())]);
    expect(events).toEqual(['creator locked', 'creator commits', 'A locked', 'A commits', 'B locked', 'B commits']);
  });
});

import { expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachDatabase } from '../test/helpers/test-app.ts';
import { queryRows } from './db/rows.ts';
import { claimDueTasks, finishTask, registerTasks, renewTask, startScheduler, type PeriodicJob } from './scheduler.ts';
import { holdingLease } from './lib/lease.ts';

const HOUR = 3_600_000;
const quiet = { warn: () => {} };

describeEachDatabase('background scheduler', (env) => {
  const task = async (name: string) =>
    (
      await queryRows<{ claimed_by: string | null; held: boolean; runs: number; due_in_s: number; lease_s: number | null }>(
        env().db(),
        sql`SELECT claimed_by, lease_until IS NOT NULL AS held, runs,
                   round(extract(epoch FROM next_run_at - now()))::int AS due_in_s,
                   round(extract(epoch FROM lease_until - now()))::int AS lease_s
            FROM background_tasks WHERE name = ${name}`,
      )
    )[0];

  it('gives each due task to one claimer only, however many ask at once', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `split-${i}`);
    await registerTasks(
      env().db(),
      names.map((name) => ({ name, everyMs: HOUR })),
    );
    for (let round = 0; round < 5; round += 1) {
      const claimers = Array.from({ length: 6 }, (_, i) => ({ claimer: `claimer-${i}`, leaseMs: HOUR }));
      const taken = await Promise.all(claimers.map((claimant) => claimDueTasks(env().db(), names, claimant)));
      const all = taken.flat();
      expect(all.length).toBe(names.length);
      expect(new Set(all).size).toBe(names.length);
      // Each row names the claimer that got it.
      for (const [i, mine] of taken.entries()) {
        for (const name of mine) expect((await task(name))?.claimed_by).toBe(`claimer-${i}`);
      }
      // A claimed task is not handed out again while its lease runs.
      expect(await claimDueTasks(env().db(), names, { claimer: 'late', leaseMs: HOUR })).toEqual([]);
      await env()
        .db()
        .execute(sql`UPDATE background_tasks SET lease_until = NULL, next_run_at = now() WHERE name LIKE 'split-%'`);
    }
  });

  it('lets another claimer take a task whose holder stopped renewing, once the lease has lapsed', async () => {
    await registerTasks(env().db(), [{ name: 'abandoned', everyMs: HOUR }]);
    const dead = { claimer: 'dead-process', leaseMs: 1_000 };
    const next = { claimer: 'next-process', leaseMs: HOUR };
    const claimedAt = Date.now();
    expect(await claimDueTasks(env().db(), ['abandoned'], dead)).toEqual(['abandoned']);
    expect(await claimDueTasks(env().db(), ['abandoned'], next)).toEqual([]);
    // The holder never renews (it was killed): the task is free again after its one-second lease.
    await vi.waitFor(async () => expect(await claimDueTasks(env().db(), ['abandoned'], next)).toEqual(['abandoned']), { timeout: 15_000, interval: 100 });
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(900);
    // The process that lost it can neither renew nor finish it.
    expect(await renewTask(env().db(), 'abandoned', dead)).toBe(false);
    await finishTask(env().db(), 'abandoned', dead, HOUR, undefined);
    expect(await task('abandoned')).toMatchObject({ claimed_by: 'next-process', held: true, runs: 2 });
  });

  it('renews a held lease, and a finished pass is not due again for one interval', async () => {
    await registerTasks(env().db(), [{ name: 'renewed', everyMs: HOUR }]);
    const holder = { claimer: 'holder', leaseMs: 5_000 };
    expect(await claimDueTasks(env().db(), ['renewed'], holder)).toEqual(['renewed']);
    expect((await task('renewed'))?.lease_s).toBeLessThanOrEqual(5);
    expect(await renewTask(env().db(), 'renewed', { ...holder, leaseMs: HOUR })).toBe(true);
    expect((await task('renewed'))?.lease_s).toBeGreaterThan(3_000);
    await finishTask(env().db(), 'renewed', holder, HOUR, new Error('mail server down'));
    const row = await task('renewed');
    expect(row).toMatchObject({ claimed_by: 'holder', held: false, runs: 1 });
    expect(row?.due_in_s).toBeGreaterThan(3_500);
    expect(await claimDueTasks(env().db(), ['renewed'], { claimer: 'other', leaseMs: HOUR })).toEqual([]);
    // A shorter interval set since is honoured on the next start: the pass comes due sooner.
    await registerTasks(env().db(), [{ name: 'renewed', everyMs: 60_000 }]);
    expect((await task('renewed'))?.due_in_s).toBeLessThanOrEqual(60);
  });

  it('keeps a lease alive while the work runs, however long it takes', async () => {
    await registerTasks(env().db(), [{ name: 'long pass', everyMs: HOUR }]);
    const holder = { claimer: 'busy', leaseMs: 1_500 };
    expect(await claimDueTasks(env().db(), ['long pass'], holder)).toEqual(['long pass']);
    let renewals = 0;
    await holdingLease(
      holder.leaseMs,
      async () => {
        await renewTask(env().db(), 'long pass', holder);
        renewals += 1;
      },
      // The work ends once the lease has been renewed three times: past the first lease's end.
      () => vi.waitFor(() => expect(renewals).toBeGreaterThanOrEqual(3), { timeout: 20_000, interval: 50 }),
    );
    expect(await claimDueTasks(env().db(), ['long pass'], { claimer: 'other', leaseMs: HOUR })).toEqual([]);
    expect((await task('long pass'))?.claimed_by).toBe('busy');
  });

  it('runs a once-per-interval job in one process at a time when two processes schedule it', async () => {
    let running = 0;
    let overlapped = false;
    let calls = 0;
    const job = (label: string): PeriodicJob => ({
      name: 'shared pass',
      everyMs: 200,
      runs: 'once',
      async run() {
        running += 1;
        if (running > 1) overlapped = true;
        calls += 1;
        // Long enough for the other process's ticks to find the task held.
        await new Promise((resolve) => setTimeout(resolve, 120));
        running -= 1;
        return label;
      },
    });
    const first = startScheduler(env().db(), [job('first')], quiet, { claimer: 'first', leaseMs: 10_000 }, 25);
    const second = startScheduler(env().db(), [job('second')], quiet, { claimer: 'second', leaseMs: 10_000 }, 25);
    try {
      await vi.waitFor(async () => expect((await task('shared pass'))?.runs).toBeGreaterThanOrEqual(5), { timeout: 30_000, interval: 50 });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect(overlapped).toBe(false);
    // Every pass was claimed once in the table and run once.
    expect(calls).toBe((await task('shared pass'))?.runs);
  });
});

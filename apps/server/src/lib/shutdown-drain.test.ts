import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drainThenStop, SHUTDOWN_QUIET_MS, type Activity } from './shutdown-drain.ts';

const DEFAULT_DEADLINE_MS = 10_000;

/** Requests that finish at the given times (ms after the signal); the last one's end is the last activity. */
function requestsEndingAt(...endsAt: number[]): Activity {
  const signal = Date.now();
  return {
    inFlight: () => endsAt.filter((end) => signal + end > Date.now()).length,
    quietFor: () => {
      const ended = endsAt.filter((end) => signal + end <= Date.now());
      return Date.now() - (signal + (ended.length > 0 ? Math.max(...ended) : 0));
    },
  };
}

/** A stream of clients that never pauses: a request always in flight. */
const neverQuiet: Activity = { inFlight: () => 1, quietFor: () => 0 };

/** Starts the drain and reports when it called stop, in ms after the signal. */
function drain(activity: Activity, deadlineMs: number): { stoppedAt: () => number | undefined } {
  const signal = Date.now();
  let stoppedAt: number | undefined;
  void drainThenStop(activity, deadlineMs, async () => {
    stoppedAt = Date.now() - signal;
  });
  return { stoppedAt: () => stoppedAt };
}

describe('drainThenStop: a stopping server keeps reading until quiet, within its share of the deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops once nothing is in flight and nothing came for the quiet time', async () => {
    const run = drain(requestsEndingAt(120, 400), DEFAULT_DEADLINE_MS);
    await vi.advanceTimersByTimeAsync(400 + SHUTDOWN_QUIET_MS - 60);
    expect(run.stoppedAt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(run.stoppedAt()).toBeGreaterThanOrEqual(400 + SHUTDOWN_QUIET_MS);
    expect(run.stoppedAt()).toBeLessThanOrEqual(400 + SHUTDOWN_QUIET_MS + 50);
  });

  it('keeps the listener open past 3 s while a slow queue is still being worked through (a loaded machine with PGlite)', async () => {
    // The last request it took ends 4.5 s after the signal, inside half the default deadline.
    const run = drain(requestsEndingAt(1_000, 2_000, 4_500), DEFAULT_DEADLINE_MS);
    await vi.advanceTimersByTimeAsync(4_500);
    expect(run.stoppedAt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SHUTDOWN_QUIET_MS + 100);
    expect(run.stoppedAt()).toBeGreaterThanOrEqual(4_500 + SHUTDOWN_QUIET_MS);
  });

  it('closes after half the deadline when clients keep coming, leaving the other half for what is in flight', async () => {
    const run = drain(neverQuiet, DEFAULT_DEADLINE_MS);
    await vi.advanceTimersByTimeAsync(DEFAULT_DEADLINE_MS / 2 - 100);
    expect(run.stoppedAt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(run.stoppedAt()).toBeGreaterThanOrEqual(DEFAULT_DEADLINE_MS / 2);

    const short = drain(neverQuiet, 1_000);
    await vi.advanceTimersByTimeAsync(600);
    expect(short.stoppedAt()).toBeGreaterThanOrEqual(500);
    expect(short.stoppedAt()).toBeLessThanOrEqual(550);
  });
});

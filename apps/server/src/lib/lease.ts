import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

/**
 * This process's name on the rows it claims (`claimed_by`): host, pid and a random tag, so a restarted
 * process that got the same pid is still someone else. Renewals and completions check it, so a process
 * that lost its claim (it stalled past the lease and another took over) cannot renew or finish it.
 */
export const PROCESS_CLAIMER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Who claims, and for how long a claim lasts unless renewed. */
export interface Claimant {
  claimer: string;
  leaseMs: number;
}

/**
 * Runs `work` while renewing its lease every third of `leaseMs`, so a claim outlives work of any length
 * for as long as its process lives, and expires within `leaseMs` once the process dies. A renewal that
 * fails (database away) is tried again on the next beat; the lease still has two thirds to run.
 */
export async function holdingLease<T>(leaseMs: number, renew: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(
    () => {
      renew().catch(() => {});
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  beat.unref();
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/** A PostgreSQL interval literal for a number of milliseconds. */
export function intervalOf(ms: number): string {
  return `${ms} milliseconds`;
}

/** This process as a claimant, with the lease the configuration sets (JOB_LEASE_MS). */
export function processClaimant(leaseMs: number): Claimant {
  return { claimer: PROCESS_CLAIMER, leaseMs };
}

import type { Server } from 'node:http';

/** A stopping server closes once no request is in flight and none has come for this long… */
export const SHUTDOWN_QUIET_MS = 300;
/**
 * …or, if clients keep coming, once this share of SHUTDOWN_DEADLINE_MS has passed: the rest of the
 * deadline is for the requests it took to finish. A fixed 3 s was too short on a loaded machine with
 * PGlite, whose queries hold the event loop: connections sent before the signal were still unread
 * when the listener closed, and were reset (docs/reliability.md §5).
 */
export const SHUTDOWN_DRAIN_SHARE = 0.5;
/** How often the drain looks at the activity. */
const DRAIN_POLL_MS = 50;

export interface Activity {
  inFlight(): number;
  quietFor(): number;
}

/** Counts requests in flight and notes when the last connection or request came or went. */
export function trackActivity(server: Server): Activity {
  let inFlight = 0;
  let lastActivity = Date.now();
  const touch = () => {
    lastActivity = Date.now();
  };
  server.on('connection', touch);
  server.on('request', (_request, response) => {
    inFlight += 1;
    touch();
    response.once('close', () => {
      inFlight -= 1;
      touch();
    });
  });
  return { inFlight: () => inFlight, quietFor: () => Date.now() - lastActivity };
}

/**
 * Closing the listener at once would cut off requests already sent but not yet read: Node resets the
 * connections still in the accept queue and those it has not begun to read (with PGlite busy, that
 * can be most of them). So a stopping server keeps reading and answering until it has been quiet for
 * a moment, or until its share of the deadline is spent, then stops; `stop` waits for whatever is
 * still in flight.
 */
export async function drainThenStop(activity: Activity, deadlineMs: number, stop: () => Promise<void>): Promise<void> {
  const since = Date.now();
  const drainMaxMs = deadlineMs * SHUTDOWN_DRAIN_SHARE;
  while ((activity.inFlight() > 0 || activity.quietFor() < SHUTDOWN_QUIET_MS) && Date.now() - since < drainMaxMs) {
    await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
  }
  await stop();
}

import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/throwaway-postgres.ts';
import { DATABASE_KINDS } from '../helpers/test-app.ts';
import { createDataHome, listCatalog } from './support/server-data.ts';
import { OrderLedger } from './support/order-stream.ts';
import { startServer, type ServerProcess } from './support/server-process.ts';

/** docs/reliability.md: at least 30 kills per run and database. */
const KILLS = 30;
const WORKERS = 8;
/** The kill comes at a random moment this long after the stream of orders starts. */
const KILL_AFTER_MS = { min: 100, max: 1_500 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

// The two databases run side by side: each kill-and-restart cycle waits mostly on start-up.
describe.concurrent('SIGKILL at random moments during a stream of orders and cancels', () => {
  for (const kind of DATABASE_KINDS) {
    it(`[${kind}] loses no confirmed order, revives no cancelled one, and keeps stock + live orders = initial stock over ${KILLS} kills`, async () => {
      const started = Date.now();
      const home = await createDataHome(kind);
      const port = await freePort();
      let server: ServerProcess | undefined;
      try {
        server = await startServer({ port, env: home.env });
        const catalog = await listCatalog(server.url, 4, randomUUID().slice(0, 8));
        const ledger = new OrderLedger(catalog.buyers, [...catalog.stock.keys()]);
        for (const [id, stock] of catalog.stock) ledger.initialStock.set(id, stock);
        const errorLines: string[] = [];

        for (let kill = 1; kill <= KILLS; kill++) {
          if (kill > 1) server = await startServer({ port, env: home.env });
          await ledger.settleUnknowns(server.url);
          const stream = ledger.runStream(server.url, WORKERS);
          await sleep(KILL_AFTER_MS.min + randomInt(KILL_AFTER_MS.max - KILL_AFTER_MS.min));
          ledger.counts.inFlightAtInterruption.push(stream.inFlight());
          stream.halt();
          const exit = await server.kill('SIGKILL');
          await stream.finished;
          expect(exit.signal).toBe('SIGKILL');
          errorLines.push(...server.errorLines());
        }

        // One more start: settle every unknown outcome, then read the books as the clients see them.
        server = await startServer({ port, env: home.env });
        await ledger.settleUnknowns(server.url);
        expect(ledger.unknownCount).toBe(0);
        const books = await ledger.readBooks(server.url);
        errorLines.push(...server.errorLines());
        const stopped = await server.kill('SIGTERM');
        expect(stopped.code).toBe(0);

        const counts = ledger.counts;
        console.log(
          `[crash ${kind}] ${KILLS} SIGKILLs in ${Math.round((Date.now() - started) / 1000)} s; ` +
            `${counts.ordersCreated} orders answered 201, ${counts.ordersReplayed} replays of unanswered orders, ${counts.ordersRefused} refused (409/422), ` +
            `${counts.cancelsConfirmed} cancels answered 200, ${counts.unanswered} requests cut off by a kill; ` +
            `requests in flight at the kill: min ${Math.min(...counts.inFlightAtInterruption)}, median ${median(counts.inFlightAtInterruption)}, max ${Math.max(...counts.inFlightAtInterruption)}; ` +
            `${ledger.confirmed.size - ledger.cancelled.size} live orders at the end`,
        );

        expect(books.missing, 'orders answered 201 that are gone').toEqual([]);
        expect(books.resurrected, 'cancelled orders that came back').toEqual([]);
        expect(books.unexpected, 'orders nobody was told about').toEqual([]);
        expect(books.unbalanced, 'products whose stock + live orders ≠ initial stock').toEqual([]);
        expect(ledger.contradictions).toEqual([]);
        expect(errorLines).toEqual([]);
        expect(counts.serverErrors).toEqual([]);
        // The run must really have been interrupted mid-request, or it proves nothing.
        expect(counts.unanswered).toBeGreaterThan(0);
        expect(counts.cancelsConfirmed).toBeGreaterThan(0);

        // The database itself agrees: no stock below 0, and every product balances.
        const db = await home.readLedger();
        expect(db.negative).toEqual([]);
        for (const [id, initial] of ledger.initialStock) {
          expect((db.stockByProduct.get(id) ?? NaN) + (db.liveByProduct.get(id) ?? 0), id).toBe(initial);
        }
      } finally {
        await server?.kill('SIGKILL');
        await home.remove();
      }
    }, 900_000);
  }
});

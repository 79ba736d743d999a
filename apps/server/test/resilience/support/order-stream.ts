import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { bearer, readWholeList, send, type Account } from './http-client.ts';

/**
 * A stream of orders and cancels from several buyers, and what the clients were told. A request that
 * got no answer (the server died, the database was away) is "unknown": it may or may not have taken
 * effect. Unknown orders are retried with their Idempotency-Key and unknown cancels are repeated,
 * exactly as a careful client would, until every outcome is known; then the books must balance.
 */
export interface OrderRecord {
  productId: string;
  quantity: number;
  buyer: Account;
}

export interface StreamCounts {
  ordersCreated: number;
  ordersReplayed: number;
  ordersRefused: number;
  cancelsConfirmed: number;
  unanswered: number;
  /** Answers with a 5xx status other than 503 (a 503 is the promised answer during an outage). */
  serverErrors: string[];
  unavailable: number;
  /** Requests still waiting for an answer at each interruption. */
  inFlightAtInterruption: number[];
}

export class OrderLedger {
  readonly initialStock = new Map<string, number>();
  /** Orders the server confirmed (201, or 200 for a replay). */
  readonly confirmed = new Map<string, OrderRecord>();
  /** Confirmed orders whose cancel the server confirmed (200, or 404 when a repeat found it gone). */
  readonly cancelled = new Set<string>();
  private readonly unknownOrders: Array<{ key: string; buyer: Account; productId: string; quantity: number }> = [];
  private readonly unknownCancels = new Map<string, Account>();
  private readonly cancelling = new Set<string>();
  readonly counts: StreamCounts = {
    ordersCreated: 0,
    ordersReplayed: 0,
    ordersRefused: 0,
    cancelsConfirmed: 0,
    unanswered: 0,
    serverErrors: [],
    unavailable: 0,
    inFlightAtInterruption: [],
  };
  /** Anything the server said that contradicts what it said before. */
  readonly contradictions: string[] = [];

  constructor(
    readonly buyers: Account[],
    readonly productIds: string[],
  ) {}

  liveOrdersOf(buyer: Account): string[] {
    return [...this.confirmed.entries()]
      .filter(([id, o]) => o.buyer === buyer && !this.cancelled.has(id) && !this.unknownCancels.has(id) && !this.cancelling.has(id))
      .map(([id]) => id);
  }

  get unknownCount(): number {
    return this.unknownOrders.length + this.unknownCancels.size;
  }

  private noteServerAnswer(status: number, what: string, body: string): void {
    if (status === 503) this.counts.unavailable += 1;
    else if (status >= 500) this.counts.serverErrors.push(`${what} → ${status} ${body.slice(0, 200)}`);
  }

  private recordOrderAnswer(status: number, body: string, record: OrderRecord, what: string): boolean {
    if (status === 201 || status === 200) {
      const order = JSON.parse(body) as { _id: string; quantity: number; productId: string };
      if (status === 201) this.counts.ordersCreated += 1;
      else this.counts.ordersReplayed += 1;
      const known = this.confirmed.get(order._id);
      if (known && status === 201) this.contradictions.push(`order ${order._id} created twice`);
      if (order.quantity !== record.quantity || order.productId !== record.productId)
        this.contradictions.push(`order ${order._id} came back with other contents`);
      this.confirmed.set(order._id, record);
      return true;
    }
    if (status === 409 || status === 422) {
      this.counts.ordersRefused += 1;
      return true;
    }
    this.noteServerAnswer(status, what, body);
    return status < 500;
  }

  /** One new order, or one cancel of a live order, for `buyer`. */
  async step(baseUrl: string, buyer: Account, agent: http.Agent): Promise<void> {
    const live = this.liveOrdersOf(buyer);
    if (live.length > 0 && randomInt(100) < 35) {
      const id = live[randomInt(live.length)]!;
      this.cancelling.add(id);
      try {
        const answer = await send(baseUrl, { method: 'DELETE', path: `/api/order/${id}`, headers: bearer(buyer.token), agent });
        if (answer.status === 200) {
          this.cancelled.add(id);
          this.counts.cancelsConfirmed += 1;
        } else if (answer.status === 404) {
          this.contradictions.push(`live order ${id} was not found when cancelled`);
        } else {
          this.noteServerAnswer(answer.status, `DELETE /api/order/${id}`, answer.body);
          if (answer.status >= 500) this.unknownCancels.set(id, buyer);
        }
      } catch {
        this.counts.unanswered += 1;
        this.unknownCancels.set(id, buyer);
      } finally {
        this.cancelling.delete(id);
      }
      return;
    }
    const productId = this.productIds[randomInt(this.productIds.length)]!;
    const quantity = 1 + randomInt(20);
    const key = randomUUID();
    try {
      const answer = await send(baseUrl, {
        method: 'POST',
        path: '/api/order',
        headers: { ...bearer(buyer.token), 'idempotency-key': key },
        body: { productId, quantity },
        agent,
      });
      if (!this.recordOrderAnswer(answer.status, answer.body, { productId, quantity, buyer }, 'POST /api/order')) {
        this.unknownOrders.push({ key, buyer, productId, quantity });
      }
    } catch {
      this.counts.unanswered += 1;
      this.unknownOrders.push({ key, buyer, productId, quantity });
    }
  }

  /**
   * Repeats every request whose outcome is unknown: an order with its own Idempotency-Key (a replay
   * means the first try had committed), a cancel as itself (a 404 means the first try had committed).
   */
  async settleUnknowns(baseUrl: string): Promise<void> {
    // Each retry stands alone (its own key, or its own order), so they go SETTLE_CONCURRENCY at a time:
    // an outage leaves hundreds of them.
    await forEachConcurrently(this.unknownOrders.splice(0), async (o) => {
      const answer = await send(baseUrl, {
        method: 'POST',
        path: '/api/order',
        headers: { ...bearer(o.buyer.token), 'idempotency-key': o.key },
        body: { productId: o.productId, quantity: o.quantity },
      });
      if (!this.recordOrderAnswer(answer.status, answer.body, o, 'retried POST /api/order')) this.unknownOrders.push(o);
    });
    await forEachConcurrently([...this.unknownCancels], async ([id, buyer]) => {
      const answer = await send(baseUrl, { method: 'DELETE', path: `/api/order/${id}`, headers: bearer(buyer.token) });
      if (answer.status === 200 || answer.status === 404) {
        this.cancelled.add(id);
        this.unknownCancels.delete(id);
      } else {
        this.noteServerAnswer(answer.status, `retried DELETE /api/order/${id}`, answer.body);
      }
    });
  }

  /**
   * Runs `workers` concurrent loops of steps. `halt()` stops new requests at once (call it just before
   * cutting the server off, so no request is sent into a dead port); `finished` resolves once every
   * loop has ended. `inFlight()` counts the requests waiting for an answer right now.
   */
  runStream(baseUrl: string, workers: number): { inFlight(): number; halt(): void; finished: Promise<void> } {
    const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
    let halted = false;
    let inFlight = 0;
    const loops = Array.from({ length: workers }, async (_, i) => {
      const buyer = this.buyers[i % this.buyers.length]!;
      while (!halted) {
        inFlight += 1;
        await this.step(baseUrl, buyer, agent);
        inFlight -= 1;
      }
    });
    return {
      inFlight: () => inFlight,
      halt: () => {
        halted = true;
      },
      finished: Promise.all(loops).then(() => agent.destroy()),
    };
  }

  /**
   * What every client can now check through the API: each buyer's live orders are exactly the confirmed,
   * uncancelled ones, and for every product the stock plus the live orders is the stock it started with.
   */
  async readBooks(baseUrl: string): Promise<{ missing: string[]; resurrected: string[]; unexpected: string[]; unbalanced: string[] }> {
    const listed = new Map<string, { productId: string | null; quantity: number }>();
    for (const buyer of this.buyers) {
      const orders = await readWholeList<{ _id: string; productId: string | null; quantity: number }>(
        baseUrl,
        `/api/orders/${encodeURIComponent(buyer.email)}?limit=200`,
        bearer(buyer.token),
      );
      for (const o of orders) listed.set(o._id, o);
    }
    const expectedLive = [...this.confirmed.keys()].filter((id) => !this.cancelled.has(id));
    const missing = expectedLive.filter((id) => !listed.has(id));
    const resurrected = [...this.cancelled].filter((id) => listed.has(id));
    const unexpected = [...listed.keys()].filter((id) => !this.confirmed.has(id));
    const unbalanced: string[] = [];
    for (const productId of this.productIds) {
      const answer = await send(baseUrl, { method: 'GET', path: `/api/product/${productId}` });
      const stock = answer.json<{ mainquantity: number }>().mainquantity;
      const live = [...listed.values()].filter((o) => o.productId === productId).reduce((sum, o) => sum + o.quantity, 0);
      const initial = this.initialStock.get(productId);
      if (stock + live !== initial) unbalanced.push(`${productId}: stock ${stock} + live orders ${live} ≠ initial ${initial}`);
    }
    return { missing, resurrected, unexpected, unbalanced };
  }
}

const SETTLE_CONCURRENCY = 8;

/** Runs `work` over `items`, at most SETTLE_CONCURRENCY at a time. */
async function forEachConcurrently<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(SETTLE_CONCURRENCY, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

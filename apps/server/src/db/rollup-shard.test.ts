import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/helpers/test-app.ts';
import { queryRows } from './rows.ts';
import { orderIdInShard, pgHashtext, rollupShardOf } from './rollup-shard.ts';

describeEachDatabase('rollup shard', (env) => {
  it('hashes text as the database does: ids, and texts of every length a tail can have', async () => {
    const texts = [
      ...Array.from({ length: 40 }, () => randomUUID()),
      ...Array.from({ length: 30 }, (_, n) => 'order-ÅB-'.repeat(4).slice(0, n)),
      'BC-1000',
      'ünïcödé ✓',
    ];
    const rows = await queryRows<{ text: string; hash: number }>(
      env().db(),
      sql`SELECT t AS text, hashtext(t) AS hash FROM jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) AS t`,
    );
    expect(rows).toHaveLength(texts.length);
    for (const row of rows) expect({ text: row.text, hash: pgHashtext(row.text) }).toEqual(row);
  });

  it('chooses order ids in the shard asked for, as the rollup triggers will file them', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => orderIdInShard(i % 8));
    const rows = await queryRows<{ id: string; shard: number }>(
      env().db(),
      sql`SELECT id::uuid::text AS id, hashtext(id::uuid::text) & 7 AS shard FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS id`,
    );
    expect(rows.map((row) => row.shard)).toEqual(ids.map((_, i) => i % 8));
    expect(rows.map((row) => rollupShardOf(row.id))).toEqual(ids.map((_, i) => i % 8));
  });
});

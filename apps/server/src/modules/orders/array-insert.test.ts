import { sql } from 'drizzle-orm';
import { bigserial, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { prepareSql, runPrepared } from '../../db/prepared.ts';
import { queryRows } from '../../db/rows.ts';
import { arrayInsert } from './array-insert.ts';

/** A table of its own, so the test sees exactly what the insert wrote. */
const probe = pgTable('array_insert_probe', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: integer('id').notNull(),
  label: text('label'),
  tags: jsonb('tags'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

describe('arrayInsert: the statement it builds', () => {
  it('has one shape whatever the number of rows, each column one array', () => {
    const one = arrayInsert('p', probe, [{ id: 1, label: 'a' }], {});
    const values: Record<string, unknown> = {};
    const seven = arrayInsert(
      'p',
      probe,
      Array.from({ length: 7 }, (_, i) => ({ id: i, label: `row ${i}` })),
      values,
    );
    expect(seven.shape).toBe(one.shape);
    expect(values).toEqual({ p_id: [0, 1, 2, 3, 4, 5, 6], p_label: ['row 0', 'row 1', 'row 2', 'row 3', 'row 4', 'row 5', 'row 6'] });
  });

  it('names the columns some row gives in its shape, in the table’s order whatever the rows’ key order', () => {
    const a = arrayInsert('p', probe, [{ label: 'x', id: 1 }, { id: 2 }], {});
    const b = arrayInsert('p', probe, [{ id: 1, label: 'x' }], {});
    expect(a.shape).toBe('p[id,label]');
    expect(b.shape).toBe(a.shape);
    expect(arrayInsert('p', probe, [{ id: 1 }], {}).shape).not.toBe(a.shape);
  });

  it('refuses a row that leaves out a value its column would not take as null, or names no column', () => {
    expect(() => arrayInsert('p', probe, [{ id: 1 }, { label: 'no id' }], {})).toThrow('every row must give id');
    expect(() => arrayInsert('p', probe, [{ id: 1, createdAt: new Date() }, { id: 2 }], {})).toThrow('every row must give createdAt');
    expect(() => arrayInsert('p', probe, [{ id: 1, colour: 'red' }], {})).toThrow('colour is not a column of the table');
  });
});

describeEachDatabase('arrayInsert: what it writes', (env) => {
  beforeAll(async () => {
    await env()
      .db()
      .execute(
        sql`CREATE TABLE array_insert_probe (seq bigserial PRIMARY KEY, id integer NOT NULL, label text, tags jsonb, created_at timestamptz NOT NULL DEFAULT now())`,
      );
  });

  it('writes every row in array order, a value a row leaves out as null, the others by their encoders', async () => {
    const values: Record<string, unknown> = {};
    const rows = [
      { id: 3, label: 'first', tags: { colour: 'red' } },
      { id: 1, tags: ['a', 'b'] },
      { id: 2, label: null },
      { id: 9, label: 'quote \' and , comma "', tags: null },
    ];
    const insert = arrayInsert('p', probe, rows, values);
    await runPrepared(env().db(), prepareSql(insert.build()), values);
    const written = await queryRows<{ id: number; label: string | null; tags: unknown; dated: boolean }>(
      env().db(),
      sql`SELECT id, label, tags, created_at IS NOT NULL AS dated FROM array_insert_probe ORDER BY seq`,
    );
    expect(written).toEqual([
      { id: 3, label: 'first', tags: { colour: 'red' }, dated: true },
      { id: 1, label: null, tags: ['a', 'b'], dated: true },
      { id: 2, label: null, tags: null, dated: true },
      { id: 9, label: 'quote \' and , comma "', tags: null, dated: true },
    ]);
  });
});

import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { signUpUser } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { catalogImports } from '../../db/schema/index.ts';
import { sweepImportRows } from './index.ts';

const HOUR = 60 * 60 * 1000;

describeEachDatabase('sweep of catalog import staging rows', (env) => {
  it('deletes the rows of failed imports and of imports past their undo window, at most the limit per pass, on the clock it is given', async () => {
    const who = await signUpUser(env(), { name: 'Sweep Seller' });
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const job = async (fileName: string, status: string, appliedAt: Date | null, rows: number) => {
      const [row] = await env()
        .db()
        .insert(catalogImports)
        .values({ sellerId: who.id, sellerEmail: who.email, fileName, status, appliedAt })
        .returning({ id: catalogImports.id });
      await env().db().execute(sql`
        INSERT INTO catalog_import_rows (import_id, row_number, sku, action, cells)
        SELECT ${row!.id}, n, 'S-' || n, 'unchanged', '{}'::jsonb FROM generate_series(2, ${rows + 1}::int) AS n`);
      return row!.id;
    };
    const failed = await job('failed.csv', 'failed', null, 3);
    const oldApplied = await job('old-applied.csv', 'applied', ago(25 * HOUR), 4);
    const oldUndone = await job('old-undone.csv', 'undone', ago(30 * HOUR), 2);
    const recentApplied = await job('recent.csv', 'applied', ago(24 * HOUR - 60_000), 2);
    const ready = await job('ready.csv', 'ready', null, 2);
    const left = async () =>
      Object.fromEntries(
        (
          await queryRows<{ import_id: string; n: number }>(
            env().db(),
            sql`SELECT import_id, count(*)::int AS n FROM catalog_import_rows WHERE import_id IN (${sql.join(
              [failed, oldApplied, oldUndone, recentApplied, ready].map((id) => sql`${id}`),
              sql`, `,
            )}) GROUP BY import_id`,
          )
        ).map((r) => [r.import_id, r.n]),
      );

    // 9 rows are due; a pass bounded to 5 deletes exactly 5, the next the other 4, a third none.
    expect(await sweepImportRows(env().db(), now, 5)).toBe(5);
    expect(await sweepImportRows(env().db(), now, 5)).toBe(4);
    expect(await sweepImportRows(env().db(), now, 5)).toBe(0);
    expect(await left()).toEqual({ [recentApplied]: 2, [ready]: 2 });

    // Two minutes later the recent import's undo window has passed too; a ready import is never swept.
    expect(await sweepImportRows(env().db(), new Date(now.getTime() + 2 * 60_000))).toBe(2);
    expect(await left()).toEqual({ [ready]: 2 });
    // The jobs themselves stay, with their counts, for the history list.
    const [jobs] = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM catalog_imports WHERE seller_id = ${who.id}`);
    expect(jobs?.n).toBe(5);
  });
});

import { useState } from 'react';
import { useCatalogChanges } from '@/features/catalog/api/catalog-imports.ts';

/** The rows an import creates or updates, 50 at a time, each changed cell as old → new. */
export function ChangesTable({ id, count }: { id: string; count: number }) {
  // The cursors of the pages seen so far: "Previous" goes back one.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors.at(-1) ?? null;
  const changes = useCatalogChanges(id, cursor, count > 0);
  if (count === 0) return null;
  return (
    <section aria-labelledby="import-changes" className="flex flex-col gap-2">
      <h2 id="import-changes" className="text-lg font-bold">
        What will change
      </h2>
      {changes.isError ? <p className="text-sm text-error">Could not load the changes: {changes.error.message}</p> : null}
      <div className="overflow-x-auto">
        <table className="table table-sm" data-testid="changes-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">SKU</th>
              <th scope="col">Fields (old → new)</th>
            </tr>
          </thead>
          <tbody>
            {(changes.data?.items ?? []).map((row) => (
              <tr key={row.row} data-testid="change-row">
                <td className="align-top tabular-nums">{row.row}</td>
                <td className="align-top">
                  <span className="block font-mono text-sm [overflow-wrap:anywhere]">{row.sku}</span>
                  {row.action === 'create' ? (
                    <span className="badge badge-success badge-outline badge-sm">New</span>
                  ) : (
                    <span className="badge badge-info badge-outline badge-sm">Update</span>
                  )}
                </td>
                <td className="align-top">
                  <ul className="flex flex-col gap-0.5 text-sm">
                    {(row.action === 'create' ? row.changes.filter((c) => c.column !== 'sku').slice(0, 3) : row.changes).map((c) => (
                      <li key={c.column} className="[overflow-wrap:anywhere]">
                        <span className="font-medium">{c.column}</span>:{' '}
                        {row.action === 'update' ? (
                          <>
                            <span className="line-through decoration-error/60">{c.from || '(empty)'}</span> → <span>{c.to || '(empty)'}</span>
                          </>
                        ) : (
                          <span>{c.to}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex gap-2">
        <button type="button" className="btn btn-sm" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={!changes.data?.nextCursor}
          onClick={() => {
            const next = changes.data?.nextCursor;
            if (next) setCursors((c) => [...c, next]);
          }}
        >
          Next
        </button>
      </div>
    </section>
  );
}

import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { useCatalogImports } from '@/features/catalog/api/catalog-imports.ts';

const STATUS_WORDS = {
  validating: 'Checking',
  ready: 'Ready to review',
  applying: 'Applying',
  applied: 'Applied',
  failed: 'Failed',
  undone: 'Undone',
} as const;

/** The seller's last 20 imports, newest first. */
export function ImportHistory({ currentId }: { currentId: string | null }) {
  const history = useCatalogImports();
  const jobs = history.data ?? [];
  if (jobs.length === 0) return null;
  return (
    <section aria-labelledby="import-history" className="flex flex-col gap-2">
      <h2 id="import-history" className="text-lg font-bold">
        Recent imports
      </h2>
      <div className="overflow-x-auto">
        <table className="table table-sm">
          <thead>
            <tr>
              <th scope="col">Uploaded</th>
              <th scope="col">File</th>
              <th scope="col">Status</th>
              <th scope="col">New / updates / errors</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id} aria-current={job.id === currentId ? 'true' : undefined} className={job.id === currentId ? 'bg-base-200' : undefined}>
                <td className="text-xs">{new Date(job.createdAt).toLocaleString()}</td>
                <td className="min-w-28 [overflow-wrap:anywhere]">
                  <Link className="link link-primary" to={`${paths.catalogImport}?job=${job.id}`}>
                    {job.fileName}
                  </Link>
                </td>
                <td>{STATUS_WORDS[job.status]}</td>
                <td className="tabular-nums">
                  {[job.summary.create, job.summary.update, job.summary.invalid].map((n) => n.toLocaleString('en-US')).join(' / ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
